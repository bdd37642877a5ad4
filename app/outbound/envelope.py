"""The envelope sender of our mail (VERP): a random key per mail, so a bounce names the mail it answers.

The key is drawn when the mail is queued and says nothing else: not how many mails were
made before it, nor for whom. It was the outbox row's id, which numbered every mail of
the server, so a player could tell from Return-Path how many mails the server had made
between two of theirs (the opponent's rejected orders and commands among them).
"""

from __future__ import annotations

import base64
import re
import secrets

from app.config import Settings

KEY_PATTERN = re.compile(r"(?<![a-z0-9])bounce\.([a-z2-7]{26})(?![a-z2-7.])", re.IGNORECASE)


def new_envelope_key() -> str:
    """130 random bits in lower-case base32 (an address's local part may lose its case)."""
    return base64.b32encode(secrets.token_bytes(17)).decode().lower().rstrip("=")[:26]


def envelope_address(settings: Settings, key: str) -> str:
    return f"{settings.server_local}+bounce.{key}@{settings.server_domain}"


def find_envelope_key(address: str) -> str | None:
    """The envelope key a bounce was sent to, if the address is one of ours of that form."""
    match = KEY_PATTERN.search(address)
    return match.group(1).lower() if match else None
