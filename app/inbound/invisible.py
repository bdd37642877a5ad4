"""Text as a reader sees it: the invisible characters clients leave in a reply taken out.

Mail clients and the editors people paste from leave format characters in text: zero-width
spaces and joiners, direction marks, the word joiner, byte order marks, soft hyphens (Unicode
category Cf), and spaces other than the ASCII one (NBSP, the narrow NBSP Gmail writes before
"AM", the ideographic space: category Zs). Unseen, they would make ``e2<ZWSP>-e4`` unreadable
and hide an attribution line from its pattern. Categories come from ``unicodedata``, looked up
once per distinct character of the text, so the work is linear in its length.
"""

from __future__ import annotations

import re
import unicodedata

JOINERS = re.compile("[\u200c\u200d]+")  # zero-width non-joiner and joiner


def visible(text: str) -> str:
    """``text`` with format characters removed and every kind of space made an ASCII space.

    Joiners shape emoji and the words of some scripts (Persian, the Indic scripts), which a ``say``
    message passes on word for word: a run of them is kept between two characters that are not ASCII,
    where no order is written, and removed everywhere else.
    """
    if text.isascii():
        return text
    table: dict[int, str | None] = {}
    for char in set(text):
        if char.isascii() or char in "\u200c\u200d":
            continue
        category = unicodedata.category(char)
        if category == "Cf":
            table[ord(char)] = None
        elif category == "Zs":
            table[ord(char)] = " "
    if table:
        text = text.translate(table)
    return JOINERS.sub(lambda found: _joiners_kept(text, found), text)


def _joiners_kept(text: str, found: re.Match[str]) -> str:
    start, end = found.span()
    between_non_ascii = start > 0 and end < len(text) and not text[start - 1].isascii() and not text[end].isascii()
    return found.group() if between_non_ascii else ""
