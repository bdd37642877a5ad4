"""The game service's rows as plain values: games, players and events, read and written with plain statements.

This module is where the game service reads and writes its rows. Every handled
message reads one game and its two players and writes the game, an event and the
outbox, so the statements are built once (SQLAlchemy caches their compiled form)
and the rows are plain dataclasses, without the ORM's identity map and unit of
work. Each function runs its statement when it is called, in the caller's
transaction. The ORM models stay the schema, and the web pages read through them.

A record remembers the values it was read with; ``changed`` compares against them.
As with the ORM's plain JSON columns, a JSON value is replaced, never changed in
place, when it changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, bindparam, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite

from app.db import utcnow
from app.games.models import Event, Game, Player
from app.outbound.models import OutboundMessage

GAMES = Game.__table__
PLAYERS = Player.__table__
EVENTS = Event.__table__
OUTBOX = OutboundMessage.__table__


@dataclass(eq=False)
class PlayerRecord:
    """A player as the game service sees one."""

    id: int
    email: str
    name: str
    preferences: dict[str, Any]
    vacation_until: datetime | None
    vacation_year: int
    vacation_days_used: int
    digest_hour: int | None = None  # the hour (UTC) of the player's daily digest; None: a mail per event
    digest_due_at: datetime | None = None
    reminders: list[int] | None = None  # hours before a deadline to be reminded at; None: the default
    profile_public: bool = True  # whether anyone may see the player's page (``profile private`` hides it)
    profile_chosen: bool = False  # the player chose ``profile_public`` (else their page waits for the club)
    proven_at: datetime | None = None  # when mail in their name was first proven (app/inbound/proof)
    unsigned_ok: bool = False  # they chose to have their mail accepted unproven again
    club_key: str | None = None  # the name they hold in the club, folded (unique)
    loaded: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass(eq=False)
class GameRecord:
    """One game with both players: what the service and the mailer work on while the game row is locked."""

    id: int
    variant: str
    options: dict[str, Any]
    days: int
    status: str
    white_id: int
    black_id: int
    challenger_id: int | None
    white_accepted: bool
    black_accepted: bool
    state: dict[str, Any]
    ply: int
    last_seq: int
    deadline: datetime | None
    reminded: bool
    reminded_lead: int | None  # hours before the deadline of the reminder last sent in this turn
    next_clock_at: datetime | None  # kept by the game service: when the clock next looks at the game
    commitments: dict[str, Any]
    told_since_move: dict[str, Any]
    result: str | None
    reason: str | None
    public_white: bool
    public_black: bool
    rated: bool  # its end changes both players' ratings (app/club/ratings.py)
    names_only: bool  # the players know each other by name only (a game from a seek): no address is shown
    event: str | None  # what the game is part of, as its mails name it ("Tournament 3, round 2")
    created_at: datetime
    white: PlayerRecord
    black: PlayerRecord
    loaded: dict[str, Any] = field(default_factory=dict, repr=False)

    def player(self, side: str) -> PlayerRecord:
        return self.white if side == "white" else self.black

    def side_of(self, player: PlayerRecord) -> str | None:
        if player.id == self.white_id:
            return "white"
        if player.id == self.black_id:
            return "black"
        return None


PLAYER_COLUMNS = tuple(f.name for f in fields(PlayerRecord) if f.name != "loaded")
PLAYER_CHANGEABLE = tuple(name for name in PLAYER_COLUMNS if name not in ("id", "email"))
GAME_COLUMNS = tuple(f.name for f in fields(GameRecord) if f.name not in ("white", "black", "loaded"))
GAME_FIXED = ("id", "variant", "white_id", "black_id", "challenger_id", "event", "created_at")  # set at its creation
GAME_CHANGEABLE = tuple(name for name in GAME_COLUMNS if name not in GAME_FIXED)


def changed(record: GameRecord | PlayerRecord, columns: tuple[str, ...]) -> dict[str, Any]:
    """The columns whose values differ from those the record was read with."""
    values = {}
    for name in columns:
        value = getattr(record, name)
        before = record.loaded.get(name)
        if value is not before and value != before:
            values[name] = value
    return values


def remember(record: GameRecord | PlayerRecord, columns: tuple[str, ...]) -> None:
    """What is in the database now, as far as this record knows."""
    record.loaded = {name: getattr(record, name) for name in columns}


# ------------------------------------------------------------------ statements, built once

_WHITE, _BLACK = PLAYERS.alias("white"), PLAYERS.alias("black")
_GAME_WITH_PLAYERS = (
    select(*(GAMES.c[name] for name in GAME_COLUMNS),  # read by position: the game, then each player
           *(_WHITE.c[name] for name in PLAYER_COLUMNS),
           *(_BLACK.c[name] for name in PLAYER_COLUMNS))
    .select_from(GAMES.join(_WHITE, _WHITE.c.id == GAMES.c.white_id).join(_BLACK, _BLACK.c.id == GAMES.c.black_id))
    .where(GAMES.c.id == bindparam("game_id"))
)
LOCK_GAME = _GAME_WITH_PLAYERS.with_for_update(of=GAMES)
LOCK_GAME_OR_SKIP = _GAME_WITH_PLAYERS.with_for_update(of=GAMES, skip_locked=True)
_QUOTED = OUTBOX.alias("quoted")
QUOTED_IDS = 2  # the mail a reply answers is named first: its In-Reply-To, or the last of its References
LOCK_GAME_QUOTED = (  # one row per mail named (or one row with no text): the game columns repeat
    _GAME_WITH_PLAYERS.add_columns(_QUOTED.c.body_text)
    .outerjoin(_QUOTED, (_QUOTED.c.game_id == GAMES.c.id)
               & _QUOTED.c.message_id.in_([bindparam(f"quoted_{n}") for n in range(QUOTED_IDS)]))
    .with_for_update(of=GAMES)
)
SAVE_GAME = update(GAMES).where(GAMES.c.id == bindparam("game_id")).values(
    {name: bindparam(name) for name in (*GAME_CHANGEABLE, "updated_at")})
ADD_EVENT = insert(EVENTS).inline()  # nobody reads the new event's id: no RETURNING for it
PLAYER_BY_EMAIL = select(*(PLAYERS.c[name] for name in PLAYER_COLUMNS)).where(PLAYERS.c.email == bindparam("email"))
CLOCK_BATCH = 200  # games a clock round takes up at most; the next round takes the rest
DUE_GAMES = (select(GAMES.c.id).where(GAMES.c.next_clock_at <= bindparam("now"))  # the partial index of running games
             .order_by(GAMES.c.next_clock_at).limit(bindparam("limit")))
EVENTS_OF_GAME = select(EVENTS).where(EVENTS.c.game_id == bindparam("game_id")).order_by(EVENTS.c.seq)
ADD_GAME = insert(GAMES).returning(GAMES.c.id)


def _player_from(values: Any) -> PlayerRecord:
    player = PlayerRecord(*values)
    remember(player, PLAYER_CHANGEABLE)
    return player


def _game_from(row: Any) -> GameRecord:
    games, players = len(GAME_COLUMNS), len(PLAYER_COLUMNS)
    game = GameRecord(*row[:games], white=_player_from(row[games : games + players]),
                      black=_player_from(row[games + players : games + 2 * players]))
    remember(game, GAME_CHANGEABLE)
    return game


def lock_game(connection: Connection, game_id: int, skip_locked: bool = False) -> GameRecord | None:
    """The game and its players, the game row locked until the transaction ends (None: no such game,
    or, with ``skip_locked``, another worker holds it)."""
    query = LOCK_GAME_OR_SKIP if skip_locked else LOCK_GAME
    row = connection.execute(query, {"game_id": game_id}).first()
    return None if row is None else _game_from(row)


def lock_game_quoted(connection: Connection, game_id: int,
                     message_ids: list[str]) -> tuple[GameRecord | None, list[str]]:
    """``lock_game``, and in the same statement the text part of the mail(s) of this game named first in
    ``message_ids`` (a reply's In-Reply-To and References, nearest first): what the reply quotes, read in
    the round trip that locks the game. A fixed number of names keeps one prepared statement."""
    named = [*message_ids[:QUOTED_IDS], *[None] * (QUOTED_IDS - len(message_ids[:QUOTED_IDS]))]
    values = {"game_id": game_id, **{f"quoted_{n}": name for n, name in enumerate(named)}}
    rows = connection.execute(LOCK_GAME_QUOTED, values).all()
    if not rows:
        return None, []
    return _game_from(rows[0]), [row[-1] for row in rows if row[-1] is not None]


def save_game(connection: Connection, game: GameRecord) -> None:
    """Write the game row if anything in it changed (the row is locked, so all of it is written)."""
    if not changed(game, GAME_CHANGEABLE):
        return
    values = {name: getattr(game, name) for name in GAME_CHANGEABLE}
    connection.execute(SAVE_GAME, {**values, "game_id": game.id, "updated_at": utcnow()})
    remember(game, GAME_CHANGEABLE)


def save_player(connection: Connection, player: PlayerRecord) -> None:
    """Write only the player's changed columns: the player row is not locked, and another game's
    transaction (a bounce, say) may change its other columns meanwhile."""
    values = changed(player, PLAYER_CHANGEABLE)
    if values:
        connection.execute(update(PLAYERS).where(PLAYERS.c.id == player.id).values(values))
        remember(player, PLAYER_CHANGEABLE)


def add_event(connection: Connection, values: dict[str, Any]) -> None:
    """One event of a game, written at once in the caller's transaction."""
    connection.execute(ADD_EVENT, values)


def due_games(connection: Connection, now: datetime, limit: int = CLOCK_BATCH) -> list[int]:
    """The games whose clock's next look (``next_clock_at``) has come, soonest first."""
    return list(connection.execute(DUE_GAMES, {"now": now, "limit": limit}).scalars())


def events_of(connection: Connection, game_id: int) -> list[Any]:
    """Every event of a game, in order (rows with the events table's columns)."""
    return list(connection.execute(EVENTS_OF_GAME, {"game_id": game_id}))


def add_game(connection: Connection, values: dict[str, Any], white: PlayerRecord, black: PlayerRecord) -> GameRecord:
    """A new game row; returns its record (as read back, so later changes are compared with it)."""
    now = utcnow()
    row = {"reminded": False, "reminded_lead": None, "last_seq": 0, "told_since_move": {}, "deadline": None,
           "next_clock_at": None, "result": None, "reason": None, "public_white": False, "public_black": False,
           "rated": False, "names_only": False, "event": None, **values, "created_at": now, "updated_at": now}
    game_id = connection.execute(ADD_GAME, row).scalar_one()
    game = GameRecord(**{name: row[name] for name in GAME_COLUMNS if name != "id"}, id=game_id,
                      white=white, black=black)
    remember(game, GAME_CHANGEABLE)
    return game


def player_by_email(connection: Connection, email: str) -> PlayerRecord | None:
    row = connection.execute(PLAYER_BY_EMAIL, {"email": email}).first()
    return _player_from(row) if row is not None else None


def find_or_add_player(connection: Connection, email: str, name: str) -> PlayerRecord:
    """The player with this address, added if new; two transactions adding the same address at once
    both get the one row (the unique address decides, no error)."""
    player = player_by_email(connection, email)
    if player is not None:
        return player
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    connection.execute(
        dialect.insert(PLAYERS).on_conflict_do_nothing(index_elements=["email"]),
        {"email": email, "name": name, "preferences": {}, "vacation_year": 0, "vacation_days_used": 0,
         "bounces": 0, "profile_public": True, "profile_chosen": False, "unsigned_ok": False,
         "created_at": utcnow()},
    )
    found = player_by_email(connection, email)
    assert found is not None
    return found
