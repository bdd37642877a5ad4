"""Rendering both parts of every mail from templates/mail, given plain values only."""

from __future__ import annotations

import textwrap
from functools import lru_cache
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from app.config import ROOT

GLYPHS = {
    "K": "\u2654", "Q": "\u2655", "R": "\u2656", "B": "\u2657", "N": "\u2658", "P": "\u2659",
    "k": "\u265a", "q": "\u265b", "r": "\u265c", "b": "\u265d", "n": "\u265e", "p": "\u265f",
    "?": "?",
}
MARKER = "Reply above this line with your order."
LIGHT, DARK = "#f0d9b5", "#b58863"
# Glyph colours: white pieces as light glyphs with a dark outline, black as dark, unknowns in brown.
PIECE_STYLE = {"white": "color:#ffffff;text-shadow:0 0 2px #000000;", "black": "color:#000000;",
               "unknown": "color:#7a4b00;font-weight:bold;"}


def piece_style(cell: str) -> str:
    if cell.isupper():
        return PIECE_STYLE["white"]
    return PIECE_STYLE["black"] if cell.islower() else PIECE_STYLE["unknown"]


SQUARE_STYLES = {cell: Markup(piece_style(cell)) for cell in GLYPHS}
SQUARE_GLYPHS = {cell: Markup(glyph) for cell, glyph in GLYPHS.items()}


def wrap(text: str, width: int = 70, first: str = "", rest: str = "") -> str:
    """Wrap a paragraph for the text part, with prefixes for the first and following lines."""
    lines = textwrap.wrap(text, width, initial_indent=first, subsequent_indent=rest,
                          break_long_words=False, break_on_hyphens=False)  # links stay whole
    return "\n".join(lines) or first.rstrip()


@lru_cache(maxsize=64)
def square_html(background: str, cell: str) -> Markup:
    """One square of a mail board, rendered by the template's ``square`` macro once per kind of square."""
    macro = environment().get_template("mail/_board.html").module.square  # type: ignore[attr-defined]
    return Markup(macro(background, SQUARE_GLYPHS.get(cell, ""), SQUARE_STYLES.get(cell, "")))


def board_ranks(rows: list[list[str]]) -> list[tuple[int, Markup]]:
    """Each rank (8 first) with its eight squares' HTML.

    A move request has two boards of 64 squares but only 26 kinds of square (two backgrounds, twelve
    pieces, ``?`` and empty), so each kind is rendered once and reused.
    """
    ranks = []
    for index, row in enumerate(rows):
        rank = 8 - index
        ranks.append((rank, Markup("".join(
            square_html(DARK if (file + rank) % 2 == 1 else LIGHT, cell) for file, cell in enumerate(row)
        ))))
    return ranks


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(str(ROOT / "templates")),
        autoescape=select_autoescape(enabled_extensions=("html",), default_for_string=False),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=False,
        auto_reload=False,  # templates are read once per process, not checked on disk for every mail
    )
    env.filters["wrap"] = wrap
    env.globals["board_ranks"] = board_ranks
    env.globals["marker"] = MARKER
    return env


def render(kind: str, context: dict[str, Any]) -> tuple[str, str]:
    """The text and HTML parts of one kind of mail."""
    env = environment()
    text = env.get_template(f"mail/{kind}.txt").render(**context)
    html = env.get_template(f"mail/{kind}.html").render(**context)
    return text, html
