"""The new text of a reply: what the player wrote, without quotes, signatures or forwards.

What the player wrote may stand anywhere: above the quote, below it (bottom-posting) or between
its lines (inline replies). The lines are read in order, invisible characters taken out first
(``invisible``), and sorted by the strongest signal first:

- ``>`` lines are quoted; so is a line right below one that completes it into a line we sent (a
  client wrapped the quote and marked only its first part);
- an attribution, a separator or a header block (``attributions``) introduces a quote: when ``>``
  lines follow it, reading goes on below them; when the original follows it unmarked, nothing
  after it is the player's;
- nothing after our own "reply above this line" marker, a signature or a forward is the player's;
  nor after a run of lines that also stand in the mail being answered (we stored the text we sent,
  so such a run is the quote whatever the client did to its markers).

Each line costs work bounded by its length, so the whole is linear in the text.
"""

from __future__ import annotations

import re

from app.inbound.attributions import ends_new_text, intro_end, is_quoted
from app.inbound.invisible import visible
from app.outbound.render import MARKER

MIN_QUOTED_RUN = 3
QUOTE_MARKS = re.compile(r"^[\s>|]+")


def normalise(line: str) -> str:
    """A line as compared with what we sent: quote marks, case and spacing removed.

    Every line of a reply and of the mail it answers goes through here, so the pattern runs only on
    a line that starts with a quote mark or a space; ``split`` runs the spaces together.
    """
    if line and (line[0] in ">|" or line[0].isspace()):
        line = QUOTE_MARKS.sub("", line)
    return " ".join(line.split()).lower()


OUR_MARKER = normalise(MARKER)


def sent_lines(texts: list[str]) -> set[str]:
    """The lines of the mails a reply answers, as ``normalise`` makes them (a few characters at least)."""
    lines = set()
    for text in texts:
        for line in visible(text).splitlines():
            normal = normalise(line)
            if len(normal) >= 3:
                lines.add(normal)
    return lines


def new_text(text: str, sent: list[str] | None = None) -> str:
    """The lines of a reply the player wrote, wherever they stand among the quoted ones, with no empty
    line at either end or two in a row."""
    lines = visible(text).splitlines()
    ours = sent_lines(sent or [])
    kept: list[str] = []
    index, quoted_above = 0, ""
    while index < len(lines):
        line = lines[index]
        if is_quoted(line):
            index, quoted_above = index + 1, normalise(line)
            continue
        normal = normalise(line)
        if quoted_above and normal and f"{quoted_above} {normal}" in ours:
            index, quoted_above = index + 1, ""  # the rest of the quoted line above, wrapped by the client
            continue
        quoted_above = ""
        if OUR_MARKER in normal or normal.startswith("-" * 20) or ends_new_text(line):
            break
        after = intro_end(lines, index)
        if after is not None:
            following = _next_written(lines, after)
            if following < len(lines) and is_quoted(lines[following]):
                index = following
                continue
            break  # the original follows unmarked: the rest is quoted
        if ours and normal in ours and _quoted_run(lines, index, ours):
            break
        if normal or (kept and kept[-1]):  # one empty line in a row at most, where a quote was taken out too
            kept.append(line.rstrip() if normal else "")
        index += 1
    while kept and not kept[-1]:
        kept.pop()
    return "\n".join(kept)


def _next_written(lines: list[str], index: int) -> int:
    """The index of the first line at or after ``index`` that is not blank (``len(lines)`` if none)."""
    while index < len(lines) and not lines[index].strip():
        index += 1
    return index


def _quoted_run(lines: list[str], index: int, ours: set[str]) -> bool:
    """Whether a run of lines we sent starts here (a lone match may be the player's own order)."""
    run = 0
    for number in range(index, len(lines)):
        normal = normalise(lines[number])
        if not normal:
            continue
        if normal not in ours:
            return False
        run += 1
        if run >= MIN_QUOTED_RUN:
            return True
    return run > 0
