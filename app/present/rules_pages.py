"""Each variant's rules for players: the page its declaration names (``rules.md`` in its presenter package),
in the project's own words.

The web shows them as HTML (``/rules/<variant>``), the ``rules`` command mails them as text, and every mail
of a game links to its page.
"""

from __future__ import annotations

import re
import textwrap
from functools import cache
from pathlib import Path

import markdown

from app.present.registry import declaration_for

WIDTH = 72  # the text part's width, as the diagrams' (app/present/text.py): a client that wraps breaks nothing
ITEM = re.compile(r"^(\s*)([-*]|\d+\.) ")


def rules_text(variant_name: str) -> str:
    """The page as written (Markdown reads well as plain text), each paragraph, list item and table row
    wrapped again within WIDTH columns."""
    return _text(declaration_for(variant_name).rules_page)


def rules_html(variant_name: str) -> str:
    """The page as HTML, for the web (the project's own text: no player's words go in)."""
    return _html(declaration_for(variant_name).rules_page)


@cache
def _text(page: Path) -> str:
    return "\n".join(within_width(page.read_text(encoding="utf-8"))) + "\n"


@cache
def _html(page: Path) -> str:
    return markdown.markdown(page.read_text(encoding="utf-8"), extensions=["tables"])


def within_width(page: str) -> list[str]:
    """Markdown text wrapped within WIDTH: headings and code as they are, a paragraph or list item joined and
    wrapped (a list item under its marker), a table row as a list item "cell: cell". Code lines are the
    pages' short examples; they are not cut."""
    lines: list[str] = []
    block: list[str] = []  # the lines of the paragraph or list item being read
    fenced = False

    def flush() -> None:
        if block:
            first = ITEM.match(block[0])
            lead = first.group(0) if first else ""
            text = " ".join(line.strip() for line in [block[0][len(lead):], *block[1:]])
            lines.extend(textwrap.wrap(text, WIDTH, initial_indent=lead, subsequent_indent=" " * len(lead),
                                       break_long_words=False, break_on_hyphens=False))
            block.clear()

    for line in page.splitlines():
        if line.startswith("```"):
            flush()
            fenced = not fenced
            lines.append(line)
        elif fenced or line.startswith("#") or not line.strip() or (line.startswith("    ") and not block):
            flush()  # a heading, code (fenced, or indented where no paragraph goes on) or a blank line: as it is
            lines.append(line.rstrip())
        elif line.lstrip().startswith("|"):
            flush()
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if not all(set(cell) <= set("-: ") for cell in cells):  # the row under the heads draws a line
                block.append("- " + ": ".join(cell for cell in cells if cell))
                flush()
        elif ITEM.match(line):
            flush()
            block.append(line)
        else:
            block.append(line)
    flush()
    return lines
