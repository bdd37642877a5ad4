"""What both players see (PAL-6: full information), and what can be worked out from it alone.

The view is the whole position: the board, every rook's hand, and where every piece that is not yet
home must go (PAL-2). ``destinations_of`` answers the ``where <square>`` question and
``example_orders`` suggests orders, both from the view only.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, NamedTuple

import chess

from app.rules.base import Side, View
from app.rules.palindromic.destinations import (
    DARK_BISHOP_SQUARE,
    KING_SQUARE,
    KNIGHT_SQUARES,
    LEFT_ROOK_SQUARE,
    LIGHT_BISHOP_SQUARE,
    PAWN_RANK,
    QUEEN_SQUARE,
    RIGHT_ROOK_SQUARE,
    destination_mask,
    piece_destinations,
)
from app.rules.palindromic.legality import canonical, pal_moves
from app.rules.palindromic.state import COLOR, SIDE_OF, GameState
from app.rules.placement import cells_of, placement

POSITIONS_KEPT = 256


class _NameLists(dict[int, list[str]]):
    """Square-name lists of destination masks, made on first use."""

    def __missing__(self, mask: int) -> list[str]:
        names = self[mask] = [chess.SQUARE_NAMES[square] for square in chess.scan_forward(mask)]
        return names


def _letter(piece_type: chess.PieceType, color: chess.Color) -> str:
    symbol = chess.piece_symbol(piece_type)
    return symbol.upper() if color else symbol


_NAMES = _NameLists()
# Destinations by FEN letter: bishops by the colour of their square (dark, light), rooks by hand (left, right).
_BY_LETTER = {
    _letter(piece_type, color): table[color]
    for piece_type, table in (
        (chess.PAWN, PAWN_RANK), (chess.KNIGHT, KNIGHT_SQUARES), (chess.QUEEN, QUEEN_SQUARE), (chess.KING, KING_SQUARE)
    )
    for color in chess.COLORS
}
_BISHOPS = {
    _letter(chess.BISHOP, color): (DARK_BISHOP_SQUARE[color], LIGHT_BISHOP_SQUARE[color]) for color in chess.COLORS
}
_ROOKS = {_letter(chess.ROOK, color): (LEFT_ROOK_SQUARE[color], RIGHT_ROOK_SQUARE[color]) for color in chess.COLORS}


class Seen(NamedTuple):
    """What a view shows of one position, kept immutable so that views can be handed out fresh from it."""

    board: str
    handed: tuple[tuple[str, str], ...]
    destinations: tuple[tuple[str, int], ...]  # (square, destination mask) of every piece not yet home
    home: tuple[int, int]
    check: Side | None


_seen: OrderedDict[tuple[int, ...], Seen] = OrderedDict()


def _read_cells(cells: list[str], left: int) -> tuple[list[tuple[str, int]], list[tuple[str, str]], int]:
    """One pass over the 64 cells: (square, destination mask) of every piece not on one of its
    destinations, (square, hand) of every rook, both in square order, and how many white pieces are away."""
    away = []
    hands = []
    white_away = 0
    for square, letter in enumerate(cells):
        if letter == ".":
            continue
        bb = chess.BB_SQUARES[square]
        mask = _BY_LETTER.get(letter)
        if mask is None:
            if letter in _BISHOPS:
                dark, light = _BISHOPS[letter]
                mask = dark if bb & chess.BB_DARK_SQUARES else light
            else:
                left_square, right_square = _ROOKS[letter]
                is_left = bool(left & bb)
                mask = left_square if is_left else right_square
                hands.append((chess.SQUARE_NAMES[square], "left" if is_left else "right"))
        if not mask & bb:
            away.append((chess.SQUARE_NAMES[square], mask))
            white_away += letter.isupper()
    return away, hands, white_away


def destinations(board: chess.BaseBoard, left: int) -> dict[str, list[str]]:
    """``{square: [destination squares]}`` for every piece not on one of its destinations, in square order."""
    return {square: _NAMES[mask][:] for square, mask in _read_cells(cells_of(board), left)[0]}


def in_check(board: chess.Board) -> Side | None:
    """The side whose king is attacked (after a pass, possibly the side not to move)."""
    if board.is_check():
        return SIDE_OF[board.turn]
    return SIDE_OF[not board.turn] if board.was_into_check() else None


def seen(board: chess.Board, left: int) -> Seen:
    """What the view shows of a position, worked out once per position: views follow every order, for
    both players, and again for mail and pages."""
    key = (board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings,
           board.occupied_co[chess.WHITE], left, board.turn)
    found = _seen.get(key)
    if found is None:
        cells = cells_of(board)
        away, hands, white_away = _read_cells(cells, left)
        found = Seen(
            board=placement(cells),
            handed=tuple(hands),
            destinations=tuple(away),
            home=(chess.popcount(board.occupied_co[chess.WHITE]) - white_away,
                  chess.popcount(board.occupied_co[chess.BLACK]) - (len(away) - white_away)),
            check=in_check(board),
        )
        _seen[key] = found
        if len(_seen) > POSITIONS_KEPT:
            _seen.popitem(last=False)
    return found


def view(state: GameState, to_move: Side | None) -> View:
    known = seen(state.board, state.left)
    return {
        "board": known.board,
        "handed": dict(known.handed),
        "destinations": {square: _NAMES[mask][:] for square, mask in known.destinations},
        "home": {"white": known.home[0], "black": known.home[1]},
        "to_move": to_move,
        "check": known.check,
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
    return {"board": seen(state.board, state.left).board}
