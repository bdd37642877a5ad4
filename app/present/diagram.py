"""The neutral diagram model: what every variant's presenter draws, and all any renderer draws.

A figure is grids laid out in rows (two boards side by side, four as 2x2). A grid is a
board of squares or a strip of cells (the ranks seen end on), rows top to bottom as the player looks
at it, each cell a piece letter, ``?`` for a piece of unknown type, or empty, or fog (a square the
player cannot see: anything may stand there, which is not the same as a square seen empty), with marks
(the last move, a reported square) and, for an entry of a record that may have gone
stale, the move it was seen at. Every grid carries its description in words (a piece list)
for the text part and for screen readers. The renderers in ``app/present/text.py``, the
mail templates and ``app/present/svg.py`` know nothing else.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import NamedTuple

from app.present.words import PIECE_NAMES

FILES = "abcdefgh"
UNKNOWN = "?"
LAST = "last"  # a square of the last move (from, to, where it landed)
SEEN = "seen"  # a square a message named (a report, an arrival)
FOG = "fog"  # a square the player cannot see: not a mark but a cell of its own kind, told in the same legend
MARK_MEANINGS = {LAST: "a square of the last move", SEEN: "a square you were told about",
                 FOG: "fog, a square you cannot see (anything may stand there)"}  # legend order

EMPTY_RUNS = str.maketrans({str(run): "." * run for run in range(1, 9)})  # FEN's digits: runs of empty squares


class Cell(NamedTuple):
    """One square or strip cell (a tuple: boards are made of many, and renderers cache by them)."""

    piece: str = ""  # a FEN letter (upper case White), UNKNOWN, or "" when empty
    shade: str = ""  # "light" or "dark" on a board, "" in a strip
    mark: str = ""  # "", LAST or SEEN
    seen_at: int | None = None  # the move an entry of a record was reported at (it may be stale)
    label: str = ""  # a short tag drawn with the piece (a square name in a strip, a rook's hand)
    fog: bool = False  # the player cannot see the square (its piece is then "")


class Row(NamedTuple):
    label: str  # the rank number, drawn on both ends
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class Grid:
    """A board or a strip, as the player looks at it."""

    caption: str
    rows: tuple[Row, ...]
    columns: tuple[str, ...] = ()  # file letters over a board; none over a strip
    description: str = ""  # the pieces in words: "White: Kg1, Qd1. Black: Ke8."

    @property
    def is_board(self) -> bool:
        return bool(self.columns)


@dataclass(frozen=True)
class Figure:
    """Grids laid out in rows, with a legend and notes that belong under them."""

    layout: tuple[tuple[Grid, ...], ...] = ()
    legend: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def grids(self) -> list[Grid]:
        return [grid for row in self.layout for grid in row]

    def __bool__(self) -> bool:
        return bool(self.layout)

    def marks(self, boards_only: bool = False) -> list[str]:
        """The kinds of mark its grids (or only its boards) show, fog among them, in legend order: each renderer
        says what its own look means."""
        cells = [cell for grid in self.grids if grid.is_board or not boards_only for row in grid.rows
                 for cell in row.cells]
        used = {cell.mark for cell in cells} | ({FOG} if any(cell.fog for cell in cells) else set())
        return [mark for mark in MARK_MEANINGS if mark in used]


@dataclass
class Marks:
    """Squares to mark on one board, by square name."""

    last: set[str] = field(default_factory=set)
    seen: set[str] = field(default_factory=set)
    seen_at: dict[str, int] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)
    fog: set[str] = field(default_factory=set)  # squares the player cannot see

    def squares(self) -> set[str]:
        """Every square that carries a mark, a move or a label, or is fog."""
        return self.last | self.seen | self.seen_at.keys() | self.labels.keys() | self.fog


def squares_of(placement: str) -> dict[str, str]:
    """FEN placement -> {square name: letter} for every occupied square."""
    found = {}
    for index, rank in enumerate(placement.split("/")):
        for file, letter in enumerate(rank.translate(EMPTY_RUNS)):
            if letter != ".":
                found[f"{FILES[file]}{8 - index}"] = letter
    return found


def board_grid(caption: str, pieces: dict[str, str], white_below: bool = True, marks: Marks | None = None,
               describe: bool = True) -> Grid:
    """An 8x8 board from {square: letter}, White's side at the bottom or (``white_below=False``) Black's."""
    marked = marks.squares() if marks else set()
    rows = tuple(
        Row(rank, tuple(marked_cell(name, pieces.get(name, ""), shade, marks) if name in marked
                        else plain_cell(pieces.get(name, ""), shade)
                        for name, shade in squares))
        for rank, squares in BOARD_ROWS[white_below]
    )
    description = " ".join(filter(None, (piece_list(pieces), fog_words(marks.fog if marks else set())))) \
        if describe else ""
    return Grid(caption, rows, tuple(FILES if white_below else FILES[::-1]), description)


@cache  # a board has few kinds of unmarked square: one cell each, shared by every board
def plain_cell(piece: str, shade: str) -> Cell:
    return Cell(piece, shade)


def marked_cell(name: str, piece: str, shade: str, marks: Marks) -> Cell:
    mark = LAST if name in marks.last else SEEN if name in marks.seen else ""
    fog = name in marks.fog
    return Cell("" if fog else piece, shade, mark, marks.seen_at.get(name), marks.labels.get(name, ""), fog)


def _board_rows(white_below: bool) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """Each rank's label and its squares (name, shade), top to bottom as the player looks at the board."""
    ranks = range(8, 0, -1) if white_below else range(1, 9)
    files = FILES if white_below else FILES[::-1]
    return tuple((str(rank), tuple((f"{file}{rank}", "dark" if (FILES.index(file) + rank) % 2 else "light")
                                   for file in files))
                 for rank in ranks)


BOARD_ROWS = {True: _board_rows(True), False: _board_rows(False)}  # every board is drawn from one of these


def piece_list(pieces: dict[str, str], unknown: Iterable[str] = ()) -> str:
    """The pieces in words, White's then Black's, king first: "White: Kg1, Qd1, Pa2. Black: Ke8."."""
    order = "KQRBNP"
    parts = []
    for color, test in (("White", str.isupper), ("Black", str.islower)):
        mine = sorted(((letter.upper(), name) for name, letter in pieces.items() if letter != UNKNOWN and test(letter)),
                      key=lambda item: (order.index(item[0]), item[1][0], item[1][1]))
        if mine:
            parts.append(f"{color}: " + ", ".join(f"{letter}{name}" for letter, name in mine) + ".")
    unknowns = sorted(unknown)
    if unknowns:
        parts.append("Unknown: " + ", ".join(unknowns) + ".")
    return " ".join(parts) or "No pieces."


def fog_words(squares: set[str]) -> str:
    """The squares a player cannot see, in words, whole ranks first: "Fog: ranks 7 and 8; a6, c6." ("" for
    none)."""
    ranks = [rank for rank in "12345678" if all(f"{file}{rank}" in squares for file in FILES)]
    rest = sorted((name for name in squares if name[1] not in ranks), key=lambda name: (name[1], name[0]))
    parts = []
    if ranks:
        parts.append(("rank " if len(ranks) == 1 else "ranks ") + (", ".join(ranks[:-1]) + " and " + ranks[-1]
                                                                    if len(ranks) > 1 else ranks[0]))
    if rest:
        parts.append(", ".join(rest))
    return "Fog: " + "; ".join(parts) + "." if parts else ""


PIECES_LEGEND = ("Upper case is White, lower case Black ("
                 + ", ".join(f"{letter} {name}" for letter, name in PIECE_NAMES.items())
                 + "); '.' is an empty square.")  # every board legend's first line, for letters: the renderers
# that draw pieces say it their way (``drawn_legend``)


def drawn_legend(legend: tuple[str, ...], pieces_line: str) -> list[str]:
    """A figure's legend for a renderer that draws pieces as figures, not letters: ``pieces_line`` says how."""
    return [pieces_line if line == PIECES_LEGEND else line for line in legend]
