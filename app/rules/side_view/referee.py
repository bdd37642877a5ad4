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
from app.rules.base import Outcome, Side, other
from app.rules.common import end_game, win_for
from app.rules.side_view.moves import castle_destination, legal_by_order, order_text
from app.rules.side_view.orders import Castle, Move
from app.rules.side_view.sight import TYPE_LETTER
from app.rules.side_view.state import SIDE_OF, GameState, start_position
from app.rules.values import rejected

END_REASONS = {
    chess.Termination.CHECKMATE: "checkmate",
    chess.Termination.STALEMATE: "stalemate",
    chess.Termination.INSUFFICIENT_MATERIAL: "insufficient material",
    chess.Termination.SEVENTYFIVE_MOVES: "75-move rule",
    chess.Termination.FIVEFOLD_REPETITION: "fivefold repetition",
}


def piece_info(piece: chess.Piece, square: int) -> dict[str, str]:
    """A captured piece as messages name it: type letter, colour, square."""
    return {"piece": TYPE_LETTER[piece.piece_type], "color": SIDE_OF[piece.color], "square": chess.square_name(square)}


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


# --------------------------------------------------------------------------- orders


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
