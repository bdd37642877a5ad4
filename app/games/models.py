"""Players, games and the event record of every game."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, Integer, String, Text, UniqueConstraint, false, text, true
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.db import Base, UTCDateTime, utcnow


class Player(Base):
    """A person, known by email address."""

    __tablename__ = "players"
    __table_args__ = (
        # The digest round reads only the players due: only players on the digest have a due time.
        Index("ix_players_digest_due_at", "digest_due_at", postgresql_where=text("digest_due_at IS NOT NULL"),
              sqlite_where=text("digest_due_at IS NOT NULL")),
        # Two players can never hold names that look alike: two confirmations at once cannot both take one.
        Index("ux_players_club_key", "club_key", unique=True),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(320), unique=True)
    name: Mapped[str] = mapped_column(String(100))
    # What the player chose to see and how, as the variants' commands set it (only what they changed)
    preferences: Mapped[dict[str, Any]] = mapped_column(default=dict, server_default="{}")
    vacation_until: Mapped[datetime | None] = mapped_column(UTCDateTime())
    vacation_year: Mapped[int] = mapped_column(Integer, default=0)
    vacation_days_used: Mapped[int] = mapped_column(Integer, default=0)
    bounces: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    # Every web key, sign-in link and session of this player issued before this time is void (app/games/access.py)
    keys_valid_after: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # The daily digest (app/games/digest/): its hour (UTC), none for a mail per event; when the next is due
    digest_hour: Mapped[int | None] = mapped_column(Integer)
    digest_due_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # Hours before a deadline the player is reminded at (none: the default, ``app.games.play.clock.reminder_leads``)
    reminders: Mapped[list[Any] | None] = mapped_column()
    # Whether anyone may see the player's page, /players/ID, once they are in the club (``profile private`` by
    # mail hides it); ``profile_chosen``: the player chose it (``profile public`` shows it even outside the club)
    profile_public: Mapped[bool] = mapped_column(default=True, server_default=true())
    profile_chosen: Mapped[bool] = mapped_column(default=False, server_default=false())
    # The name the player holds in the club, folded (``app.games.lobby.names.name_key``): unique, so that no two players
    # in the club are called alike; none for a player whose name the club does not show
    club_key: Mapped[str | None] = mapped_column(String(100))
    # When mail in the player's name was first proven (DKIM or SPF for their domain): from then on mail in their
    # name that is not proven is refused, unless they chose, signed in, to have their unsigned mail accepted
    proven_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    unsigned_ok: Mapped[bool] = mapped_column(default=False, server_default=false())


class Game(Base):
    """One game: its variant, the referee's state, and its lifecycle and clock."""

    __tablename__ = "games"
    __table_args__ = (
        # The clock reads only the games due now: running games have a next look, every other game none.
        Index("ix_games_next_clock_at", "next_clock_at", postgresql_where=text("next_clock_at IS NOT NULL"),
              sqlite_where=text("next_clock_at IS NOT NULL")),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    variant: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    days: Mapped[int] = mapped_column(Integer, default=3)
    status: Mapped[str] = mapped_column(String(20))  # invited, declined, setup, active, over
    white_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)  # a player's games: the games
    black_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)  # page, `games`, vacation
    challenger_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    white_accepted: Mapped[bool] = mapped_column(default=False)
    black_accepted: Mapped[bool] = mapped_column(default=False)
    state: Mapped[dict[str, Any]] = mapped_column(default=dict)
    ply: Mapped[int] = mapped_column(Integer, default=0)
    last_seq: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # events recorded so far
    deadline: Mapped[datetime | None] = mapped_column(UTCDateTime())
    reminded: Mapped[bool] = mapped_column(default=False)
    reminded_lead: Mapped[int | None] = mapped_column(Integer)  # hours before the deadline of the last reminder
    # When the clock must next look at the game (the reminder, then the deadline); none when it is not running.
    # The game service keeps it true (``app.games.play.clocks.next_look``, written by every flush).
    next_clock_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    commitments: Mapped[dict[str, Any]] = mapped_column(default=dict)
    # Per side, what it was told since its own last completed move: the "since your last move"
    # of its next move request, kept here so a request needs no walk through the events.
    told_since_move: Mapped[dict[str, Any]] = mapped_column(default=dict, server_default="{}")
    result: Mapped[str | None] = mapped_column(String(10))
    reason: Mapped[str | None] = mapped_column(String(40))
    public_white: Mapped[bool] = mapped_column(default=False)
    public_black: Mapped[bool] = mapped_column(default=False)
    # Its end changes both players' ratings in its variant (a seek is rated by default; a challenge if asked)
    rated: Mapped[bool] = mapped_column(default=False, server_default=false())
    # The players know each other by name only (a game from a seek): no mail or page shows either address
    names_only: Mapped[bool] = mapped_column(default=False, server_default=false())
    # What the game is part of, as every mail of it names it ("Tournament 3, round 2"): handed in by the layer
    # that created it; none for a game on its own
    event: Mapped[str | None] = mapped_column(String(60))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, onupdate=utcnow)

    white: Mapped[Player] = relationship(foreign_keys=[white_id])
    black: Mapped[Player] = relationship(foreign_keys=[black_id])

    def player(self, side: str) -> Player:
        return self.white if side == "white" else self.black

    def side_of(self, player: Player) -> str | None:
        if player.id == self.white_id:
            return "white"
        if player.id == self.black_id:
            return "black"
        return None


class Event(Base):
    """One thing that happened in a game, with what each player was told and saw.

    The single source for move requests' "since your last move", the web
    history, the JSON view and the reveal after the game.
    """

    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("game_id", "seq"),)  # also the index a game's events are found by

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    seq: Mapped[int] = mapped_column(Integer)
    by: Mapped[str | None] = mapped_column(String(5))
    order: Mapped[str] = mapped_column(Text, default="")
    result: Mapped[str] = mapped_column(String(20))
    move_number: Mapped[int] = mapped_column(Integer, default=0)
    ply: Mapped[int] = mapped_column(Integer, default=0)
    told: Mapped[dict[str, Any]] = mapped_column(default=dict)
    views: Mapped[dict[str, Any]] = mapped_column(default=dict)
    position: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
