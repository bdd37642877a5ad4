"""How the club shows a player to others: by a name that holds no part of an address, and that no other player
holds, however written (``app.games.lobby.names``: the key of a name, unique in the database).
"""

from __future__ import annotations

from app.games.lobby.names import GIVEN, called_after_address


def club_name(name: str, email: str, player_id: int) -> str:
    """How the club shows a player to others: the name they hold, or "Player N" while they are still called
    after their address, or by a name with an address in it (the club never shows any part of an address)."""
    return f"{GIVEN} {player_id}" if called_after_address(name, email) else name
