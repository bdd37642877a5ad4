"""Two searches of the standard feed parser, made without the work that does not change their result.

``email.feedparser`` reads every multipart reply, and two of its steps cost more than the rest of the
parse together on the replies of Gmail and Outlook, which quote our whole HTML move request:

- Before each boundary it looks for the line break at the very end of the part before, with
  ``NLCRE_eol.search(payload)``: a pattern anchored only at its end, so the search stops at every line
  break of a part of 20 KB or more on its way there. ``LineBreakAtEnd`` starts at the last two
  characters.
- For each multipart it compiles a pattern for the boundary's delimiter lines, and every message has a
  boundary of its own: compiling it took as long as reading the message's lines. ``BoundaryLine`` does
  what the pattern does: the delimiter at the start of the line, then one compiled pattern for the rest.
  The parser reaches ``re`` only through that ``compile`` once imported; ``PatternsForFeedParser``
  stands in for the module there and hands every other pattern to ``re``.

Both give the feed parser the same answers (it reads only ``group("end")`` and ``group("linesep")`` of a
boundary match, and only the text of a line-break match); tests compare them with the patterns they
replace, and whole replies parsed both ways. ``install`` puts them in place for every parse in the
process.
"""

from __future__ import annotations

import re
from email import feedparser
from typing import Any

LINE_BREAK_AT_END = re.compile(r"(\r\n|\r|\n)\Z")  # the feed parser's own NLCRE_eol
BOUNDARY_HEAD = "(?P<sep>"  # how the feed parser builds a boundary's pattern around the escaped delimiter
BOUNDARY_TAIL = r")(?P<end>--)?(?P<ws>[ \t]*)(?P<linesep>\r\n|\r|\n)?$"
AFTER_DELIMITER = re.compile(BOUNDARY_TAIL[1:])
ESCAPED = re.compile(r"\\(.)", re.DOTALL)


class LineBreakAtEnd:
    """``NLCRE_eol`` with a ``search`` that looks only where a match can be."""

    pattern = LINE_BREAK_AT_END.pattern

    def search(self, text: str) -> re.Match[str] | None:
        return LINE_BREAK_AT_END.search(text, max(len(text) - 2, 0))  # "\r\n" is the longest match


class BoundaryLine:
    """A multipart's delimiter line (``--boundary``, ``--boundary--``), matched as the feed parser's pattern
    matches it, with nothing compiled for the boundary."""

    def __init__(self, delimiter: str) -> None:
        self.delimiter = delimiter

    def match(self, line: str) -> re.Match[str] | None:
        if not line.startswith(self.delimiter):
            return None
        return AFTER_DELIMITER.match(line, len(self.delimiter))


class PatternsForFeedParser:
    """``re`` as the feed parser sees it: a boundary's pattern is a ``BoundaryLine``, any other goes to ``re``."""

    def compile(self, pattern: Any, flags: int = 0) -> Any:
        if (isinstance(pattern, str) and not flags and pattern.startswith(BOUNDARY_HEAD)
                and pattern.endswith(BOUNDARY_TAIL)):
            escaped = pattern[len(BOUNDARY_HEAD):-len(BOUNDARY_TAIL)]
            delimiter = ESCAPED.sub(r"\1", escaped)
            if re.escape(delimiter) == escaped:  # exactly a delimiter, as the feed parser escapes it
                return BoundaryLine(delimiter)
        return re.compile(pattern, flags)

    def __getattr__(self, name: str) -> Any:
        return getattr(re, name)


def install() -> None:
    """Use both in the standard feed parser, for every parse in this process."""
    feedparser.NLCRE_eol = LineBreakAtEnd()
    feedparser.re = PatternsForFeedParser()
