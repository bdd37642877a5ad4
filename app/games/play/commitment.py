"""Tamper evidence: each hidden setup is committed to by a salted SHA-256, shown when play starts.

The game-over mail reveals the salts and the committed text, so either player can hash it again and see
that no setup was changed mid-game.
"""

from __future__ import annotations

import hashlib


def committed_text(salt: str, variant: str, side: str, row: str | None) -> str:
    """What is hashed: the salt, the variant, the side and its setup."""
    return f"{salt}:{variant}:{side}:{row}"


def commitment(salt: str, variant: str, side: str, row: str) -> str:
    """SHA-256 over a salted setup: published at the start, the salt revealed at the end."""
    return hashlib.sha256(committed_text(salt, variant, side, row).encode()).hexdigest()
