"""The new text of a reply: what the player wrote, without quotes, signatures or forwards.

Layered, strongest signal first: we stored the text we sent, so a run of lines
that also stand in the message being answered is the quote, whatever the client
did to its markers. Then our own "reply above this line" marker, attribution and
separator lines of the common clients (translated ones too), ``>`` lines,
signatures and forwarded parts.
"""

from __future__ import annotations

import re

from app.outbound.render import MARKER

ATTRIBUTION = [
    r"^on\b.{0,200}\bwrote:?\s*$",  # Gmail, Apple Mail, Thunderbird
    r"^am\b.{0,200}\bschrieb.{0,80}:?\s*$",  # German
    r"^le\b.{0,200}\ba [ée]crit\s*:?\s*$",  # French
    r"^el\b.{0,200}\bescribi[óo]:?\s*$",  # Spanish
    r"^il giorno\b.{0,200}\bha scritto:?\s*$",  # Italian
    r"^op\b.{0,200}\bschreef.{0,80}:?\s*$",  # Dutch
    r"^em\b.{0,200}\bescreveu:?\s*$",  # Portuguese
    r"^.{0,200}\b(wrote|schrieb|a [ée]crit|escribi[óo]|ha scritto|schreef|escreveu|skrev|napisał)\s*:\s*$",
    r"^-{2,}\s*(original message|ursprüngliche nachricht|message d'origine|mensaje original|"
    r"messaggio originale|oorspronkelijk bericht|mensagem original)\s*-{2,}\s*$",
    r"^-{2,}\s*(forwarded message|weitergeleitete nachricht|message transféré)\s*-{2,}.*$",
    r"^begin forwarded message:?\s*$",
    r"^_{10,}\s*$",  # Outlook's separator line
    r"^\*?(from|von|de|van|da|från|od)\s*:\*?\s.+",  # Outlook's header block ("From: ... Sent: ...")
]
ATTRIBUTION_RE = [re.compile(pattern, re.IGNORECASE) for pattern in ATTRIBUTION]
SIGNATURE_RE = re.compile(
    r"^(--\s*|sent from my .*|get outlook for .*|envoyé de mon .*|von meinem .* gesendet|"
    r"enviado desde mi .*|inviato da .*|sent from mail for windows.*|sent with proton ?mail.*)$",
    re.IGNORECASE,
)
HEADER_BLOCK_NEXT = re.compile(r"^\*?(sent|gesendet|envoyé|date|datum|to|an|à|subject|betreff|objet)\s*:", re.I)
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


def sent_lines(texts: list[str]) -> set[str]:
    lines = set()
    for text in texts:
        for line in text.splitlines():
            normal = normalise(line)
            if len(normal) >= 3:
                lines.add(normal)
    return lines


def _attribution_at(lines: list[str], index: int) -> bool:
    line = lines[index].strip()
    if not line:
        return False
    for pattern in ATTRIBUTION_RE[:-1]:
        if pattern.match(line):
            if pattern.pattern.startswith(r"^\*?(from"):
                # an Outlook header block: "From:" followed by "Sent:"/"Date:"/"To:" within two lines
                following = [ln.strip() for ln in lines[index + 1 : index + 3]]
                return any(HEADER_BLOCK_NEXT.match(ln) for ln in following)
            return True
    if ATTRIBUTION_RE[-1].match(line):
        return True
    # Gmail breaks a long attribution over two lines: "On Mon, ... at 10:00, Name <a@b>" / "wrote:"
    if index + 1 < len(lines) and re.match(r"^(on|am|le|el)\b", line, re.I):
        joined = f"{line} {lines[index + 1].strip()}"
        return any(pattern.match(joined) for pattern in ATTRIBUTION_RE[:8])
    return False


def new_text(text: str, sent: list[str] | None = None) -> str:
    """The part of a reply the player wrote."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    ours = sent_lines(sent or [])
    marker = normalise(MARKER)
    kept: list[str] = []
    for index, line in enumerate(lines):
        normal = normalise(line)
        if marker in normal or normal.startswith("-" * 20):
            break
        if _attribution_at(lines, index):
            break
        if SIGNATURE_RE.match(line.strip()):
            break
        if ours and normal in ours and _quoted_run(lines, index, ours):
            break
        if line.lstrip().startswith(">"):
            continue
        kept.append(line.rstrip())
    while kept and not kept[-1].strip():
        kept.pop()
    while kept and not kept[0].strip():
        kept.pop(0)
    return "\n".join(kept)


def _quoted_run(lines: list[str], index: int, ours: set[str]) -> bool:
    """Whether a run of lines we sent starts here (a lone match may be the player's own order)."""
    run = 0
    for line in lines[index:]:
        normal = normalise(line)
        if not normal:
            continue
        if normal not in ours:
            return False
        run += 1
        if run >= MIN_QUOTED_RUN:
            return True
    return run > 0
