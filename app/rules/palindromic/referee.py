"""Adjudicating Palindromic Chess (PAL-1 .. PAL-6): one order, or one pass, at a time.

``play`` reads an order, checks whose turn it is, refuses what PAL-3 refuses (telling the orderer
why), and otherwise makes the move and tells both players. Then the position is judged for the
player whose turn it is: a pass owed to a player who is home (PAL-4), made by ``automatic`` as an
event of its own; or the end of the game (the reversal, checkmate, stalemate, dead position,
threefold repetition, the 50-move rule, in that order of precedence). The state changes only once
an order is accepted.

A home player is passed for even while in check: PAL-4 makes a home player pass, nothing may capture
the king (PAL-3), and leaving home to answer the check would only undo the player's arrival.
"""

from __future__ import annotations

import chess

from app.rules import messages
from app.rules.base import Message, Outcome, Side, other
from app.rules.common import end_game, win_for
from app.rules.palindromic.dead import is_dead
from app.rules.palindromic.destinations import is_home
from app.rules.palindromic.hands import update_hands
from app.rules.palindromic.legality import canonical, is_castle, order_move, pal_moves
from app.rules.palindromic.orders import Order
from app.rules.palindromic.state import COLOR, SIDE_OF, GameState, position_key
from app.rules.values import rejected

LETTERS = {kind: chess.piece_symbol(kind).upper() for kind in chess.PIECE_TYPES}
FIFTY_MOVES = 100  # plies (a pass is a turn too) without a pawn move; no capture is ever made


def judge_turn(state: GameState) -> tuple[str, str] | None:
    """The end of the game, if any, for a position where a player who is not home is to move:
    ``(result, reason)``. Records the position for threefold repetition."""
    board = state.board
    if not any(pal_moves(board)):
        if board.is_check():
            return win_for(SIDE_OF[not board.turn]), "checkmate"
        return "1/2-1/2", "stalemate"
    if is_dead(board):
        return "1/2-1/2", "dead position"
    key = position_key(board, state.left)
    if board.halfmove_clock == 0:
        state.history.clear()  # a pawn moved: no earlier position can come back
    state.history.append(key)
    if state.history.count(key) >= 3:
        return "1/2-1/2", "threefold repetition"
    if board.halfmove_clock >= FIFTY_MOVES:
        return "1/2-1/2", "50-move rule"
    return None


def judge_after_move(state: GameState, mover: Side) -> tuple[str, str] | None:
    """After ``mover``'s move: the reversal, a pass owed to the opponent, or ``judge_turn``."""
    board = state.board
    opponent = other(mover)
    if is_home(board, state.left, COLOR[opponent]):
        if is_home(board, state.left, COLOR[mover]):
            return win_for(mover), "reversal"
        state.pass_due = opponent
        return None
    return judge_turn(state)


class Referee:
    """Stateless: every method takes the game state it works on."""

    def move(self, state: GameState, side: Side, order: Order) -> Outcome:
        found = order_move(state.board, order)
        if isinstance(found, str):
            return rejected(side, found)
        return self.make_move(state, side, found)

    def automatic(self, state: GameState) -> tuple[Side, Outcome] | None:
        """PAL-4: the pass owed to a player who is home, told to both, then the mover's turn judged."""
        if state.pass_due is None or state.result is not None:
            return None
        side = state.pass_due
        return side, self.pass_turn(state)

    def pass_turn(self, state: GameState) -> Outcome:
        """Pass for the home player (a null move: the turn, the move number and the 50-move count go on)."""
        side = state.pass_due
        assert side is not None
        state.pass_due = None
        state.board.push(chess.Move.null())
        state.board.clear_stack()
        outcome = Outcome("passed")
        outcome.tell_both(messages.news(messages.PASSED, side))
        verdict = judge_turn(state)
        if verdict:
            end_game(state, outcome, *verdict)
        return outcome

    def make_move(self, state: GameState, side: Side, move: chess.Move) -> Outcome:
        board = state.board
        order = canonical(board, move)
        message = moved_message(board, state.left, move, side, order)
        state.left = update_hands(state.left, move)
        board.push(move)
        board.clear_stack()
        verdict = judge_after_move(state, side)
        check = board.is_check()
        if check:
            message["san"] += "#" if verdict and verdict[1] == "checkmate" else "+"
        outcome = Outcome("moved", order=order)
        state.last_move = dict(message)
        outcome.tell_both(message)
        if check:
            outcome.tell_both(messages.check(other(side)))
        if verdict:
            end_game(state, outcome, *verdict)
        return outcome


def moved_message(board: chess.Board, left: int, move: chess.Move, side: Side, order: str) -> Message:
    """The ``moved`` message of a move about to be made. Castling names the king's true squares and the
    rook's; a rook, alone or castling, is named with its hand (PAL-1)."""
    piece_type = board.piece_type_at(move.from_square)
    assert piece_type is not None
    castle = is_castle(board, move)
    message: Message = messages.moved({
        "from": chess.SQUARE_NAMES[move.from_square],
        "to": chess.SQUARE_NAMES[move.to_square],
        "piece": LETTERS[piece_type],
        "color": side,
        "san": san_without_suffix(board, move, order),
        "castle": order if castle else None,
    })
    if castle:
        rank = chess.square_rank(move.from_square)
        long = move.to_square < move.from_square
        message["to"] = chess.SQUARE_NAMES[chess.square(2 if long else 6, rank)]
        message["rook_from"] = chess.SQUARE_NAMES[move.to_square]
        message["rook_to"] = chess.SQUARE_NAMES[chess.square(3 if long else 5, rank)]
        message["handed"] = "left" if left & chess.BB_SQUARES[move.to_square] else "right"
    elif piece_type == chess.ROOK:
        message["handed"] = "left" if left & chess.BB_SQUARES[move.from_square] else "right"
    return message


def san_without_suffix(board: chess.Board, move: chess.Move, order: str) -> str:
    """SAN of a PAL move, before it is made; no capture or promotion ever needs writing. Computed here
    rather than by ``board.san``, whose check and mate marks follow FIDE (where captures are moves)."""
    if is_castle(board, move):
        return order
    piece_type = board.piece_type_at(move.from_square)
    to = chess.SQUARE_NAMES[move.to_square]
    if piece_type == chess.PAWN:
        return to
    letter = LETTERS[piece_type]  # type: ignore[index]
    others = board.pieces_mask(piece_type, board.turn) & ~chess.BB_SQUARES[move.from_square]  # type: ignore[arg-type]
    others &= board.attackers_mask(board.turn, move.to_square)  # the to-square is empty: attacking it is reaching it
    to_mask = chess.BB_SQUARES[move.to_square]
    rivals = [m.from_square for m in board.generate_legal_moves(others, to_mask)] if others else []
    if not rivals:
        return letter + to
    name = chess.SQUARE_NAMES[move.from_square]
    if all(chess.square_file(r) != chess.square_file(move.from_square) for r in rivals):
        return letter + name[0] + to
    if all(chess.square_rank(r) != chess.square_rank(move.from_square) for r in rivals):
        return letter + name[1] + to
    return letter + name + to

