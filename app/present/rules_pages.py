"""Each variant's rules for players: the page ``rules.md`` in its presenter package, in the project's own words.

The web shows them as HTML (``/rules/<variant>``), the ``rules`` command mails them as text, and every mail
of a game links to its page.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import markdown

HERE = Path(__file__).resolve().parent
PACKAGES = {"looking-glass": "looking_glass", "side-view": "side_view", "quasi-alice-4d": "quasi_alice",
            "palindromic": "palindromic"}


@cache
def rules_text(variant_name: str) -> str:
    """The page as written (Markdown reads well as plain text)."""
    return (HERE / PACKAGES[variant_name] / "rules.md").read_text(encoding="utf-8")


@cache
def rules_html(variant_name: str) -> str:
    """The page as HTML, for the web (the project's own text: no player's words go in)."""
    return markdown.markdown(rules_text(variant_name), extensions=["tables"])
