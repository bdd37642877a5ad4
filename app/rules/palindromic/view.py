"""What both players see (PAL-6: full information), and what can be worked out from it alone.

The view is the whole position: the board, every rook's hand, and where every piece that is not yet
home must go (PAL-2). ``destinations_of`` answers the ``where <square>`` question and
``example_orders`` suggests orders, both from the view only.
"""

from __future__ import annotations

from typing import Any

import chess

from app.rules.base import Side, View
from app.rules.palindromic.destinations import destination_mask, piece_destinations
from app.rules.palindromic.legality import canonical, pal_moves
from app.rules.palindromic.seen import away_entry, seen
from app.rules.palindromic.state import COLOR, GameState
from app.rules.placement import cells_of


def view(state: GameState, to_move: Side | None) -> View:
    known = seen(state.board, state.left)
    return {
        "board": known.board,
        "handed": dict(known.handed),
        "destinations": dict(zip(known.away_squares, map(list.copy, known.away_names), strict=True)),
        "home": {"white": known.home[0], "black": known.home[1]},
        "to_move": to_move,
        "check": known.check,
        "last_move": state.last_move,  # full information: the last move, to mark it (PAL-6)
    }


def position(state: GameState) -> dict[str, Any]:
    return {"board": seen(state.board, state.left).board}


def destinations(board: chess.BaseBoard, left: int) -> dict[str, list[str]]:
    """``{square: [destination squares]}`` for every piece not on one of its destinations, in square order."""
    found = {}
    for square, letter in enumerate(cells_of(board)):
        entry = None if letter == "." else away_entry(letter, square, left)
        if entry is not None:
            found[entry[0]] = entry[1][:]
    return found


def destinations_of(view: View, square: str) -> list[str]:
    """The ``where <square>`` answer: the destination squares of the piece on ``square`` (its own square
    among them when it is home), or an empty list for an empty square. From the view alone."""
    if square in view["destinations"]:
        return list(view["destinations"][square])
    board = chess.BaseBoard(view["board"])
    index = chess.parse_square(square)
    piece = board.piece_at(index)
    if piece is None:
        return []
    return piece_destinations(piece.symbol(), index, view["handed"].get(square))


def legal_orders_in_view(view: View, side: Side) -> list[str]:
    """Every legal order of ``side`` in canonical form, from the view (the whole position here)."""
    board = board_of(view, side)
    return [] if board is None else sorted(canonical(board, move) for move in pal_moves(board))


def board_of(view: View, side: Side) -> chess.Board | None:
    """The view's position with ``side`` to move, or None when it is not their turn."""
    if view.get("to_move") != side:
        return None
    board = chess.Board(None, chess960=True)
    board.set_board_fen(view["board"])
    board.turn = COLOR[side]
    return board


def example_orders(view: View, side: Side, count: int = 3) -> list[str]:
    """A few legal orders for ``side`` worked out from the view alone, moves that bring a piece home
    first; none when it is not ``side``'s turn or the game is over. Castling is left out: the view does not
    say which rights are left."""
    if view.get("to_move") != side:
        return []
    board = chess.Board(None, chess960=True)
    board.set_board_fen(view["board"])
    board.turn = COLOR[side]
    left = 0
    for name, hand in view["handed"].items():
        if hand == "left":
            left |= chess.BB_SQUARES[chess.parse_square(name)]
    chosen: list[chess.Move] = []
    for move in sorted(pal_moves(board), key=lambda move: _example_rank(board, left, move)):
        if len(chosen) < count and all(move.from_square != taken.from_square for taken in chosen):
            chosen.append(move)  # one order per piece, so the examples show different pieces
    return [canonical(board, move) for move in chosen]


def _example_rank(board: chess.Board, left: int, move: chess.Move) -> tuple[int, str]:
    """Moves that bring a piece home first, then moves of pieces not yet home, then the rest; board order."""
    piece_type = board.piece_type_at(move.from_square)
    assert piece_type is not None
    bb = chess.BB_SQUARES[move.from_square]
    target = destination_mask(piece_type, board.turn, move.from_square, bool(left & bb))
    rank = 0 if target & chess.BB_SQUARES[move.to_square] else 2 if target & bb else 1
    return rank, chess.SQUARE_NAMES[move.from_square] + chess.SQUARE_NAMES[move.to_square]
