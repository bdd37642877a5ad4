"""Signed links into a player's pages, carried by every move request.

A history link opens one game's history as its player sees it, read only, to whoever holds it (move
requests get forwarded): it signs nobody in. Its key names the game, the player and the time it was
issued, so it is void once the player signs out everywhere after that time (app/games/access.py), and
the web refuses it too once the game has been over for ``HISTORY_LINK_DAYS``.
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache

from itsdangerous import BadSignature, URLSafeSerializer

from app.config import Settings
from app.db import utcnow
from app.tokens import KeyOnceSigner

HISTORY_SALT = "mirrorpost.history-link"
KEY_PAYLOAD = re.compile(r"(\d{1,12})\.(\d{1,12})\.([0-9a-z]{1,12})")
SIGNATURE_BYTES = 16  # 128 bits of HMAC-SHA256: the link stays short enough for a line of mail


@dataclass(frozen=True)
class HistoryKey:
    """What a history link's key says: whose view of which game, issued when (None: a key of the old
    kind, without a time, which no longer opens anything)."""

    game_id: int
    player_id: int
    issued_at: datetime | None


def history_link(settings: Settings, game_id: int, player_id: int) -> str:
    """A link that opens this player's history of this game, read only."""
    return f"{settings.base_url}/games/{game_id}?key={history_key(settings, game_id, player_id, utcnow())}"


def history_key(settings: Settings, game_id: int, player_id: int, issued: datetime) -> str:
    """``game.player.time`` and its signature, the time in milliseconds written in base 36: cut to the
    millisecond, never rounded up, so a key made before a sign-out everywhere never reads as made after it."""
    payload = f"{game_id}.{player_id}.{_base36(int(issued.timestamp() * 1000))}"
    return _signer(settings.secret_key).sign(payload).decode()


def _base36(number: int) -> str:
    digits = ""
    while True:
        number, digit = divmod(number, 36)
        digits = "0123456789abcdefghijklmnopqrstuvwxyz"[digit] + digits
        if not number:
            return digits


def read_history_key(settings: Settings, key: str) -> HistoryKey | None:
    """The key's contents if the server signed it; None for anything else."""
    if len(key) > 200:
        return None
    try:
        payload = _signer(settings.secret_key).unsign(key).decode()
    except BadSignature:
        return _old_key(settings.secret_key, key)
    match = KEY_PAYLOAD.fullmatch(payload)
    if match is None:
        return None
    game_id, player_id, milliseconds = int(match.group(1)), int(match.group(2)), int(match.group(3), 36)
    return HistoryKey(game_id, player_id, datetime.fromtimestamp(milliseconds / 1000, UTC))


def _old_key(secret_key: str, key: str) -> HistoryKey | None:
    """A key of the kind mailed before keys carried their time: recognised, so that its page can say it is
    void, and never honoured."""
    try:
        game_id, player_id = URLSafeSerializer(secret_key, salt=HISTORY_SALT).loads(key)
        return HistoryKey(int(game_id), int(player_id), None)
    except (BadSignature, ValueError, TypeError):
        return None


class HistorySigner(KeyOnceSigner):
    """HMAC-SHA256 cut to ``SIGNATURE_BYTES``, in URL-safe base64."""

    def get_signature(self, value: str | bytes) -> bytes:
        return base64.urlsafe_b64encode(self.mac(value)[:SIGNATURE_BYTES]).rstrip(b"=")


@lru_cache(maxsize=8)
def _signer(secret_key: str) -> HistorySigner:
    """One signer per key: its derived key is worked out once, not for every move request."""
    return HistorySigner(secret_key, salt=f"{HISTORY_SALT}.issued", sep=".", digest_method=hashlib.sha256)


def rules_link(settings: Settings, variant_name: str) -> str:
    """The page of a variant's rules for players (open to anyone)."""
    return f"{settings.base_url}/rules/{variant_name}"
