"""Each variant's rules for players: the page its declaration names (``rules.md`` in its presenter package),
in the project's own words.

The web shows them as HTML (``/rules/<variant>``), the ``rules`` command mails them as text, and every mail
of a game links to its page.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import markdown

from app.present.registry import declaration_for


def rules_text(variant_name: str) -> str:
    """The page as written (Markdown reads well as plain text)."""
    return _text(declaration_for(variant_name).rules_page)


def rules_html(variant_name: str) -> str:
    """The page as HTML, for the web (the project's own text: no player's words go in)."""
    return _html(declaration_for(variant_name).rules_page)


@cache
def _text(page: Path) -> str:
    return page.read_text(encoding="utf-8")


@cache
def _html(page: Path) -> str:
    return markdown.markdown(_text(page), extensions=["tables"])
