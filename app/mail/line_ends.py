"""The feed parser's look for a line break at the very end of a part, made without reading the whole part.

``email.feedparser`` gives the line break before each boundary to the boundary: it looks for it with
``NLCRE_eol.search(payload)``, a pattern anchored only at the end, so the search stops at every line
break of the part on its way there. A reply from Gmail or Outlook quotes our whole HTML move request
in a part of 20 KB or more, and that one search was a twentieth of the CPU a move took.

``install`` puts in its place an object whose ``search`` starts at the last two characters: the same
match (the feed parser reads only its text), found at once.
"""

from __future__ import annotations

import re
from email import feedparser

LINE_BREAK_AT_END = re.compile(r"(\r\n|\r|\n)\Z")  # the feed parser's own pattern


class LineBreakAtEnd:
    """``NLCRE_eol`` with a ``search`` that looks only where a match can be."""

    pattern = LINE_BREAK_AT_END.pattern

    def search(self, text: str) -> re.Match[str] | None:
        return LINE_BREAK_AT_END.search(text, max(len(text) - 2, 0))  # "\r\n" is the longest match


def install() -> None:
    """Use ``LineBreakAtEnd`` in the standard feed parser (for every parse in this process)."""
    feedparser.NLCRE_eol = LineBreakAtEnd()
