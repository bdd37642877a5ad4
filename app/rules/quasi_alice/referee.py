"""Adjudicating one order of 4D Quasi-Alice Chess (QA4-1 .. QA4-9).

``play`` reads an order, settles the board and destination board the player left out (QA4-8), plays
the move if the fast generator lists it, and otherwise asks the rule-by-rule judge why not. Full
information (QA4-9): both players are told every move, check and end; a rejection goes to the orderer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NoReturn

import chess

from app.rules import messages
from app.rules.base import Message, OrderError, Outcome, Side, other
from app.rules.common import end_game, win_for
from app.rules.quasi_alice import judge
from app.rules.quasi_alice.movegen import CASTLE, EN_PASSANT, Move, checkers, has_legal_move, make
from app.rules.quasi_alice.orders import TYPE_LETTER, CastleOrder, MoveOrder, written
from app.rules.quasi_alice.position import BOARD_INDEX, BOARD_NAMES, WHITE, color_of, square_label, type_of
from app.rules.quasi_alice.state import SIDE_OF, GameState
from app.rules.values import error, rejected

FIFTY_MOVES = 100  # half-moves


class Rejected(Exception):
    """An order that was read but is not a legal move now; the text says why."""


def move(state: GameState, side: Side, order: MoveOrder | CastleOrder) -> Outcome:
    """Play the one legal move an order means, or say why there is none (QA4-8, QA4-9)."""
    try:
        found = resolve(state, order)
    except OrderError as problem:
        return error(side, problem)
    except Rejected as why:
        return rejected(side, str(why))
    return carry_out(state, found)


def own_piece(state: GameState, order: MoveOrder) -> str | None:
    """The letter of the mover's piece on the order's from-square, on the board it names or on the only board
    with one (full information, QA4-9); None when there is none (an order naming two boards' pieces is left
    to ``resolve``)."""
    color = state.position.turn
    boards = [BOARD_INDEX[order.board]] if order.board else range(4)
    letters = {TYPE_LETTER[type_of(code)] for index in boards
               if (code := state.position.at(index, order.origin)) and color_of(code) == color}
    return letters.pop() if len(letters) == 1 else (None if not letters else order.piece)


# --------------------------------------------------------------------------- QA4-8: what an order means


def resolve(state: GameState, order: MoveOrder | CastleOrder) -> Move:
    """The one legal move an order means; raises OrderError (ambiguous) or Rejected (illegal)."""
    if isinstance(order, CastleOrder):
        return _resolve_castle(state, order)
    position = state.position
    color = position.turn
    square = chess.square_name(order.origin)
    if order.board is not None:
        board = BOARD_INDEX[order.board]
    else:
        boards = [index for index in range(4) if _owner(position.at(index, order.origin)) == color]
        if len(boards) > 1:
            names = " and ".join(BOARD_NAMES[index] for index in boards)
            examples = " or ".join(f"{BOARD_NAMES[index]}:{order.text()}" for index in boards)
            raise OrderError(f"you have pieces on {square} on {names}: name the board, as in {examples}")
        if not boards:
            raise Rejected(f"there is no piece of yours on {square} on any board")
        board = boards[0]
    last_rank = 7 if color == WHITE else 0
    if order.promotion and chess.square_rank(order.to) != last_rank:
        raise OrderError(
            f"a promotion suffix belongs only on a move to the last rank, not to {chess.square_name(order.to)}"
        )
    code = position.at(board, order.origin)
    promotion = order.promotion or 0
    if code and type_of(code) == chess.PAWN and chess.square_rank(order.to) == last_rank:
        promotion = promotion or chess.QUEEN
    onto = BOARD_INDEX[order.onto] if order.onto else None
    matches = [
        move for move in state.legal_moves(board * 64 + order.origin)
        if move[0] == board and move[1] == order.origin and move[2] == order.to and move[4] == promotion
        and move[5] != CASTLE and (onto is None or move[3] == onto)
    ]
    if len(matches) == 1:
        return matches[0]
    written = MoveOrder(None, order.origin, order.to, order.promotion).text()
    _not_one(state, matches, board, written, order.onto, lambda snapshot, label: judge.before_transfer(
        snapshot, label, order.origin, order.to, promotion or None))


def _resolve_castle(state: GameState, order: CastleOrder) -> Move:
    position = state.position
    board = BOARD_INDEX[order.board] if order.board else position.kings[position.turn] >> 6
    onto = BOARD_INDEX[order.onto] if order.onto else None
    matches = [
        move for move in state.legal_moves(position.kings[position.turn])
        if move[5] == CASTLE and move[0] == board and (move[2] < move[1]) == order.long
        and (onto is None or move[3] == onto)
    ]
    if len(matches) == 1:
        return matches[0]
    _not_one(state, matches, board, CastleOrder(order.long).text(), order.onto,
             lambda snapshot, label: judge.castle_before_transfer(snapshot, label, order.long))


def _not_one(state: GameState, matches: list[Move], board: int, written: str, onto: str | None,
             before_transfer: Callable[[judge.Snapshot, str], str | judge.Played]) -> NoReturn:
    """An order that fits no legal move, or several: the error naming the destination boards it could mean,
    or the first rule it breaks (``before_transfer`` judges the move on its board, ``_refuse`` the transfer)."""
    label = BOARD_NAMES[board]
    if matches:
        _ambiguous(matches, f"{label}:{written}")
    snapshot = judge.snapshot_of(state.position)
    _refuse(snapshot, before_transfer(snapshot, label), onto)


def _refuse(snapshot: judge.Snapshot, played: str | judge.Played, onto: str | None) -> NoReturn:
    """Raise Rejected with the first rule the move breaks, before the transfer or in it."""
    if isinstance(played, str):
        raise Rejected(played)
    why = judge.transfer_reason(snapshot, played, onto) if onto else judge.no_destination_reason(snapshot, played)
    raise Rejected(why or "that move is not legal now")


def _ambiguous(matches: list[Move], text: str) -> NoReturn:
    boards = [BOARD_NAMES[move[3]] for move in matches]
    choices = ", ".join(boards[:-1]) + " and " + boards[-1]
    raise OrderError(f"{text} is legal onto {choices}: add the destination board, as in {text}>{boards[0]}")


def _owner(code: int) -> int | None:
    return color_of(code) if code else None


# --------------------------------------------------------------------------- carrying a move out


def piece_info(code: int, board: int, square: int) -> dict[str, str]:
    """A piece as messages name it: type letter, colour, and ``board:square``."""
    return {
        "piece": TYPE_LETTER[type_of(code)], "color": SIDE_OF[color_of(code)], "square": square_label(board, square),
    }


def carry_out(state: GameState, move: Move) -> Outcome:
    """Make the move, tell both players (QA4-9), and end the game when QA4-7 says so."""
    position = state.position
    board, origin, to, onto, promotion, special = move
    mover = state.to_move
    order = written(move)
    code, captured, landed_on = make(position, move)
    state.changed(board, onto)
    victim_square = (to - 8 if mover == "white" else to + 8) if special == EN_PASSANT else to
    castle = ("O-O-O" if to < origin else "O-O") if special == CASTLE else None
    moved: Message = messages.moved({
        "board": BOARD_NAMES[board],
        "from": chess.square_name(origin),
        "to": chess.square_name(to),
        "piece": TYPE_LETTER[type_of(code)],
        "color": mover,
        "captured": piece_info(captured, board, victim_square) if captured else None,
        "onto": BOARD_NAMES[onto],
        "landed_on": piece_info(landed_on, onto, to) if landed_on else None,
        "castle": castle,
        "promotion": TYPE_LETTER[promotion] if promotion else None,
        "en_passant": special == EN_PASSANT,
        "order": order,
    })
    if castle:
        rook = chess.square(0 if castle == "O-O-O" else 7, chess.square_rank(origin))
        moved["rook"] = {"from": chess.square_name(rook), "to": chess.square_name((origin + to) // 2)}
    outcome = Outcome("moved", order=order)
    outcome.tell_both(moved)
    if type_of(code) == chess.PAWN or captured or landed_on:
        state.halfmove_clock = 0
    else:
        state.halfmove_clock += 1
    if mover == "black":
        state.move_number += 1
    state.last_move = order
    key = state.repetition_key()
    if state.halfmove_clock == 0:
        state.history = [key]
    else:
        state.history.append(key)
    after_move(state, outcome, mover, key)
    return outcome


def after_move(state: GameState, outcome: Outcome, mover: Side, key: str) -> None:
    """QA4-7 and QA4-9: check, checkmate, stalemate, the 50-move rule, threefold repetition."""
    position = state.position
    opponent = other(mover)
    in_check = bool(checkers(position, position.turn))
    if in_check:
        king_board = position.kings[position.turn] >> 6
        outcome.tell_both(messages.check(opponent, board=BOARD_NAMES[king_board]))
    if not has_legal_move(position):
        if in_check:
            end_game(state, outcome, win_for(mover), "checkmate")
        else:
            end_game(state, outcome, "1/2-1/2", "stalemate")
    elif state.halfmove_clock >= FIFTY_MOVES:
        end_game(state, outcome, "1/2-1/2", "50-move rule")
    elif state.history.count(key) >= 3:
        end_game(state, outcome, "1/2-1/2", "threefold repetition")
