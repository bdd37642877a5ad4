"""Back-rank arrangements (LG-2): letters, Chess960 index, or ``random``.

Shared by every variant with a hidden or Chess960 setup. The numbering is the
standard Scharnagl one that python-chess implements (518 is ``RNBQKBNR``).
"""

from __future__ import annotations

import random
from collections import Counter

import chess

from app.rules.numbers import NumberError, whole_number
from app.rules.values import SetupError

PIECES = Counter("KQRRBBNN")
STANDARD = "RNBQKBNR"


def row_from_index(index: int) -> str:
    """The back row of Chess960 position ``index`` (0..959), a-file to h-file."""
    board = chess.BaseBoard.from_chess960_pos(index)
    return "".join(board.piece_at(chess.square(file, 0)).symbol() for file in range(8))


def index_of_row(row: str) -> int:
    """The Chess960 index of a valid row."""
    board = chess.BaseBoard.from_chess960_pos(518)
    for file, letter in enumerate(row):
        board.set_piece_at(chess.square(file, 0), chess.Piece.from_symbol(letter))
        board.set_piece_at(chess.square(file, 7), chess.Piece.from_symbol(letter.lower()))
    index = board.chess960_pos()
    assert index is not None, row
    return index


def check_row(row: str) -> str:
    """Return ``row`` upper-cased if it obeys LG-2, else raise SetupError saying which rule fails."""
    row = row.strip().upper()
    if len(row) != 8:
        raise SetupError(f"a setup has exactly 8 letters (a-file to h-file), not {len(row)}")
    bad = sorted(set(row) - set(PIECES))
    if bad:
        raise SetupError(f"unknown piece letter(s) {', '.join(bad)}: use K, Q, R, B, N")
    if Counter(row) != PIECES:
        raise SetupError("a setup uses exactly the pieces K, Q, R, R, B, B, N, N")
    bishops = [file for file, letter in enumerate(row) if letter == "B"]
    if bishops[0] % 2 == bishops[1] % 2:
        raise SetupError("the two bishops must stand on squares of opposite colour")
    rooks = [file for file, letter in enumerate(row) if letter == "R"]
    if not rooks[0] < row.index("K") < rooks[1]:
        raise SetupError("the king must stand between the two rooks")
    return row


def read_setup(text: str, rng: random.Random | None = None) -> str:
    """Read a setup as letters, a Chess960 index or ``random`` into a row of letters."""
    word = text.strip()
    if word.lower() == "random":
        return row_from_index((rng or random.SystemRandom()).randrange(960))
    if word.isascii() and word.isdigit():
        try:
            return row_from_index(whole_number(word, 0, 959))
        except NumberError:
            raise SetupError(f"a Chess960 index runs from 0 to 959, not {word[:12]}") from None
    if not word:
        raise SetupError("a setup is 8 letters like RNBQKBNR, a number 0..959, or 'random'")
    try:
        return check_row(word)
    except SetupError as error:
        raise SetupError(f"{error}; for example {nearest_row(word)} would do") from None


def nearest_row(word: str) -> str:
    """The valid row that differs from ``word`` in the fewest places (the standard row on a tie)."""
    letters = word.strip().upper()
    rows = [STANDARD] + [row_from_index(index) for index in range(960)]
    return min(rows, key=lambda row: sum(a != b for a, b in zip(row, letters.ljust(8), strict=False)))
