"""Adjudicating one order of Side View Chess (SV-1, SV-3 .. SV-5).

python-chess decides every question of FIDE legality; this module decides who is
told what. An illegal order is answered only "illegal", to the orderer alone
(SV-3), and the opponent of a mover learns only that a move was made and which of
their own pieces was lost (SV-4): never a square the mover's piece left or reached.
"""

from __future__ import annotations

import random
from typing import Any

import chess

from app.rules import backrank
from app.rules.base import OrderError, Outcome, SetupError, Side, other
from app.rules.common import answer_common, forfeit, win_for
from app.rules.side_view.moves import castle_destination, legal_by_order, order_text
from app.rules.side_view.orders import Castle, Command, Move, Order, Setup, read_order
from app.rules.side_view.sight import TYPE_LETTER
from app.rules.side_view.state import SIDE_OF, GameState, start_position

SIDE_TITLE = {"white": "White", "black": "Black"}
NOT_STARTED = "the game has not started: both players must send their setup first"
END_REASONS = {
    chess.Termination.CHECKMATE: "checkmate",
    chess.Termination.STALEMATE: "stalemate",
    chess.Termination.INSUFFICIENT_MATERIAL: "insufficient material",
    chess.Termination.SEVENTYFIVE_MOVES: "75-move rule",
    chess.Termination.FIVEFOLD_REPETITION: "fivefold repetition",
}


def rejected(side: Side, reason: str, order: str | None = None) -> Outcome:
    outcome = Outcome.only("rejected", side, {"kind": "rejected", "reason": reason})
    outcome.order = order
    return outcome


def piece_info(piece: chess.Piece, square: int) -> dict[str, str]:
    """A captured piece as messages name it: type letter, colour, square."""
    return {"piece": TYPE_LETTER[piece.piece_type], "color": SIDE_OF[piece.color], "square": chess.square_name(square)}


def end_game(state: GameState, outcome: Outcome, result: str, reason: str) -> None:
    """Close the game and tell both players the result and the reason (SV-4)."""
    state.phase = "over"
    state.result = result
    state.reason = reason
    state.draw_offer = None
    outcome.tell_both({"kind": "end", "result": result, "reason": reason})


# --------------------------------------------------------------------------- setup (SV-1)


def new_state(options: dict[str, Any], rng: random.Random | None) -> GameState:
    """A fresh game: standard and Chess960 starts are on the board at once; hidden ones wait for both rows."""
    state = GameState(options=options)
    if options["setup"] == "standard":
        state.begin(chess.STARTING_FEN)
    elif options["setup"] == "chess960":
        row = backrank.row_from_index((rng or random.SystemRandom()).randrange(960))
        state.begin(start_position(row, row))
    return state


def submit_setup(state: GameState, side: Side, order: Setup, rng: random.Random | None) -> Outcome:
    """LG-2 rules, as in Looking-Glass: the sender learns their row, the opponent only that it is in."""
    if state.options["setup"] != "hidden":
        return rejected(side, f"this game has no setup phase: it starts from the {state.options['setup']} position")
    if state.phase != "setup":
        return rejected(side, "the game has already started")
    if state.rows[side] is not None:
        return rejected(side, "your setup is already in")
    try:
        row = backrank.read_setup(order.value, rng)
    except SetupError as error:  # read, but against LG-2: the reason, and a row that would do
        return Outcome.only("rejected", side, {"kind": "rejected", "reason": str(error)})
    state.rows[side] = row
    outcome = Outcome("setup")
    outcome.tell(side, {"kind": "setup", "row": row, "index": backrank.index_of_row(row)})
    outcome.tell(other(side), {"kind": "setup-done", "color": side})
    white, black = state.rows["white"], state.rows["black"]
    if white and black:
        state.begin(start_position(white, black))
        outcome.tell_both({"kind": "start", "to_move": state.to_move})
    return outcome


# --------------------------------------------------------------------------- orders


def play(state: GameState, side: Side, text: str, rng: random.Random | None = None) -> Outcome:
    """Read one order line from ``side`` and carry it out on ``state``."""
    try:
        order = read_order(text)
    except OrderError as error:
        return Outcome.only("error", side, {"kind": "error", "reason": str(error)})
    return apply(state, side, order, rng)


def apply(state: GameState, side: Side, order: Order, rng: random.Random | None) -> Outcome:
    if isinstance(order, Setup):
        return submit_setup(state, side, order, rng)
    if state.phase == "over":
        return rejected(side, f"the game is over ({state.result}, {state.reason})")
    if isinstance(order, Command):
        if state.phase == "setup" and order.name != "resign":
            return rejected(side, NOT_STARTED)
        if order.name == "claim-draw":
            return claim_draw(state, side)
        return answer_common(state, side, order.name, end_game)
    if state.phase == "setup":
        return rejected(side, NOT_STARTED)
    if side != state.to_move:
        return rejected(side, f"it is not your turn: {SIDE_TITLE[state.to_move]} is to move", order.text())
    return move(state, side, order)


def claim_draw(state: GameState, side: Side) -> Outcome:
    """SV-5: valid when the present position has stood three times, or after fifty moves of each side
    without a capture or a pawn move; a valid claim ends the game, the claimant alone hears "not valid"."""
    board = state.board
    if board.is_repetition(3):
        reason = "threefold repetition"
    elif board.halfmove_clock >= 100:
        reason = "50-move rule"
    else:
        outcome = Outcome.only("answered", side, {"kind": "answer", "claim": "not valid"})
        outcome.order = "claim draw"
        return outcome
    outcome = Outcome("drawn", order="claim draw")
    end_game(state, outcome, "1/2-1/2", reason)
    return outcome


def find_move(board: chess.Board, order: Move | Castle) -> tuple[str, chess.Move] | None:
    """The legal move an order means, with its canonical text; None when illegal.

    A pawn move to the last rank without a letter is a queen's promotion (SV-5). Only the moves of the
    piece the order names (the king, for castling) are generated: no other move can be the one it means.
    """
    if isinstance(order, Castle):
        from_mask = board.kings & board.occupied_co[board.turn]
    else:
        from_mask = chess.BB_SQUARES[order.from_square]
    legal = legal_by_order(board, from_mask)
    text = order.text()
    if text not in legal and isinstance(order, Move) and order.promotion is None:
        text += "=Q"
    found = legal.get(text)
    return (order_text(board, found), found) if found is not None else None


def capture_of(board: chess.Board, chosen: chess.Move) -> tuple[chess.Piece, int] | None:
    """The piece a legal move takes, and where it stood (beside the pawn's target for en passant)."""
    if board.is_castling(chosen) or not board.is_capture(chosen):
        return None
    square = chosen.to_square
    if board.is_en_passant(chosen):
        square = chess.square(chess.square_file(chosen.to_square), chess.square_rank(chosen.from_square))
    victim = board.piece_at(square)
    assert victim is not None
    return victim, square


def move(state: GameState, side: Side, order: Move | Castle) -> Outcome:
    """Play a legal order; the mover hears it in full, the opponent only their own loss (SV-4)."""
    board = state.board
    found = find_move(board, order)
    if found is None:
        return rejected(side, "illegal", order.text())  # SV-3: no reason, to the orderer only
    text, chosen = found
    piece = board.piece_at(chosen.from_square)
    assert piece is not None
    castle = text if board.is_castling(chosen) else None
    to_square = castle_destination(board, chosen) if castle else chosen.to_square
    en_passant = board.is_en_passant(chosen)
    capture = capture_of(board, chosen)
    captured = piece_info(*capture) if capture else None
    if capture:
        state.tray += capture[0].symbol()
    board.push(chosen)
    state.moves.append(chosen.uci())
    opponent = other(side)
    outcome = Outcome("moved", order=text)
    outcome.tell(side, {
        "kind": "moved",
        "from": chess.square_name(chosen.from_square),
        "to": chess.square_name(to_square),
        "piece": TYPE_LETTER[piece.piece_type],
        "color": side,
        "captured": captured,
        "promotion": TYPE_LETTER[chosen.promotion] if chosen.promotion else None,
        "castle": castle,
        "en_passant": en_passant,
    })
    outcome.tell(opponent, {"kind": "opponent-moved", "color": side, "lost": dict(captured) if captured else None})
    if state.draw_offer == opponent:
        state.draw_offer = None  # a move answers the opponent's offer
    if board.is_check():
        outcome.tell(opponent, {"kind": "check", "color": opponent})  # SV-4: no direction, no checking piece
    finish_on_the_board(state, outcome)
    return outcome


def finish_on_the_board(state: GameState, outcome: Outcome) -> None:
    """SV-5: checkmate, stalemate, insufficient material, the 75-move rule and fivefold repetition end the game
    by themselves (python-chess checks mate first, so a mate on the 75th move still wins)."""
    ending = state.board.outcome()
    if ending is not None:
        result = "1/2-1/2" if ending.winner is None else win_for(SIDE_OF[ending.winner])
        end_game(state, outcome, result, END_REASONS[ending.termination])


def forfeit_game(state: GameState, side: Side, reason: str) -> Outcome:
    """``side`` loses for a reason off the board, such as the correspondence clock."""
    return forfeit(state, side, reason, end_game)
