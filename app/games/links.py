"""Signed links into a player's own pages, carried by every move request."""

from __future__ import annotations

from functools import lru_cache

from itsdangerous import BadSignature, URLSafeSerializer

from app.config import Settings

HISTORY_SALT = "mirrorpost.history-link"


def history_link(settings: Settings, game_id: int, player_id: int) -> str:
    """A link that opens this player's history of this game (and signs them in)."""
    return _history_link(settings.secret_key, settings.base_url, game_id, player_id)


@lru_cache(maxsize=4096)
def _history_link(secret_key: str, base_url: str, game_id: int, player_id: int) -> str:
    """The same link every time (the signature is deterministic): made once, not in every move request."""
    key = URLSafeSerializer(secret_key, salt=HISTORY_SALT).dumps([game_id, player_id])
    return f"{base_url}/games/{game_id}?key={key}"


def read_history_key(settings: Settings, key: str) -> tuple[int, int] | None:
    try:
        game_id, player_id = URLSafeSerializer(settings.secret_key, salt=HISTORY_SALT).loads(key)
    except (BadSignature, ValueError, TypeError):
        return None
    return int(game_id), int(player_id)


def rules_link(settings: Settings, variant_name: str) -> str:
    """The page of a variant's rules for players (open to anyone)."""
    return f"{settings.base_url}/rules/{variant_name}"
