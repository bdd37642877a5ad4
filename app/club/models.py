"""The club's tables: open seeks, each player's rating in each variant, every change of a rating, and
tournaments (their entries and pairings).

A seek is a game offered to anyone: the first player who takes it (``join``) starts the game, and the
seek row is taken by a conditional update, so two players joining at once make one game. A rating is
one row per player and variant (Glicko-2's rating, deviation and volatility, and the games it counts);
each rated game's end writes one ``rating_changes`` row per player, the history a player's page draws.
A tournament counts its entrants on its own row, so that the last place is taken by one conditional
update (two players entering at once: one enters, the other is told it is full), and every change of
its course (a start, a round paired, its end) happens under a lock on that row.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Float, ForeignKey, Index, Integer, String, UniqueConstraint, text
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


class Tournament(Base):
    """A round robin or a Swiss in one variant: its terms, and where it stands."""

    __tablename__ = "tournaments"
    __table_args__ = (
        # /tournaments and ``tournaments``: the open and running ones alone, newest first (the latest finished are
        # read from the newest back by primary key).
        Index("ix_tournaments_under_way", "id", postgresql_where=text("status IN ('open', 'running')"),
              sqlite_where=text("status IN ('open', 'running')")),
        # The worker's round of start days: only open tournaments with a start day are in this index.
        Index("ix_tournaments_starts_at", "starts_at", postgresql_where=text("status = 'open'"),
              sqlite_where=text("status = 'open'")),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    organiser_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))  # none: the operator's
    variant: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)  # the variant's options, as checked
    days: Mapped[int] = mapped_column(Integer, default=3)
    format: Mapped[str] = mapped_column(String(12))  # round-robin, swiss
    players: Mapped[int] = mapped_column(Integer)  # the most who may enter
    rounds: Mapped[int | None] = mapped_column(Integer)  # a Swiss's rounds as announced (none: the default)
    rated: Mapped[bool] = mapped_column(default=True)
    starts_at: Mapped[datetime | None] = mapped_column(UTCDateTime())  # its start day, 00:00 UTC
    status: Mapped[str] = mapped_column(String(12), default=OPEN)  # open, running, finished, cancelled
    entrants: Mapped[int] = mapped_column(Integer, default=0)  # entered and not withdrawn before the start
    total_rounds: Mapped[int | None] = mapped_column(Integer)  # set at the start
    round: Mapped[int] = mapped_column(Integer, default=0)  # the last round paired
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class TournamentEntry(Base):
    """A player's place in a tournament: the order of entry (``id``), their rank once it starts, and whether
    they withdrew (and after which round)."""

    __tablename__ = "tournament_entries"
    __table_args__ = (UniqueConstraint("tournament_id", "player_id"),)  # also the index of its entrants

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)  # a player's tournaments
    entered_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    rank: Mapped[int | None] = mapped_column(Integer)  # Berger place or Swiss starting number, from 1
    rating: Mapped[float | None] = mapped_column(Float)  # their rating in the variant at the start
    withdrawn: Mapped[bool] = mapped_column(default=False)
    withdrawn_round: Mapped[int | None] = mapped_column(Integer)  # the last round paired when they withdrew


class TournamentPairing(Base):
    """One board of one round: its game, or (no Black, no game) a Swiss's bye."""

    __tablename__ = "tournament_pairings"
    __table_args__ = (Index("ix_tournament_pairings_round", "tournament_id", "round", "board"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"))
    round: Mapped[int] = mapped_column(Integer)
    board: Mapped[int] = mapped_column(Integer)
    white_id: Mapped[int] = mapped_column(ForeignKey("players.id"))  # the bye's player, for a bye
    black_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), unique=True)  # a game's tournament


PLAYERS, SEEKS, RATINGS, CHANGES = Player.__table__, Seek.__table__, Rating.__table__, RatingChange.__table__
TOURNAMENTS, ENTRIES, PAIRINGS = Tournament.__table__, TournamentEntry.__table__, TournamentPairing.__table__
