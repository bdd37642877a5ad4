"""The SVG renderer of the history pages: one grid of the diagram model as an SVG picture.

The piece drawings are python-chess's (``chess.svg.piece``), defined once per picture and
used by reference, as python-chess's own boards do. Squares of the last move are tinted,
squares a message named are outlined, a square the player cannot see is fog (grey, hatched), a piece of
unknown type is a ``?``, an entry that
may be stale has the move it was seen at in the corner (in full ink: nothing is faded), and a cell's label (a
square name in a strip, a rook's hand) is written small beside the piece. Every picture
carries its description as its accessible name.
"""

from __future__ import annotations

import re
from functools import lru_cache
from html import escape

import chess
import chess.svg

from app.present.diagram import FOG, LAST, SEEN, UNKNOWN, Cell, Grid

SQUARE = 40
MARGIN = 20
FILL = {"light": "#f0d9b5", "dark": "#b58863", "": "#ece8df"}
LAST_TINT = "#f5c84c"
SEEN_LINE = "#8a2be2"
INK = "#333333"
FOG_FILL = {"light": "#8f8f8f", "dark": "#767676", "": "#8f8f8f"}  # the board's two shades, greyed
FOG_LINES = "#5e5e5e"
DRAWN_LEGEND = "White's pieces are drawn light, Black's dark."


@lru_cache(maxsize=12)
def piece_definition(letter: str) -> str:
    """python-chess's drawing of one piece, as a group to define once and use by reference."""
    drawing = chess.svg.piece(chess.Piece.from_symbol(letter))
    group = re.search(r"<g\b.*</g>", drawing, re.S)
    assert group is not None
    return group.group(0)


def piece_id(letter: str) -> str:
    return ("white-" if letter.isupper() else "black-") + chess.piece_name(chess.Piece.from_symbol(letter).piece_type)


def cell_svg(cell: Cell, x: int, y: int) -> str:
    fill = FOG_FILL[cell.shade] if cell.fog else FILL[cell.shade]
    parts = [f'<rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="{fill}"'
             + ('' if cell.shade else ' stroke="#b9b2a3"') + "/>"]
    if cell.fog:  # hatched, so that fog never reads as a dark square, in print or to a colour-blind eye
        parts.append(f'<path d="M{x} {y + 20}L{x + 20} {y}M{x} {y + SQUARE}L{x + SQUARE} {y}M{x + 20} {y + SQUARE}'
                     f'L{x + SQUARE} {y + 20}" stroke="{FOG_LINES}" stroke-width="2"/>')
    if cell.mark == LAST:
        parts.append(f'<rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="{LAST_TINT}" '
                     'fill-opacity="0.55"/>')
    elif cell.mark == SEEN:
        parts.append(f'<rect x="{x + 2}" y="{y + 2}" width="{SQUARE - 4}" height="{SQUARE - 4}" fill="none" '
                     f'stroke="{SEEN_LINE}" stroke-width="3"/>')
    if cell.piece == UNKNOWN:
        parts.append(f'<text x="{x + SQUARE // 2}" y="{y + 29}" text-anchor="middle" font-size="26" '
                     f'font-weight="bold" font-family="sans-serif" fill="{SEEN_LINE}">?</text>')
    elif cell.piece:
        scale = SQUARE / 45
        parts.append(f'<use href="#{piece_id(cell.piece)}" transform="translate({x},{y}) scale({scale:.4f})"'
                     '/>')
    small = cell.label or (f"m{cell.seen_at}" if cell.seen_at is not None else "")
    if len(small) == 1:  # a sign (a rook's hand): larger, in the top corner, clear of the piece's base
        parts.append(f'<text x="{x + SQUARE - 2}" y="{y + 13}" text-anchor="end" font-size="14" font-weight="bold" '
                     f'font-family="sans-serif" fill="{INK}" stroke="#ffffff" stroke-width="3" '
                     f'paint-order="stroke">{escape(small)}</text>')
    elif small:
        parts.append(f'<text x="{x + SQUARE - 2}" y="{y + SQUARE - 3}" text-anchor="end" font-size="10" '
                     f'font-family="sans-serif" fill="{INK}" stroke="#ffffff" stroke-width="2" '
                     f'paint-order="stroke">{escape(small)}</text>')
    return "".join(parts)


def grid_svg(grid: Grid) -> str:
    """One grid as an SVG element, sized to its rows and cells."""
    width = MARGIN * 2 + SQUARE * max([len(row.cells) for row in grid.rows] + [8 if grid.is_board else 1])
    height = MARGIN * 2 + SQUARE * len(grid.rows)
    body = []
    letters = sorted({cell.piece for row in grid.rows for cell in row.cells if cell.piece not in ("", UNKNOWN)})
    if letters:
        body.append("<defs>" + "".join(piece_definition(letter) for letter in letters) + "</defs>")
    label_style = f'font-size="12" font-family="sans-serif" fill="{INK}" text-anchor="middle"'
    for index, name in enumerate(grid.columns):
        x = MARGIN + index * SQUARE + SQUARE // 2
        body.append(f'<text x="{x}" y="{MARGIN - 6}" {label_style}>{escape(name)}</text>')
        body.append(f'<text x="{x}" y="{height - 6}" {label_style}>{escape(name)}</text>')
    for row_index, row in enumerate(grid.rows):
        y = MARGIN + row_index * SQUARE
        body.append(f'<text x="{MARGIN // 2}" y="{y + 25}" {label_style}>{escape(row.label)}</text>')
        if grid.is_board:
            body.append(f'<text x="{width - MARGIN // 2}" y="{y + 25}" {label_style}>{escape(row.label)}</text>')
        for cell_index, cell in enumerate(row.cells):
            body.append(cell_svg(cell, MARGIN + cell_index * SQUARE, y))
    name = f"{grid.caption}: {grid.description}" if grid.description else grid.caption
    kind = "board" if grid.is_board else "strip"  # the page lays a strip beside its board, at the board's height
    return (f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" role="img" '
            f'class="{kind}" aria-label="{escape(name)}" viewBox="0 0 {width} {height}" width="{width}" '
            f'height="{height}"><title>{escape(name)}</title>{"".join(body)}</svg>')


def mark_key(mark: str) -> str:
    """One square drawn with ``mark`` (or as fog) as the boards draw it, small, for the legend under them."""
    cell = Cell("", "light", fog=True) if mark == FOG else Cell("", "light", mark)
    return (f'<svg class="key" width="18" height="18" viewBox="0 0 {SQUARE} {SQUARE}" aria-hidden="true">'
            f'{cell_svg(cell, 0, 0)}</svg>')
