"""How the club shows a player to others: by a name that holds no part of an address, and that no other player in
the club holds, however written.

Two names are one in the club when they look alike (``name_key``): compatibility forms and the Cyrillic
and Greek letters drawn like Latin ones folded as command lines are (``lookalikes``), the letters and
digits drawn alike in most fonts (``l`` and ``1``; ``o`` and ``0``; ``rn`` and ``m``) made one, case
folded, spaces run together. A player's key is unique in the database.
"""

from __future__ import annotations

import re

from app.games.commands.lookalikes import folded

# Digits and signs drawn like Latin letters in most fonts (compared once case is folded)
LATIN_LOOKALIKES = str.maketrans({"1": "l", "|": "l", "0": "o"})
KEY_LENGTH = 100  # characters of a key kept (a name is at most this long)
GENERATED = re.compile(r"player [0-9lo]+")  # the key of a name the club gives (``Player 12``)


def club_name(name: str, email: str, player_id: int) -> str:
    """How the club shows a player to others: the name they chose, or "Player N" while they are still called
    after their address, or by a name with an address in it (the club never shows any part of an address)."""
    local = email.split("@")[0].strip().lower()
    plain = name.strip()
    return f"Player {player_id}" if not plain or plain.lower() == local or "@" in plain else name


def name_key(name: str) -> str:
    """The name as the club compares names: two names with one key look alike ("Сarol" with a Cyrillic С,
    "CAROL", "Car0l" and "Carol" have one)."""
    key = folded(name).casefold().translate(LATIN_LOOKALIKES).replace("rn", "m")
    return " ".join(key.split())[:KEY_LENGTH]


def generated(key: str) -> bool:
    """Whether a key is that of a name the club gives (``Player 12``)."""
    return GENERATED.fullmatch(key) is not None
