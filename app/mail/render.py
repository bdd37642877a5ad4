"""Rendering both parts of every mail from templates/mail, given plain values only."""

from __future__ import annotations

import textwrap
from functools import lru_cache
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from app.config import ROOT

GLYPHS = {
    "K": "\u2654", "Q": "\u2655", "R": "\u2656", "B": "\u2657", "N": "\u2658", "P": "\u2659",
    "k": "\u265a", "q": "\u265b", "r": "\u265c", "b": "\u265d", "n": "\u265e", "p": "\u265f",
    "?": "?",
}
MARKER = "Reply above this line with your order."


def wrap(text: str, width: int = 70, first: str = "", rest: str = "") -> str:
    """Wrap a paragraph for the text part, with prefixes for the first and following lines."""
    lines = textwrap.wrap(text, width, initial_indent=first, subsequent_indent=rest,
                          break_long_words=False, break_on_hyphens=False)  # links stay whole
    return "\n".join(lines) or first.rstrip()


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(str(ROOT / "templates")),
        autoescape=select_autoescape(enabled_extensions=("html",), default_for_string=False),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=False,
    )
    env.filters["wrap"] = wrap
    env.globals["glyphs"] = GLYPHS
    env.globals["marker"] = MARKER
    return env


def render(kind: str, context: dict[str, Any]) -> tuple[str, str]:
    """The text and HTML parts of one kind of mail."""
    env = environment()
    text = env.get_template(f"mail/{kind}.txt").render(**context)
    html = env.get_template(f"mail/{kind}.html").render(**context)
    return text, html
