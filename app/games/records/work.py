"""The unit of work of one transaction: the games it locked, their players, each game's state decoded once.

Every job of the game service (lobby, turn, clocks) works on the records handed out here. A game's
row is locked once and its state decoded from JSON once (``state``); the jobs change the decoded
state in place and say so (``touched``), and ``flush`` writes it back once, with every other
change made to the records, in the caller's transaction. It also knows whose message the transaction
answers (``actor_id``): that player is told at once, even on the daily digest.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, select
from sqlalchemy.exc import IntegrityError

from app.games.errors import ServiceError
from app.games.models import Game
from app.games.records import rows
from app.games.records.rows import GameRecord, PlayerRecord
from app.outbound.headers import clean_name
from app.rules.base import Side, Variant
from app.rules.registry import get_variant

NextLook = Callable[[GameRecord, Side | None], datetime | None]


def display_name(name: str, email: str) -> str:
    """How a player is called: the name given (cleaned for headers, bounded), else their address's local
    part, with a capital first letter ("bob@example.org" -> "Bob")."""
    chosen = clean_name(name) or clean_name(email.split("@")[0])
    return chosen[:1].upper() + chosen[1:]


class UnitOfWork:
    """One record per game row and per player in a transaction, and each game's state decoded once."""

    def __init__(self, connection: Connection, now: datetime, next_look: NextLook) -> None:
        self.connection = connection
        self.now = now
        self.next_look = next_look  # when the clock next looks at a game, kept in ``next_clock_at`` by ``flush``
        self.actor_id: int | None = None  # the player whose mail or page is being answered (told at once)
        self.games: list[GameRecord] = []  # every record handed out, written back by ``flush``
        self.players: list[PlayerRecord] = []
        self.states: dict[int, Any] = {}  # game id -> its state, decoded
        self.touched: set[int] = set()  # games whose decoded state changed since it was last written

    # ------------------------------------------------------------------ players

    def player(self, email: str, name: str | None = None) -> PlayerRecord:
        email = email.strip().lower()
        for known in self.players:
            if known.email == email:
                return known
        player = rows.find_or_add_player(self.connection, email, display_name(name or "", email))
        return self.known_player(player)

    def save_now(self, player: PlayerRecord, **values: Any) -> bool:
        """Give the player these values and write them now, in a savepoint of their own: False, with the values
        as they were, when the database refuses them (a unique club name another transaction took meanwhile),
        and the rest of the transaction goes on."""
        before = {name: getattr(player, name) for name in values}
        for name, value in values.items():
            setattr(player, name, value)
        try:
            with self.connection.begin_nested():
                rows.save_player(self.connection, player)
        except IntegrityError:
            for name, value in before.items():
                setattr(player, name, value)
            return False
        return True

    def known_player(self, player: PlayerRecord) -> PlayerRecord:
        """One record per player in this transaction, so changes made through either are both written."""
        for known in self.players:
            if known.id == player.id:
                return known
        self.players.append(player)
        return player

    # ------------------------------------------------------------------ games

    def lock(self, game_id: int) -> GameRecord:
        """The game, its row locked for the rest of the transaction (waiting for another holder)."""
        game = self.held(game_id) or rows.lock_game(self.connection, game_id)
        if game is None:
            raise ServiceError(f"there is no game {game_id}")
        return self.known_game(game)

    def try_lock(self, game_id: int) -> GameRecord | None:
        """``lock``, or None when another worker holds the game now (PostgreSQL's SKIP LOCKED)."""
        game = self.held(game_id) or rows.lock_game(self.connection, game_id, skip_locked=True)
        return None if game is None else self.known_game(game)

    def lock_quoting(self, game_id: int, message_ids: list[str]) -> tuple[GameRecord, list[str]]:
        """``lock``, with the text parts of this game's mails that have these Message-IDs (what a reply
        quotes), read in the same round trip."""
        game, texts = rows.lock_game_quoted(self.connection, game_id, message_ids)
        if game is None:
            raise ServiceError(f"there is no game {game_id}")
        return self.known_game(self.held(game_id) or game), texts

    def running_games(self, player: PlayerRecord) -> list[GameRecord]:
        """The player's running games, each locked (in id order, so two transactions never wait on each other)."""
        ids = self.connection.execute(
            select(Game.id).where((Game.white_id == player.id) | (Game.black_id == player.id), Game.status == "active")
            .order_by(Game.id)
        ).scalars().all()
        return [self.lock(game_id) for game_id in ids]

    def held(self, game_id: int) -> GameRecord | None:
        """The record of a game this unit already holds: one record per game row."""
        return next((game for game in self.games if game.id == game_id), None)

    def known_game(self, game: GameRecord) -> GameRecord:
        if game not in self.games:
            game.white, game.black = self.known_player(game.white), self.known_player(game.black)
            self.games.append(game)
        return game

    def new_game(self, values: dict[str, Any], state: Any, white: PlayerRecord, black: PlayerRecord) -> GameRecord:
        """A new game row with this state (kept decoded too)."""
        variant = get_variant(values["variant"])
        game = self.known_game(rows.add_game(self.connection, {**values, "state": variant.to_json(state)},
                                                white, black))
        self.states[game.id] = state
        return game

    # ------------------------------------------------------------------ state

    def variant(self, game: GameRecord) -> Variant:
        return get_variant(game.variant)

    def state(self, game: GameRecord) -> Any:
        """The game's state, decoded from its JSON the first time it is asked for in this transaction."""
        if game.id not in self.states:
            self.states[game.id] = self.variant(game).from_json(game.state)
        return self.states[game.id]

    def orderer(self, game: GameRecord) -> Side | None:
        """Who is to send the next move order (None in setup or after the end)."""
        return self.variant(game).orderer(self.state(game))

    def touch(self, game: GameRecord) -> None:
        """The decoded state of the game changed: ``flush`` writes it."""
        self.touched.add(game.id)

    # ------------------------------------------------------------------ writing

    def flush(self) -> None:
        """Write every change made to the records handed out, each changed state encoded once (cheap when there
        is none), and each game's ``next_clock_at``."""
        for game in self.games:
            if game.id in self.touched:
                game.state = self.variant(game).to_json(self.states[game.id])
            running = game.status == "active" and game.deadline is not None
            game.next_clock_at = self.next_look(game, self.orderer(game) if running else None)
            rows.save_game(self.connection, game)
        self.touched.clear()
        for player in self.players:
            rows.save_player(self.connection, player)
