"""Rendering both parts of every mail from templates/mail, given plain values only."""

from __future__ import annotations

import textwrap
from collections.abc import MutableMapping, Sequence
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
MARKER = "Reply above this line"  # what quote stripping cuts at, whatever follows it
NOTICE_MARKER = f"{MARKER}."  # heads every mail
ORDER_MARKER = f"{MARKER} with your order."  # heads a move request (its context's ``marker``)
LIGHT, DARK = "#f0d9b5", "#b58863"
# Glyph colours: white pieces as light glyphs with a dark outline, black as dark, unknowns in brown.
PIECE_STYLE = {"white": "color:#ffffff;text-shadow:0 0 2px #000000;", "black": "color:#000000;",
               "unknown": "color:#7a4b00;font-weight:bold;"}


def piece_style(cell: str) -> str:
    if cell.isupper():
        return PIECE_STYLE["white"]
    return PIECE_STYLE["black"] if cell.islower() else PIECE_STYLE["unknown"]


SQUARE_STYLES = {cell: Markup(piece_style(cell)) for cell in GLYPHS}
# As character references: the HTML part stays ASCII, which Python builds and encodes faster than text
# with a single chess glyph in it (such a string takes two bytes per character, all of it).
SQUARE_GLYPHS = {cell: Markup(glyph if glyph.isascii() else f"&#{ord(glyph)};") for cell, glyph in GLYPHS.items()}


@lru_cache(maxsize=1024)  # the same sentences recur in mail after mail
def wrap(text: str, width: int = 70, first: str = "", rest: str = "") -> str:
    """Wrap a paragraph for the text part, with prefixes for the first and following lines."""
    lines = textwrap.wrap(text, width, initial_indent=first, subsequent_indent=rest,
                          break_long_words=False, break_on_hyphens=False)  # links stay whole
    return "\n".join(lines) or first.rstrip()


def _macro(template: str, name: str) -> Any:
    """A macro of one of the mail templates' partials, to render a piece that recurs once and keep it."""
    return getattr(environment().get_template(f"mail/{template}").module, name)


@lru_cache(maxsize=64)
def square_html(background: str, cell: str) -> Markup:
    """One square of a mail board, rendered by the template's ``square`` macro once per kind of square."""
    return Markup(_macro("_board.html", "square")(background, SQUARE_GLYPHS.get(cell, ""), SQUARE_STYLES.get(cell, "")))


@lru_cache(maxsize=2048)
def rank_html(rank: int, cells: tuple[str, ...]) -> Markup:
    """One rank of a mail board, rendered by the template's ``rank`` macro once per distinct rank.

    Boards differ from move to move, but most of their ranks do not (empty ranks, pawn ranks, back
    ranks), and a square comes in only 26 kinds (two backgrounds, twelve pieces, ``?`` and empty).
    """
    squares = Markup("".join(
        square_html(DARK if (file + rank) % 2 == 1 else LIGHT, cell) for file, cell in enumerate(cells)))
    return Markup(_macro("_board.html", "rank")(rank, squares))


def board_rows(rows: list[list[str]]) -> list[Markup]:
    """The eight ranks of a board (8 first) as table rows."""
    return [rank_html(8 - index, tuple(row)) for index, row in enumerate(rows)]


@lru_cache(maxsize=1)
def board_files() -> Markup:
    """The row of file letters above a board: the same on every board."""
    return Markup(_macro("_board.html", "files")())


Forms = tuple[tuple[str, str], ...]  # (example, meaning) pairs


@lru_cache(maxsize=16)
def _forms_html(forms: Forms) -> Markup:
    return Markup(_macro("_forms.html", "forms_table")(forms))


@lru_cache(maxsize=16)
def _forms_text(forms: Forms) -> str:
    return "\n".join(wrap(meaning, 76, f"   {example:<12} ", " " * 16) for example, meaning in forms)


def forms_html(forms: Sequence[tuple[str, str]]) -> Markup:
    """The order forms as a table: rendered once per set of forms (every mail of a side shows the same)."""
    return _forms_html(tuple(forms))


def forms_text(forms: Sequence[tuple[str, str]]) -> str:
    """The order forms for the text part, each meaning wrapped under itself."""
    return _forms_text(tuple(forms))


class MailEnvironment(Environment):
    """Jinja's environment, with each template's globals in a plain dict.

    Every render copies its template's globals into a new context, and out of Jinja's ``ChainMap`` that
    copy goes key by key through Python: four renders a move. The globals are all set in
    ``environment`` before any template is loaded, so no later change has to show through.
    """

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        return {**self.globals, **(d or {})}


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = MailEnvironment(
        loader=FileSystemLoader(str(ROOT / "templates")),
        autoescape=select_autoescape(enabled_extensions=("html",), default_for_string=False),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=False,
        auto_reload=False,  # templates are read once per process, not checked on disk for every mail
    )
    env.filters["wrap"] = wrap
    env.globals["board_rows"] = board_rows
    env.globals["board_files"] = board_files
    env.globals["forms_html"] = forms_html
    env.globals["forms_text"] = forms_text
    env.globals["marker"] = NOTICE_MARKER
    return env


def render(kind: str, context: dict[str, Any]) -> tuple[str, str]:
    """The text and HTML parts of one kind of mail."""
    env = environment()
    text = env.get_template(f"mail/{kind}.txt").render(**context)
    html = env.get_template(f"mail/{kind}.html").render(**context)
    return text, html


def render_message(subject: str, paragraphs: list[str], *, diagram_lines: Sequence[str] = (), tray: str = "",
                   forms: Sequence[tuple[str, str]] = (), show_marker: bool = True) -> tuple[str, str]:
    """A notice: paragraphs, then perhaps the player's boards as text diagrams and the order forms.

    Notices come after every move, so their boards are the light text diagrams, in a fixed-width font in
    HTML too; the move request draws the boards as tables."""
    return render("message", {"subject": subject, "paragraphs": paragraphs, "diagram_lines": diagram_lines,
                              "tray": tray, "forms": forms, "show_marker": show_marker})
