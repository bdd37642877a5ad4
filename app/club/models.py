"""The club's tables: open seeks, each player's rating in each variant, and every change of a rating.

A seek is a game offered to anyone: the first player who takes it (``join``) starts the game, and the
seek row is taken by a conditional update, so two players joining at once make one game. A rating is
one row per player and variant (Glicko-2's rating, deviation and volatility, and the games it counts);
each rated game's end writes one ``rating_changes`` row per player, the history a player's page draws.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Float, ForeignKey, Index, Integer, String, text
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, UTCDateTime, utcnow
from app.games.models import Player

OPEN = "open"  # a seek's status: open, taken (a game started from it), cancelled, lapsed


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
