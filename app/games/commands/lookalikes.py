"""Command lines as the player meant them: compatibility forms and Latin look-alikes folded.

A player whose keyboard is set to Russian or Greek, or whose phone writes fullwidth forms, sends
``е2`` in Cyrillic letters or ``ｅ２``: the same order to any reader, none to a parser.
Before a command line is read it is folded: compatibility forms to their plain ones (NFKC:
fullwidth letters, digits and signs, ligatures, letter-like symbols), every decimal digit to its
ASCII one, the Cyrillic and Greek letters that look like Latin ones to those (``LOOKALIKES``), and
the characters no font draws (variation selectors, Hangul fillers) taken out.
Only the lines read as orders and commands are folded; what a ``say`` or ``name`` passes on keeps
every character the player wrote (``reading``).
"""

from __future__ import annotations

import re
import unicodedata

from app.rules.reading import RANK

# Cyrillic and Greek letters drawn like Latin ones, upper and lower case: what a keyboard in those scripts
# writes for a square, a piece or a command word that looks right on the screen.
LOOKALIKES = str.maketrans({
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t",
    "у": "y", "х": "x", "ѕ": "s", "і": "i", "ј": "j", "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h", "ү": "y",
    "ӏ": "l", "ь": "b",
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T",
    "У": "Y", "Х": "X", "Ѕ": "S", "І": "I", "Ј": "J", "Ԛ": "Q", "Ԝ": "W", "Ү": "Y", "Ӏ": "I",
    # Greek
    "α": "a", "β": "b", "γ": "y", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
    "υ": "u", "χ": "x", "ω": "w",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O",
    "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
    # Latin letters without their dot or with a hook that reads as the plain one
    "ı": "i", "ɡ": "g",
})
# Characters no font draws that are no format characters (those are taken out before: ``invisible``): variation
# selectors, the combining grapheme joiner, Mongolian free variation selectors, the Hangul fillers.
UNDRAWN = dict.fromkeys([*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0), 0x034F, 0x180B, 0x180C, 0x180D, 0x180F,
                         0x115F, 0x1160, 0x3164, 0xFFA0])
# A square written with a letter of a script that has look-alikes but none for this one (ж2, δ4): an order
# the referee cannot read, which is said, never passed over as chatter.
FOREIGN_SQUARE = re.compile(rf"(?<![^\W\d_])([\u0370-\u03ff\u0400-\u04ff]){RANK}(?!\d)")


def folded(text: str) -> str:
    """``text`` with compatibility forms, decimal digits and Latin look-alikes made plain Latin and ASCII, and the
    characters no font draws taken out."""
    if text.isascii():
        return text
    text = unicodedata.normalize("NFKC", text.translate(UNDRAWN))
    digits = {ord(char): str(unicodedata.decimal(char)) for char in set(text)
              if not char.isascii() and unicodedata.category(char) == "Nd"}
    if digits:
        text = text.translate(digits)
    return text.translate(LOOKALIKES)


def compatible(text: str) -> str:
    """``text`` with only its compatibility forms made plain (fullwidth ``＠``): for an address, whose letters
    in another script may be its own."""
    return text if text.isascii() else unicodedata.normalize("NFKC", text)


def foreign_letter(line: str) -> str | None:
    """The letter a folded line writes a square with that is no Latin one (``ж`` in ``ж2-ж4``), if any."""
    found = FOREIGN_SQUARE.search(line)
    return found.group(1) if found else None
