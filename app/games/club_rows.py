"""The club's rows: open seeks, each player's rating in each variant, and every change of a rating.

A seek is a game offered to anyone: the first player who takes it (``join``) starts the game, and the
seek row is taken by a conditional update, so two players joining at once make one game. A rating is
one row per player and variant (Glicko-2's rating, deviation and volatility, and the games it counts);
each rated game's end writes one ``rating_changes`` row per player, the history a player's page draws.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Float, ForeignKey, Index, Integer, String, and_, bindparam, select, text
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, UTCDateTime, utcnow
from app.games.models import Player

OPEN = "open"  # a seek's status: open, taken (a game started from it), cancelled, lapsed
START_RATING, START_DEVIATION, START_VOLATILITY = 1500.0, 350.0, 0.06  # a new player's (Glicko-2)
PROVISIONAL_DEVIATION = 110.0  # a rating less sure than this is shown with a "?"


class Seek(Base):
    """A game offered to anyone, on the seeker's terms."""

    __tablename__ = "seeks"
    __table_args__ = (
        # The open seeks, listed on /seeks and by ``seeks``: only open seeks are in this index.
        Index("ix_seeks_open", "created_at", postgresql_where=text("status = 'open'"),
              sqlite_where=text("status = 'open'")),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    variant: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)  # the variant's options, as checked
    days: Mapped[int] = mapped_column(Integer, default=3)
    rated: Mapped[bool] = mapped_column(default=True)
    rating_low: Mapped[int | None] = mapped_column(Integer)  # who may join: a rating in this range
    rating_high: Mapped[int | None] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(12), default=OPEN)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    lapses_at: Mapped[datetime] = mapped_column(UTCDateTime())
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"))  # the game it started, once taken


class Rating(Base):
    """A player's Glicko-2 rating in one variant."""

    __tablename__ = "ratings"

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    variant: Mapped[str] = mapped_column(String(40), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class RatingChange(Base):
    """One rated game's effect on one player's rating: the history a player's page draws."""

    __tablename__ = "rating_changes"
    __table_args__ = (Index("ix_rating_changes_player_variant", "player_id", "variant", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    variant: Mapped[str] = mapped_column(String(40))
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    before: Mapped[float] = mapped_column(Float)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


PLAYERS, SEEKS, RATINGS, CHANGES = Player.__table__, Seek.__table__, Rating.__table__, RatingChange.__table__


@dataclass(frozen=True)
class RatingNow:
    """A player's rating in one variant as it stands (a new player's when they have played no rated game)."""

    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY
    games: int = 0

    @property
    def provisional(self) -> bool:
        return self.deviation > PROVISIONAL_DEVIATION

    @property
    def shown(self) -> str:
        """"1500?" while provisional, "1623" once settled."""
        return f"{round(self.rating)}{'?' if self.provisional else ''}"


def current_rating(connection: Connection, player_id: int, variant: str) -> RatingNow:
    row = connection.execute(select(RATINGS.c.rating, RATINGS.c.deviation, RATINGS.c.volatility, RATINGS.c.games)
                             .where(RATINGS.c.player_id == player_id, RATINGS.c.variant == variant)).first()
    return RatingNow(*row) if row else RatingNow()


def ratings_of(connection: Connection, player_id: int) -> dict[str, RatingNow]:
    """Every variant the player has a rating in."""
    rows = connection.execute(select(RATINGS.c.variant, RATINGS.c.rating, RATINGS.c.deviation,
                                     RATINGS.c.volatility, RATINGS.c.games)
                              .where(RATINGS.c.player_id == player_id).order_by(RATINGS.c.variant))
    return {row.variant: RatingNow(row.rating, row.deviation, row.volatility, row.games) for row in rows}


def rating_history(connection: Connection, player_id: int, variant: str, limit: int = 200) -> list[Any]:
    """The player's last ``limit`` rating changes in a variant, oldest first (game_id, before, rating,
    deviation, created_at)."""
    rows = connection.execute(select(CHANGES.c.game_id, CHANGES.c.before, CHANGES.c.rating, CHANGES.c.deviation,
                                     CHANGES.c.created_at)
                              .where(CHANGES.c.player_id == player_id, CHANGES.c.variant == variant)
                              .order_by(CHANGES.c.id.desc()).limit(limit)).all()
    return rows[::-1]


def club_name(name: str, email: str, player_id: int) -> str:
    """How the club shows a player to others: the name they chose, or "Player N" while they are still called
    after their address, or by a name with an address in it (the club never shows any part of an address)."""
    local = email.split("@")[0].strip().lower()
    plain = name.strip()
    return f"Player {player_id}" if not plain or plain.lower() == local or "@" in plain else name


_RATED = and_(RATINGS.c.player_id == SEEKS.c.player_id, RATINGS.c.variant == SEEKS.c.variant)
# The predicate of the partial index ix_seeks_open as written, not a bound value: PostgreSQL's generic plan of
# the prepared statement can then use that index, whatever the number of seeks ever taken.
OPEN_SEEKS = (
    select(SEEKS.c.id, SEEKS.c.variant, SEEKS.c.options, SEEKS.c.days, SEEKS.c.rated, SEEKS.c.rating_low,
           SEEKS.c.rating_high, SEEKS.c.created_at, SEEKS.c.lapses_at, SEEKS.c.player_id, PLAYERS.c.name,
           PLAYERS.c.email, RATINGS.c.rating, RATINGS.c.deviation, RATINGS.c.volatility, RATINGS.c.games)
    .select_from(SEEKS.join(PLAYERS, PLAYERS.c.id == SEEKS.c.player_id).outerjoin(RATINGS, _RATED))
    .where(text(f"seeks.status = '{OPEN}'"), SEEKS.c.lapses_at > bindparam("now"))
    .order_by(SEEKS.c.created_at, SEEKS.c.id).limit(bindparam("limit"))
)


def open_seeks(connection: Connection, now: datetime, limit: int = 100) -> list[Any]:
    """The open seeks not yet lapsed, oldest first, with the seeker's name and rating in the seek's variant
    (id, variant, options, days, rated, rating_low, rating_high, created_at, lapses_at, player_id, name,
    email, rating, deviation, volatility, games: the last four none for a player not yet rated). The email
    is for ``club_name`` alone, never to be shown."""
    return connection.execute(OPEN_SEEKS, {"now": now, "limit": limit}).all()


def seeker_rating(row: Any) -> RatingNow:
    """The seeker's rating in the seek's variant, as ``open_seeks`` read it with the seek (a new player's when
    they have none)."""
    return RatingNow(row.rating, row.deviation, row.volatility, row.games) if row.rating is not None else RatingNow()
