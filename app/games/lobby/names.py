"""Players' names compared as people read them: two names are one when they look alike (``name_key``).

Compatibility forms and the Cyrillic and Greek letters drawn like Latin ones are folded as command lines are
(``lookalikes``), the letters and digits drawn alike in most fonts (``l`` and ``1``; ``o`` and ``0``; ``rn``
and ``m``) made one, case folded, spaces run together. A player's key is unique in the database, so no two
players hold names that look alike; the names the club gives (``Player 12``) are ``generated`` ones.
"""

from __future__ import annotations

import re

from app.games.commands.lookalikes import folded

# Digits and signs drawn like Latin letters in most fonts (compared once case is folded)
LATIN_LOOKALIKES = str.maketrans({"1": "l", "|": "l", "0": "o"})
KEY_LENGTH = 100  # characters of a key kept (a name is at most this long)
GENERATED = re.compile(r"player [0-9lo]+")  # the key of a name the club gives (``Player 12``)


def name_key(name: str) -> str:
    """The name as names are compared: two names with one key look alike ("Сarol" with a Cyrillic С,
    "CAROL", "Car0l" and "Carol" have one)."""
    key = folded(name).casefold().translate(LATIN_LOOKALIKES).replace("rn", "m")
    return " ".join(key.split())[:KEY_LENGTH]


def generated(key: str) -> bool:
    """Whether a key is that of a name the club gives (``Player 12``)."""
    return GENERATED.fullmatch(key) is not None
