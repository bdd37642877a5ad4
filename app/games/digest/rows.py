"""The digest's rows: each digest sent with the games and plies it listed, and what waits for the next one.

A digest's reply address carries its row's key (``digest.KEY``: 130 random bits, as a confirmation's
key, so it says nothing of how many digests others were sent), which stays short whatever the number
of games; the games it listed, each at the ply it showed, are rows of ``digest_games``, and each game's
part of a reply to it is carried out once (``answer``: a conditional update, so a second copy of a
reply, with a new Message-ID or not, finds it answered). ``digest_notes`` keeps what a player on the
digest was not mailed at once and the event record does not keep (an opponent's vacation, the
fingerprints of hidden setups), until their next digest shows it. Statements run in the caller's
transaction.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Integer, String, bindparam, delete, insert, select, update
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, UTCDateTime
from app.games.lobby import confirmations
from app.games.lobby.confirmations import new_key
from app.games.models import Player

PLAYERS = Player.__table__
ROUND_BATCH = 200  # players a digest round takes up at most; the next round takes the rest
KEY_PATTERN = re.compile(r"(?<![a-z0-9])digest\.([a-z2-7]{26})(?![a-z2-7])", re.IGNORECASE)


class Digest(Base):
    """One digest sent to one player."""

    __tablename__ = "digests"

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(32), unique=True)  # what its reply address carries
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    sent_at: Mapped[datetime] = mapped_column(UTCDateTime())


class DigestGame(Base):
    """A game a digest listed as the player's move, at the ply it showed; answered once by a reply."""

    __tablename__ = "digest_games"

    digest_id: Mapped[int] = mapped_column(ForeignKey("digests.id"), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    ply: Mapped[int] = mapped_column(Integer)
    answered_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class DigestNote(Base):
    """Paragraphs a player on the digest was not mailed at once, for their next digest."""

    __tablename__ = "digest_notes"

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    paragraphs: Mapped[list[Any]] = mapped_column()
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


DIGESTS, LISTED, NOTES = Digest.__table__, DigestGame.__table__, DigestNote.__table__

# The players whose digest is due, through the partial index of the players on the digest (its predicate
# written out, so that a prepared plan uses the index too).
DUE_PLAYERS = (select(PLAYERS.c.id, PLAYERS.c.digest_due_at)
               .where(PLAYERS.c.digest_due_at.is_not(None), PLAYERS.c.digest_due_at <= bindparam("now"))
               .order_by(PLAYERS.c.digest_due_at).limit(bindparam("limit")))
EVERY_DIGEST_PLAYER = (select(PLAYERS.c.id, PLAYERS.c.digest_due_at).where(PLAYERS.c.digest_due_at.is_not(None))
                       .order_by(PLAYERS.c.id))
CLAIM = (update(PLAYERS).where(PLAYERS.c.id == bindparam("claimed"), PLAYERS.c.digest_due_at == bindparam("seen"))
         .values(digest_due_at=bindparam("next_due")))
ADD_DIGEST = insert(DIGESTS).returning(DIGESTS.c.id)
LISTED_OF = select(LISTED.c.game_id, LISTED.c.ply).where(LISTED.c.digest_id == bindparam("digest_id"))
ANSWER = (update(LISTED).where(LISTED.c.digest_id == bindparam("digest"), LISTED.c.game_id == bindparam("game"),
                               LISTED.c.answered_at.is_(None)).values(answered_at=bindparam("now")))
OWNER = (select(DIGESTS.c.id, PLAYERS.c.email).select_from(DIGESTS.join(PLAYERS, PLAYERS.c.id == DIGESTS.c.player_id))
         .where(DIGESTS.c.key == bindparam("digest_key")))
NOTES_OF = (select(NOTES.c.id, NOTES.c.game_id, NOTES.c.paragraphs).where(NOTES.c.player_id == bindparam("player_id"))
            .order_by(NOTES.c.id))


def due_players(connection: Any, now: datetime, every: bool = False) -> list[tuple[int, datetime]]:
    """(player id, due time) of the players whose digest is due now (``every``: every player on the digest)."""
    query = EVERY_DIGEST_PLAYER if every else DUE_PLAYERS
    return [(row[0], row[1]) for row in connection.execute(query, {"now": now, "limit": ROUND_BATCH})]


def claim(connection: Any, player_id: int, seen: datetime, next_due: datetime) -> bool:
    """The player's digest is this transaction's to send: their due time is still the one read (``seen``), and is
    moved on to ``next_due``. Another worker that read the same time finds it moved (the row lock makes it wait,
    then its condition fails): a digest is never sent twice."""
    return connection.execute(CLAIM, {"claimed": player_id, "seen": seen, "next_due": next_due}).rowcount == 1


def add_digest(connection: Any, player_id: int, sent_at: datetime, listed: dict[int, int]) -> str:
    """A digest row with the games it listed (game id -> ply); returns its reply token (``digest.KEY``)."""
    key = new_key()
    digest_id = connection.execute(ADD_DIGEST, {"key": key, "player_id": player_id, "sent_at": sent_at}).scalar_one()
    if listed:
        connection.execute(insert(LISTED), [{"digest_id": digest_id, "game_id": game_id, "ply": ply,
                                             "answered_at": None} for game_id, ply in listed.items()])
    return f"digest.{key}"


def find_key(texts: list[str]) -> str | None:
    """The digest key in a reply's recipient addresses or the Message-IDs it answers."""
    return confirmations.find_key(texts, KEY_PATTERN)


def email_of(connection: Any, player_id: int) -> str | None:
    return connection.execute(select(PLAYERS.c.email).where(PLAYERS.c.id == player_id)).scalar()


def owner(connection: Any, key: str) -> tuple[int, str] | None:
    """The digest with this key, and the address of the player it went to (None: no such digest)."""
    row = connection.execute(OWNER, {"digest_key": key}).first()
    return None if row is None else (row[0], row[1])


def listed(connection: Any, digest_id: int) -> dict[int, int]:
    """The games a digest listed, each with the ply it showed."""
    return {row[0]: row[1] for row in connection.execute(LISTED_OF, {"digest_id": digest_id})}


def answer(connection: Any, digest_id: int, game_id: int, now: datetime) -> bool:
    """Mark a game's part of a reply to a digest as carried out: False when it was already (another copy)."""
    return connection.execute(ANSWER, {"digest": digest_id, "game": game_id, "now": now}).rowcount == 1


def add_note(connection: Any, player_id: int, game_id: int, paragraphs: list[str], now: datetime) -> None:
    connection.execute(insert(NOTES), {"player_id": player_id, "game_id": game_id, "paragraphs": paragraphs,
                                       "created_at": now})


def notes_of(connection: Any, player_id: int) -> list[tuple[int, int, list[str]]]:
    """What waits for the player's next digest: (note id, game id, paragraphs), in the order it was kept."""
    return [(row[0], row[1], list(row[2])) for row in connection.execute(NOTES_OF, {"player_id": player_id})]


def drop_notes(connection: Any, note_ids: list[int]) -> None:
    """Notes once shown."""
    if note_ids:
        connection.execute(delete(NOTES).where(NOTES.c.id.in_(note_ids)))
