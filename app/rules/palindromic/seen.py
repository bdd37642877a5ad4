"""What a view shows of a position, worked out fast: views follow every order, for both players, and
again for mail and pages.

Each position is read once (kept by its bitboards), and a position that differs from the one read last
by a move is read only on the squares the move changed. Destinations come from tables made once per
piece letter and square, so reading a piece is one look-up.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import NamedTuple

import chess

from app.rules.base import Side
from app.rules.palindromic.destinations import destination_mask
from app.rules.palindromic.state import SIDE_OF
from app.rules.placement import cells_of, placement

POSITIONS_KEPT = 256
NEAR = 6  # squares a move changes at most (castling: four); beyond that the whole board is read

Away = tuple[str, list[str]]
"""A piece not yet home: its square and the names of its destination squares (copied before handing out)."""


def _away_table(letter: str, left_handed: bool) -> list[Away | None]:
    """For each square, what the piece written ``letter`` shows standing there: None when that is home."""
    piece = chess.Piece.from_symbol(letter)
    table: list[Away | None] = []
    for square in chess.SQUARES:
        mask = destination_mask(piece.piece_type, piece.color, square, left_handed)
        names = [chess.SQUARE_NAMES[target] for target in chess.scan_forward(mask)]
        table.append(None if mask & chess.BB_SQUARES[square] else (chess.SQUARE_NAMES[square], names))
    return table


_AWAY = {letter: _away_table(letter, False) for letter in "PNBRQKpnbrqk"}  # rooks here: right-handed
_AWAY_LEFT_ROOK = {letter: _away_table(letter, True) for letter in "Rr"}


class Seen(NamedTuple):
    """One position as the view shows it; immutable, so views are handed out fresh from it."""

    key: tuple[int, ...]
    cells: tuple[str, ...]  # FEN letters, a1 first, "." where empty
    away: tuple[Away | None, ...]  # by square: the piece there, if it is not home
    white_away: int
    board: str
    handed: tuple[tuple[str, str], ...]
    away_squares: tuple[str, ...]  # every piece not yet home, in square order ...
    away_names: tuple[list[str], ...]  # ... and its destination squares
    home: tuple[int, int]
    check: Side | None


_seen: OrderedDict[tuple[int, ...], Seen] = OrderedDict()
_last: list[Seen] = []  # the position read last


def away_entry(letter: str, square: int, left: int) -> Away | None:
    """What the piece written ``letter`` on ``square`` shows (None when home); ``left``: left-handed rooks."""
    if letter == "R" or letter == "r":
        return (_AWAY_LEFT_ROOK if left >> square & 1 else _AWAY)[letter][square]
    return _AWAY[letter][square]


def in_check(board: chess.Board) -> Side | None:
    """The side whose king is attacked (after a pass, possibly the side not to move)."""
    if board.is_check():
        return SIDE_OF[board.turn]
    return SIDE_OF[not board.turn] if board.was_into_check() else None


def _key(board: chess.Board, left: int) -> tuple[int, ...]:
    return (board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings,
            board.occupied_co[chess.WHITE], left, board.turn)


def _read(board: chess.Board, left: int, key: tuple[int, ...]) -> Seen:
    base = _last[0] if _last else None
    changed = -1
    if base is not None:
        changed = 0
        for before, after in zip(base.key[:8], key[:8], strict=True):
            changed |= before ^ after  # a square whose piece, colour or hand differs
    if base is not None and chess.popcount(changed) <= NEAR:
        cells = list(base.cells)
        away = list(base.away)
        white_away = base.white_away
        for square in chess.scan_forward(changed):
            if away[square] is not None and cells[square].isupper():
                white_away -= 1
            piece = board.piece_at(square)
            letter = piece.symbol() if piece else "."
            entry = None if piece is None else away_entry(letter, square, left)
            cells[square], away[square] = letter, entry
            white_away += entry is not None and letter.isupper()
    else:
        cells = cells_of(board)
        away = [None if letter == "." else away_entry(letter, square, left) for square, letter in enumerate(cells)]
        white_away = sum(1 for entry, letter in zip(away, cells, strict=True) if entry and letter.isupper())
    pieces_away: tuple[Away, ...] = tuple(filter(None, away))
    squares, names = zip(*pieces_away, strict=True) if pieces_away else ((), ())
    return Seen(
        key=key,
        cells=tuple(cells),
        away=tuple(away),
        white_away=white_away,
        board=placement(cells),
        handed=tuple(
            (chess.SQUARE_NAMES[square], "left" if left >> square & 1 else "right")
            for square in chess.scan_forward(board.rooks)
        ),
        away_squares=squares,
        away_names=names,
        home=(chess.popcount(board.occupied_co[chess.WHITE]) - white_away,
              chess.popcount(board.occupied_co[chess.BLACK]) - (len(pieces_away) - white_away)),
        check=in_check(board),
    )


def seen(board: chess.Board, left: int) -> Seen:
    """What the view shows of the position on ``board`` with left-handed rooks ``left``."""
    key = _key(board, left)
    found = _seen.get(key)
    if found is None:
        found = _seen[key] = _read(board, left, key)
        if len(_seen) > POSITIONS_KEPT:
            _seen.popitem(last=False)
    _last[:] = [found]
    return found


def forget() -> None:
    """Forget every position read (tests read positions from scratch)."""
    _seen.clear()
    _last.clear()
