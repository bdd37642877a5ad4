"""FEN piece placement straight from python-chess bitboards, and boards back from placements.

Views are computed after every order for both players; walking the twelve piece
bitboards is several times faster than ``BaseBoard.board_fen``'s 64 look-ups,
and gives the same string (the tests check this). Results are cached by the
bitboards themselves: strikes, questions and rejections leave boards unchanged.
A placement just written is remembered with its board, so reading the state
back (the mail of the same move does) copies the board instead of parsing FEN.
"""

from __future__ import annotations

from collections import OrderedDict
from functools import lru_cache

import chess

_LETTERS = ("PNBRQK", "pnbrqk")  # by colour: white first, then black
_RUNS = [("." * n, str(n)) for n in range(8, 0, -1)]
_RANK_STARTS = range(56, -1, -8)
Masks = tuple[int, int, int, int, int, int, int, int]


def _masks(board: chess.BaseBoard) -> Masks:
    return (
        board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings,
        board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK],
    )


@lru_cache(maxsize=64)
def _cells(masks: Masks, color: chess.Color | None) -> tuple[str, ...]:
    cells = ["."] * 64
    for piece_color, letters, own in ((chess.WHITE, _LETTERS[0], masks[6]), (chess.BLACK, _LETTERS[1], masks[7])):
        if color is not None and piece_color != color:
            continue
        for mask, letter in zip(masks[:6], letters, strict=True):
            mask &= own
            while mask:
                low = mask & -mask
                cells[low.bit_length() - 1] = letter
                mask ^= low
    return tuple(cells)


def cells_of(board: chess.BaseBoard, color: chess.Color | None = None) -> list[str]:
    """64 cells (a1 first) holding FEN letters, ``"."`` where empty; one colour or both."""
    return list(_cells(_masks(board), color))


def placement(cells: list[str] | tuple[str, ...]) -> str:
    """The FEN placement of 64 cells (a1 first, ``"."`` empty), rank 8 first."""
    flat = "".join(cells)
    text = "/".join([flat[start : start + 8] for start in _RANK_STARTS])
    for run, digit in _RUNS:
        text = text.replace(run, digit)
    return text


@lru_cache(maxsize=64)
def _placement(masks: Masks, color: chess.Color | None) -> str:
    return placement(_cells(masks, color))


@lru_cache(maxsize=64)
def _own_placement(masks: Masks, color: chess.Color) -> str:
    return placement(_cells(masks, color))


def color_placement(board: chess.BaseBoard, color: chess.Color) -> str:
    """Same as ``board_placement(board, color)``, cached by that colour's men alone: a player's men stand as they
    did after most of the opponent's moves, whatever else moved."""
    own = board.occupied_co[color]
    masks = (board.pawns & own, board.knights & own, board.bishops & own, board.rooks & own, board.queens & own,
             board.kings & own, own if color == chess.WHITE else 0, own if color == chess.BLACK else 0)
    return _own_placement(masks, color)


BOARDS_KEPT = 128
_boards: OrderedDict[str, chess.BaseBoard] = OrderedDict()  # placement -> a board with exactly those pieces


def _keep(placement: str, board: chess.BaseBoard) -> None:
    _boards[placement] = board
    _boards.move_to_end(placement)
    if len(_boards) > BOARDS_KEPT:
        _boards.popitem(last=False)


def board_placement(board: chess.BaseBoard, color: chess.Color | None = None) -> str:
    """Same as ``board.board_fen()`` (of one colour's pieces, if given), faster."""
    text = _placement(_masks(board), color)
    if color is None and text not in _boards:
        _keep(text, board.copy())
    return text


def board_from_placement(placement: str) -> chess.BaseBoard:
    """A new board from a FEN placement; decoding a game state reads the same few placements many times."""
    board = _boards.get(placement)
    if board is None:
        board = chess.BaseBoard(placement)
        _keep(placement, board)
    return board.copy()


def clear_cache() -> None:
    """Forget cached placements and boards (benchmarks start each round cold)."""
    _cells.cache_clear()
    _placement.cache_clear()
    _own_placement.cache_clear()
    _boards.clear()
