"""Who may act for a player on the web: the time before which every key of theirs is void.

History links, sign-in links and web sessions each carry the time they were issued. Signing out
everywhere (a button on the web, a command by mail) sets the player's ``keys_valid_after`` to now, and
every check at use time refuses what was issued before it: no list of keys to keep or to forget.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.engine import Connection

from app.db import utcnow
from app.games.models import Player

PLAYERS = Player.__table__


def sign_out_everywhere(connection: Connection, player_id: int, now: datetime | None = None) -> datetime:
    """Void every history link, sign-in link and web session of the player issued until now; the time set."""
    now = now or utcnow()
    connection.execute(update(PLAYERS).where(PLAYERS.c.id == player_id).values(keys_valid_after=now))
    return now


def keys_valid_after(connection: Connection, player_id: int) -> datetime | None:
    """The time before which the player's keys are void (None: never signed out everywhere)."""
    return connection.scalar(select(PLAYERS.c.keys_valid_after).where(PLAYERS.c.id == player_id))


def issued_in_force(issued: datetime, valid_after: datetime | None) -> bool:
    """Whether a key issued at ``issued`` outlived no sign-out everywhere."""
    return valid_after is None or issued > valid_after
