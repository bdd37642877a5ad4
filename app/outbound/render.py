"""Rendering both parts of every mail from templates/mail, given plain values only."""

from __future__ import annotations

import textwrap
from collections.abc import MutableMapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from app.config import ROOT
from app.present.diagram import FOG, LAST, MARK_MEANINGS, SEEN, UNKNOWN, Cell, Figure, Row, drawn_legend
from app.present.text import FOG_LETTER, figure_lines

GLYPHS = {
    "K": "\u2654", "Q": "\u2655", "R": "\u2656", "B": "\u2657", "N": "\u2658", "P": "\u2659",
    "k": "\u265a", "q": "\u265b", "r": "\u265c", "b": "\u265d", "n": "\u265e", "p": "\u265f",
    UNKNOWN: "?",
}
MARKER = "Reply above this line"  # what quote stripping cuts at, whatever follows it
NOTICE_MARKER = f"{MARKER}."  # heads every mail
ORDER_MARKER = f"{MARKER} with your order."  # heads a move request (its context's ``marker``)
BACKGROUND = {"light": "#f0d9b5", "dark": "#b58863", "": "#ece8df"}
MARK_BACKGROUND = {LAST: "#f5c84c", SEEN: "#d9c2f0", FOG: "#8a8a8a"}  # fog: a cell of its own, told in the legend
# Every glyph in near-black ink: White's pieces are the hollow glyphs and Black's the solid ones, so they stay
# apart on either square colour, in clients that drop text-shadow (Outlook) and in dark mode, which inverts the
# ink of both alike. A piece of unknown type is a bold purple '?'.
GLYPHS_LEGEND = "White's pieces are the hollow figures, Black's the solid ones."
FOG_STYLE = "color:#555555;font-weight:bold;"
PIECE_STYLE = {"white": "color:#111111;", "black": "color:#111111;", "unknown": "color:#6a1b9a;font-weight:bold;"}


def piece_style(letter: str) -> str:
    if letter.isupper():
        return PIECE_STYLE["white"]
    return PIECE_STYLE["black"] if letter.islower() else PIECE_STYLE["unknown"]


def glyph(letter: str) -> Markup:
    """A piece as a character reference: the HTML part stays ASCII."""
    symbol = GLYPHS.get(letter, "")
    return Markup(symbol if symbol.isascii() else f"&#{ord(symbol)};")


@lru_cache(maxsize=1024)  # the same sentences recur in mail after mail
def wrap(text: str, width: int = 70, first: str = "", rest: str = "") -> str:
    """Wrap a paragraph for the text part, with prefixes for the first and following lines."""
    lines = textwrap.wrap(text, width, initial_indent=first, subsequent_indent=rest,
                          break_long_words=False, break_on_hyphens=False)  # links stay whole
    return "\n".join(lines) or first.rstrip()


def _macro(template: str, name: str) -> Any:
    """A macro of one of the mail templates' partials, to render a piece that recurs once and keep it."""
    return getattr(environment().get_template(f"mail/{template}").module, name)


@lru_cache(maxsize=512)
def cell_html(cell: Cell) -> Markup:
    """One square or strip cell, rendered by the template's ``cell`` macro once per kind of cell."""
    background = MARK_BACKGROUND.get(cell.mark) or (MARK_BACKGROUND[FOG] if cell.fog else BACKGROUND[cell.shade])
    style = piece_style(cell.piece) if cell.piece else ""  # in full ink even when stale: its label says when
    small = cell.label or (f"m{cell.seen_at}" if cell.seen_at is not None else "")
    if cell.fog and cell.mark:  # a fogged square a message named: the mark's colour, and fog's letter on it
        return Markup(_macro("_board.html", "cell")(background, FOG_LETTER, Markup(FOG_STYLE), small))
    return Markup(_macro("_board.html", "cell")(background, glyph(cell.piece), Markup(style), small))


@lru_cache(maxsize=2048)
def row_html(row: Row, board: bool) -> Markup:
    """One row of a grid, rendered once per distinct row: most rows recur from mail to mail."""
    cells = Markup("\n".join(cell_html(cell) for cell in row.cells))  # a line a cell: short lines on the wire
    return Markup(_macro("_board.html", "row")(row.label, cells, board))


def figure_html(figure: Figure) -> Markup:
    """A figure's grids in rows, each grid a table with its description as its accessible name."""
    rows = [[(grid, [row_html(row, grid.is_board) for row in grid.rows]) for grid in layout]
            for layout in figure.layout]
    marks = [(MARK_BACKGROUND[mark], MARK_MEANINGS[mark]) for mark in figure.marks()]
    legend = drawn_legend(figure.legend, GLYPHS_LEGEND)
    return Markup(_macro("_board.html", "figure")(figure, rows, legend, marks))


def figure_text(figure: Figure) -> str:
    """A figure as fixed-width lines for the text part."""
    return "\n".join(figure_lines(figure))


Forms = tuple[tuple[str, str], ...]  # (example, meaning) pairs


@lru_cache(maxsize=16)
def _forms_html(forms: Forms) -> Markup:
    return Markup(_macro("_forms.html", "forms_table")(forms))


@lru_cache(maxsize=16)
def _forms_text(forms: Forms) -> str:
    return "\n".join(wrap(meaning, 72, f"   {example:<12} ", " " * 16) for example, meaning in forms)


def forms_html(forms: Sequence[tuple[str, str]]) -> Markup:
    """The order forms as a table: rendered once per set of forms."""
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
    env.globals["figure_html"] = figure_html
    env.globals["figure_text"] = figure_text
    env.globals["forms_html"] = forms_html
    env.globals["forms_text"] = forms_text
    env.globals["marker"] = NOTICE_MARKER
    return env


def render_text(kind: str, context: dict[str, Any]) -> str:
    """A text-only template of templates/mail (a file sent with a mail)."""
    return environment().get_template(f"mail/{kind}.txt").render(**context)


def render(kind: str, context: dict[str, Any]) -> tuple[str, str]:
    """The text and HTML parts of one kind of mail."""
    env = environment()
    text = env.get_template(f"mail/{kind}.txt").render(**context)
    html = env.get_template(f"mail/{kind}.html").render(**context)
    return text, html


@dataclass(frozen=True)
class Document:
    """A longer text a mail carries as it is (a page of rules): as written for the text part, as HTML."""

    text: str
    html: Markup


def render_message(subject: str, paragraphs: list[str], *, figure: Figure | None = None,
                   forms: Sequence[tuple[str, str]] = (), show_marker: bool = True, document: Document | None = None,
                   rules_url: str = "") -> tuple[str, str]:
    """A notice: paragraphs, then perhaps the player's position, a document and the order forms."""
    return render("message", {"subject": subject, "paragraphs": paragraphs, "figure": figure or Figure(),
                              "forms": forms, "show_marker": show_marker, "document": document,
                              "rules_url": rules_url})
