"""Commands outside any game that change something, held until the sender confirms them by a reply.

A mail to the bare address proves nothing about its From. Its commands that change something
(``Held``) are therefore kept here and the sender is asked to reply to a mail whose
reply address carries a random key; only the owner of the address receives it. The
reply, from that same address, within ``LIFETIME``, carries the commands out, once.
"""

from __future__ import annotations

import base64
import re
import secrets
from datetime import datetime, timedelta

from sqlalchemy import Connection, String, Text, insert, select, update
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, UTCDateTime, utcnow

LIFETIME = timedelta(days=3)
KEY_PATTERN = re.compile(r"(?<![a-z0-9])confirm\.([a-z2-7]{26})(?![a-z2-7])", re.IGNORECASE)


class Confirmation(Base):
    """Commands waiting for their sender's confirming reply."""

    __tablename__ = "confirmations"

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(32), unique=True)
    email: Mapped[str] = mapped_column(String(320))
    commands: Mapped[str] = mapped_column(Text)  # the command lines, one a line, as read
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


TABLE = Confirmation.__table__


def new_key() -> str:
    """130 random bits in lower-case base32: safe in an address's local part, whatever the case."""
    return base64.b32encode(secrets.token_bytes(17)).decode().lower().rstrip("=")[:26]


def hold(connection: Connection, email: str, lines: list[str], now: datetime) -> str:
    """Keep the command lines for ``email``; returns the key its confirming reply must carry."""
    key = new_key()
    connection.execute(insert(TABLE).values(key=key, email=email, commands="\n".join(lines), created_at=now))
    return key


def find_key(texts: list[str], pattern: re.Pattern[str] = KEY_PATTERN) -> str | None:
    """The confirmation key (or another random key ``pattern`` finds) in a reply's recipient addresses or the
    Message-IDs it answers."""
    for text in texts:
        match = pattern.search(text)
        if match:
            return match.group(1).lower()
    return None


def held_at(connection: Connection, key: str, email: str) -> datetime | None:
    """When the commands under ``key`` were held for ``email``, while they wait for its confirmation."""
    return connection.execute(select(TABLE.c.created_at).where(TABLE.c.key == key, TABLE.c.email == email,
                                                               TABLE.c.used_at.is_(None))).scalar()


def take(connection: Connection, key: str, email: str, now: datetime) -> list[str] | None:
    """The held command lines, once, for their own sender within their lifetime; None otherwise."""
    row = connection.execute(select(TABLE.c.id, TABLE.c.email, TABLE.c.commands, TABLE.c.created_at)
                             .where(TABLE.c.key == key, TABLE.c.used_at.is_(None))).first()
    if row is None or row.email != email or row.created_at < now - LIFETIME:
        return None
    taken = connection.execute(update(TABLE).where(TABLE.c.id == row.id, TABLE.c.used_at.is_(None))
                               .values(used_at=now)).rowcount
    return row.commands.splitlines() if taken == 1 else None
