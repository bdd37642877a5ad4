"""What both players see (PAL-6: full information), and what can be worked out from it alone.

The view is the whole position: the board, every rook's hand, and where every piece that is not yet
home must go (PAL-2). ``destinations_of`` answers the ``where <square>`` question and
``example_orders`` suggests orders, both from the view only.
"""

from __future__ import annotations

from typing import Any

import chess

from app.rules.base import Side, View
from app.rules.palindromic.destinations import (
    KING_SQUARE,
    KNIGHT_SQUARES,
    PAWN_RANK,
    QUEEN_SQUARE,
    destination_mask,
    home_count,
    piece_destinations,
)
from app.rules.palindromic.legality import canonical, pal_moves
from app.rules.palindromic.state import COLOR, SIDE_OF, GameState
from app.rules.placement import cells_of, placement


class _NameLists(dict[int, list[str]]):
    """Square-name lists of destination masks, made on first use."""

    def __missing__(self, mask: int) -> list[str]:
        names = self[mask] = [chess.SQUARE_NAMES[square] for square in chess.scan_forward(mask)]
        return names


_NAMES = _NameLists()
# Destinations that depend on the letter alone (bishops depend on their square's colour, rooks on their hand).
_BY_LETTER = {
    chess.piece_symbol(piece_type).upper() if color else chess.piece_symbol(piece_type): mask[color]
    for piece_type, mask in (
        (chess.PAWN, PAWN_RANK), (chess.KNIGHT, KNIGHT_SQUARES), (chess.QUEEN, QUEEN_SQUARE), (chess.KING, KING_SQUARE)
    )
    for color in chess.COLORS
}


def handed(board: chess.BaseBoard, left: int) -> dict[str, str]:
    """``{square: "left" | "right"}`` for every rook."""
    return {
        chess.SQUARE_NAMES[square]: "left" if left & chess.BB_SQUARES[square] else "right"
        for square in chess.scan_forward(board.rooks)
    }


def destinations(board: chess.BaseBoard, left: int) -> dict[str, list[str]]:
    """``{square: [destination squares]}`` for every piece not on one of its destinations, in square order.

    Read from the 64 cells of the placement (cached for the position) rather than square by square on
    the board: views follow every order, and this is most of their cost."""
    found = {}
    for square, letter in enumerate(cells_of(board)):
        if letter == ".":
            continue
        mask = _BY_LETTER.get(letter)
        if mask is None:
            piece = chess.Piece.from_symbol(letter)
            mask = destination_mask(piece.piece_type, piece.color, square, bool(left & chess.BB_SQUARES[square]))
        if not mask & chess.BB_SQUARES[square]:
            found[chess.SQUARE_NAMES[square]] = _NAMES[mask][:]
    return found


def in_check(board: chess.Board) -> Side | None:
    """The side whose king is attacked (after a pass, possibly the side not to move)."""
    if board.is_check():
        return SIDE_OF[board.turn]
    return SIDE_OF[not board.turn] if board.was_into_check() else None


def view(state: GameState, to_move: Side | None) -> View:
    board = state.board
    return {
        "board": placement(cells_of(board)),
        "handed": handed(board, state.left),
        "destinations": destinations(board, state.left),
        "home": {side: home_count(board, state.left, color) for side, color in COLOR.items()},
        "to_move": to_move,
        "check": in_check(board),
    }


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


def example_orders(view: View, side: Side, count: int = 3) -> list[str]:
    """A few legal orders for ``side`` worked out from the view alone, moves that bring a piece home
    first. Castling is left out: the view does not say which rights are left."""
    if view.get("to_move") not in (None, side):
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


def position(state: GameState) -> dict[str, Any]:
    return {"board": placement(cells_of(state.board))}
