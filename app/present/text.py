"""The text renderer: a figure as fixed-width lines for the text part of a mail (72 columns at most).

A board square takes three columns: the piece letter (``.`` when empty, ``?`` when unknown, ``~``
when the player cannot see it: fog) between spaces, or between brackets when it is a square of the
last move, between parentheses when a message named it; a cell's one-letter label (a rook's hand)
takes the place of the closing mark, in lower case. A strip cell is its letter and its label.
"""

from __future__ import annotations

import textwrap
from functools import lru_cache

from app.present.diagram import FOG, LAST, MARK_MEANINGS, SEEN, Cell, Figure, Grid

GAP = "    "
WIDTH = 72


BRACKETS = {LAST: "[]", SEEN: "()"}
FOG_LETTER = "~"


@lru_cache(maxsize=1024)  # a board has few kinds of cell
def cell_text(cell: Cell, board: bool) -> str:
    letter = FOG_LETTER if cell.fog else cell.piece or "."
    if not board:
        return f"{letter}{cell.label}"
    opening, closing = BRACKETS.get(cell.mark, "  ")
    return f"{opening}{letter}{cell.label[:1].lower() or closing}"


@lru_cache(maxsize=512)  # a grid recurs in both players' mails and from move to move
def grid_lines(grid: Grid) -> tuple[str, ...]:
    """The caption, the column letters, and one line a row with its label on both ends."""
    lines = [grid.caption]
    if grid.is_board:
        files = "   " + "".join(f" {name} " for name in grid.columns)
        lines.append(files)
        lines += [f"{row.label:>2} " + "".join(cell_text(cell, True) for cell in row.cells) + f" {row.label}"
                  for row in grid.rows]
        lines.append(files)
    else:  # a blank line where a board has its file letters, so the rows line up with a board's ranks
        lines.append("")
        lines += [f"{row.label:>2}  " + " ".join(cell_text(cell, False) for cell in row.cells) for row in grid.rows]
    return tuple(lines)


def side_by_side(grids: tuple[Grid, ...]) -> list[str]:
    """Grids next to each other, each as wide as its widest line."""
    columns = [grid_lines(grid) for grid in grids]
    height = max(len(column) for column in columns)
    widths = [max(len(line) for line in column) for column in columns]
    lines = []
    for index in range(height):
        parts = [(column[index] if index < len(column) else "").ljust(width)
                 for column, width in zip(columns, widths, strict=True)]
        lines.append(GAP.join(parts).rstrip())
    return lines


def bands(grids: tuple[Grid, ...], room: int) -> list[tuple[Grid, ...]]:
    """A row of grids cut into bands that each fit in ``room`` columns (a grid wider than that alone on its
    band): a mail client that wraps long lines would break a board apart."""
    cut: list[tuple[Grid, ...]] = []
    band: list[Grid] = []
    width = 0
    for grid in grids:
        wide = max(len(line) for line in grid_lines(grid))
        if band and width + len(GAP) + wide > room:
            cut.append(tuple(band))
            band, width = [], 0
        width += (len(GAP) if band else 0) + wide
        band.append(grid)
    return [*cut, tuple(band)] if band else cut


def figure_lines(figure: Figure, indent: str = "  ") -> list[str]:
    """The whole figure: its rows of grids (cut into bands within WIDTH), then each grid's pieces in words, the
    legend and the notes."""
    lines: list[str] = []
    for band in (band for row in figure.layout for band in bands(row, WIDTH - len(indent))):
        if lines:
            lines.append("")
        lines += [indent + line if line else "" for line in side_by_side(band)]
    for grid in figure.grids:
        if grid.description:
            lines += wrapped(f"{grid.caption}: {grid.description}", indent)
    for line in (*figure.legend, marks_legend(figure), *figure.notes):
        if line:
            lines += wrapped(line, indent)
    return lines


def marks_legend(figure: Figure) -> str:
    """What the brackets around a square and the fog's letter mean, for the marks its boards show (a strip's
    cells have none); "" when they show none."""
    meanings = [f"'{FOG_LETTER}': {MARK_MEANINGS[mark]}" if mark == FOG else
                f"between {BRACKETS[mark][0]} {BRACKETS[mark][1]}: {MARK_MEANINGS[mark]}"
                for mark in figure.marks(boards_only=True)]
    return "; ".join(meanings).capitalize() + "." if meanings else ""


@lru_cache(maxsize=1024)  # legends and piece lists recur from mail to mail
def wrapped(text: str, indent: str) -> tuple[str, ...]:
    return tuple(textwrap.wrap(text, WIDTH - 2, initial_indent=indent, subsequent_indent=indent + "  ",
                               break_long_words=False, break_on_hyphens=False)) or ("",)
