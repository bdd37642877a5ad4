"""Each variant's rules for players: the pages in docs/rules/, one per variant, in the project's own words.

The web shows them as HTML (``/rules/<variant>``), the ``rules`` command mails them as text, and every mail
of a game links to its page.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import markdown

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules"


@cache
def rules_text(variant_name: str) -> str:
    """The page as written (Markdown reads well as plain text)."""
    return (RULES / f"{variant_name}.md").read_text(encoding="utf-8")


@cache
def rules_html(variant_name: str) -> str:
    """The page as HTML, for the web (the project's own text: no player's words go in)."""
    return markdown.markdown(rules_text(variant_name), extensions=["tables"])
