"""In a multipart/alternative, only the lines its HTML shows are read from its text part.

A client shows the HTML of a multipart/alternative, and a client that makes the text part from
the HTML may copy into it what the HTML hides: the text part would then hold words its sender
never saw. The text part is still what is read (it is what the quoting rules work on), but a
line of the new text whose letters and digits the HTML does not show anywhere, quotes included,
is left out. Letters and digits alone are compared, case set aside, so that wrapping, bullets
and the marks a text part adds (``*bold*``) do not count. An HTML part with no text at all in
it, shown or hidden (a client that sent an empty alternative), proves nothing and changes
nothing. An HTML part whose styles cannot be worked out (``variables.Unresolved``) tells nothing of what
was shown: the text part is read as it is.
"""

from __future__ import annotations

import re

from app.inbound.html_text import html_to_text
from app.inbound.variables import Unresolved

TAGS = re.compile(r"<[^<>]*>")


def letters(text: str) -> str:
    """The letters and digits of ``text``, in order, case set aside."""
    return "".join(char for char in text.casefold() if char.isalnum())


def shown_only(text: str, html: str) -> str:
    """``text`` with each line that ``html`` does not show made empty.

    The HTML's own new text (quotes left out, which its reading stops at) is looked in first: it holds every
    line of a reply written above the quote, the most common, and costs a fraction of reading the whole.
    """
    lines = [(line, letters(line)) for line in text.splitlines()]
    try:
        seen = letters(html_to_text(html))
        if all(not found or found in seen for _line, found in lines):
            return text
        seen = letters(html_to_text(html, with_quotes=True))
    except Unresolved:
        return text
    if not seen and not letters(TAGS.sub(" ", html)):
        return text
    return "\n".join(line if not found or found in seen else "" for line, found in lines)
