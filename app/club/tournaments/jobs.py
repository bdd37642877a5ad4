"""Tournaments run: announced, entered, started, paired round by round and ended, on the pure core
(``app.club.tournaments.core``) and through the game service's jobs, which alone create, start and end games.

Every change of a tournament's course happens under a lock on its row. An entry is checked and taken with the row
locked: one player entering twice at once (two mails, or a page sent twice) enters once and the second is told
so; two players taking the last place at once: one enters and it starts, the other is told it has started. A
start, a round paired or the end happen with the row locked too. A game's end reaches the club through the
listener handed to the turn (``game_ended``), in the transaction that ended the game: it locks the row and gives
the game-over mails their line, and the turn, once it has queued those mails, has the tournament go on
(``goes_on``): a Swiss's next round is paired there, or the end mailed, so each player hears that the game is over
before the pairings or the final standings it led to. Two workers ending the last two games of a round at once
pair it exactly once (the second waits on the lock and then finds the round paired). A withdrawal resigns the
player's unfinished games through the turn, as their own ``resign`` would.
"""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from functools import partial
from typing import Any

from sqlalchemy import bindparam, delete, func, insert, select, text, update

from app.club.models import ENTRIES, PAIRINGS, PLAYERS, TOURNAMENTS
from app.club.ratings import current_rating
from app.club.tournaments.core import (
    ROUND_ROBIN,
    Pairing,
    PairingImpossible,
    SwissHistory,
    Terms,
    TermsError,
    pair_next_round,
    ranked,
    read_terms,
    round_robin_pairings,
)
from app.club.tournaments.rows import (
    CANCELLED,
    FINISHED,
    GAMES,
    OPEN,
    RUNNING,
    Whole,
    terms_of,
    title,
    tournament_row,
    whole,
)
from app.club.tournaments.words import TournamentMail, pairing_lines, standings_table
from app.config import Settings
from app.games.errors import ServiceError
from app.games.lobby.challenges import challenge_words, written
from app.games.lobby.invitations import Invitations
from app.games.lobby.preferences import Preferences
from app.games.play.turn import Ending, Turn
from app.games.records.rows import GameRecord, PlayerRecord
from app.games.records.work import UnitOfWork
from app.rules.base import SIDES

DUE_BATCH = 50  # tournaments whose start day has come, taken up in one round of the worker
# The open tournaments whose start day has come. The predicate of the partial index ix_tournaments_starts_at is
# written as such, not as a bound value: PostgreSQL's generic plan of the prepared statement can then use that
# index, whatever the number of tournaments ever finished.
DUE_STARTS = (select(TOURNAMENTS.c.id).where(text("tournaments.status = 'open'"),
                                             TOURNAMENTS.c.starts_at <= bindparam("now"))
              .order_by(TOURNAMENTS.c.starts_at).limit(bindparam("limit")))
UNFINISHED = ("invited", "setup", "active")  # a game's statuses before its end


class Tournaments:
    """Tournaments announced, entered, started, paired and ended; their games created, started and resigned by
    the game service's jobs."""

    def __init__(self, work: UnitOfWork, settings: Settings, invitations: Invitations, turn: Turn,
                 preferences: Preferences) -> None:
        self.work = work
        self.settings = settings
        self.invitations = invitations
        self.turn = turn
        self.preferences = preferences
        self.mail = TournamentMail(work.connection, settings)

    @property
    def connection(self) -> Any:
        return self.work.connection

    # ------------------------------------------------------------------ announcing

    def read(self, text: str) -> Terms:
        """An announcement's terms, read and checked (ServiceError saying what is wrong)."""
        try:
            return read_terms(challenge_words(text), today=self.work.now.date())
        except TermsError as error:
            raise ServiceError(str(error)) from None

    def announced_today(self, organiser: PlayerRecord) -> int:
        return self.connection.execute(select(func.count()).select_from(TOURNAMENTS).where(
            TOURNAMENTS.c.organiser_id == organiser.id,
            TOURNAMENTS.c.created_at >= self.work.now - timedelta(days=1))).scalar_one()

    def check_announce(self, organiser: PlayerRecord, text: str) -> Terms:
        """The terms, within the organiser's daily allowance (the same as a challenger's)."""
        terms = self.read(text)
        limit = self.settings.challenges_per_day
        if self.announced_today(organiser) >= limit:
            raise ServiceError(f"you have announced {limit} tournaments in the last 24 hours, the most the referee "
                               "takes; try again tomorrow")
        return terms

    def announce(self, organiser: PlayerRecord | None, terms: Terms) -> int:
        """A new tournament; its organiser (none: the operator) is its first entrant. Returns its number."""
        starts = datetime.combine(terms.starts, time(0), UTC) if terms.starts else None
        number = self.connection.execute(insert(TOURNAMENTS).returning(TOURNAMENTS.c.id), {
            "organiser_id": organiser.id if organiser else None, "variant": terms.variant, "options": terms.options,
            "days": terms.days, "format": terms.format, "players": terms.players, "rounds": terms.rounds,
            "rated": terms.rated, "starts_at": starts, "status": OPEN, "entrants": 0, "round": 0,
            "created_at": self.work.now}).scalar_one()
        if organiser is not None:
            self.enter(organiser, number, announced=True)
        return number

    # ------------------------------------------------------------------ entering and withdrawing

    def check_enter(self, player: PlayerRecord, number: int, lock: bool = False) -> Any:
        """Raise ServiceError unless the player may enter tournament ``number`` now (``lock``: its row locked for
        the rest of the transaction, as the entry itself checks it)."""
        row = self.existing(number, lock)
        if self.entry(number, player.id) is not None:
            raise ServiceError(f"you have already entered tournament {number}")
        if row.status != OPEN:
            raise ServiceError(f"tournament {number} has {self.gone(row)}: 'tournaments' lists the open ones")
        if row.entrants >= row.players:
            raise ServiceError(f"tournament {number} is full: 'tournaments' lists the open ones")
        return row

    def enter(self, player: PlayerRecord, number: int, announced: bool = False) -> bool:
        """Take a place, checked with the tournament's row locked; it starts at once when it was the last. Returns
        whether it started."""
        self.check_enter(player, number, lock=True)
        taken = self.connection.execute(
            update(TOURNAMENTS).where(TOURNAMENTS.c.id == number)
            .values(entrants=TOURNAMENTS.c.entrants + 1)
            .returning(TOURNAMENTS.c.entrants, TOURNAMENTS.c.players)).one()
        self.preferences.enter_club(player)
        self.connection.execute(insert(ENTRIES), {"tournament_id": number, "player_id": player.id,
                                                  "entered_at": self.work.now, "withdrawn": False})
        row = self.existing(number)
        self.mail.entered(row, player, announced, full=taken.entrants == taken.players)
        if taken.entrants == taken.players:
            self.begin(row)
            return True
        return False

    def check_withdraw(self, player: PlayerRecord, number: int) -> Any:
        row = self.existing(number)
        entry = self.entry(number, player.id)
        if entry is None:
            raise ServiceError(f"you have not entered tournament {number}")
        if entry.withdrawn:
            raise ServiceError(f"you have withdrawn from tournament {number} already")
        if row.status not in (OPEN, RUNNING):
            raise ServiceError(f"tournament {number} has {self.gone(row)}")
        return row

    def withdraw(self, player: PlayerRecord, number: int) -> str:
        """Before the start, leave; after it, every unfinished game of the player in it is resigned (through the
        turn), and a Swiss pairs them no more. Says what was done. The player's games are locked before the
        tournament's row, as a game that ends locks them (its game, then the row): a withdrawal and a move ending
        one of those games at once wait for each other in turn, never both at once."""
        self.check_withdraw(player, number)
        # The player's games first, then the row, the order a game's end takes them in; then the games read again
        # under the row's lock: a round paired (or the start) while this waited for it brought new ones to resign.
        for game_id in self.unfinished_games(number, player):
            self.work.lock(game_id)
        row = tournament_row(self.connection, number, lock=True)
        games = [self.work.lock(game_id) for game_id in self.unfinished_games(number, player)]
        if row.status == OPEN:
            self.connection.execute(delete(ENTRIES).where(ENTRIES.c.tournament_id == number,
                                                          ENTRIES.c.player_id == player.id))
            self.connection.execute(update(TOURNAMENTS).where(TOURNAMENTS.c.id == number)
                                    .values(entrants=TOURNAMENTS.c.entrants - 1))
            return f"You have left {title(row)}."
        if row.status != RUNNING:
            raise ServiceError(f"tournament {number} has {self.gone(row)}")
        self.connection.execute(update(ENTRIES).where(ENTRIES.c.tournament_id == number,
                                                      ENTRIES.c.player_id == player.id)
                                .values(withdrawn=True, withdrawn_round=row.round))
        resigned = 0
        for game in games:
            side = game.side_of(player)
            if game.status in UNFINISHED and side is not None:
                self.turn.resign_for(game, side, f"{player.name} withdrew from {title(row)}.")
                resigned += 1
        self.work.flush()
        if resigned:
            return f"You have withdrawn from {title(row)}: your {resigned} unfinished game(s) in it were resigned."
        return f"You have withdrawn from {title(row)}: you will not be paired again."

    def unfinished_games(self, number: int, player: PlayerRecord) -> list[int]:
        """The player's games in the tournament not yet ended, by id (the order they are locked in)."""
        return list(self.connection.execute(
            select(PAIRINGS.c.game_id).select_from(PAIRINGS.join(GAMES, GAMES.c.id == PAIRINGS.c.game_id))
            .where(PAIRINGS.c.tournament_id == number, GAMES.c.status.in_(UNFINISHED),
                   (PAIRINGS.c.white_id == player.id) | (PAIRINGS.c.black_id == player.id))
            .order_by(PAIRINGS.c.game_id)).scalars())

    # ------------------------------------------------------------------ starting

    def check_start(self, player: PlayerRecord | None, number: int) -> Any:
        """Raise ServiceError unless ``player`` (none: the operator) may start it now."""
        row = self.existing(number)
        if player is not None and row.organiser_id != player.id:
            raise ServiceError(f"only the organiser of tournament {number} starts it")
        if row.status != OPEN:
            raise ServiceError(f"tournament {number} has {self.gone(row)}")
        fewest = terms_of(row).fewest
        if row.entrants < fewest:
            raise ServiceError(f"tournament {number} has {row.entrants} entrant(s); it starts with at least "
                               f"{fewest}")
        return row

    def start(self, player: PlayerRecord | None, number: int) -> None:
        """Start it now with whoever has entered (at least its minimum)."""
        self.check_start(player, number)
        row = tournament_row(self.connection, number, lock=True)
        if row.status != OPEN or row.entrants < terms_of(row).fewest:
            raise ServiceError(f"tournament {number} has {self.gone(row)}" if row.status != OPEN else
                               f"tournament {number} has too few entrants to start")
        self.begin(row)

    def begin(self, row: Any) -> None:
        """The start, its row locked: entrants ranked by rating then entry, the games of a round robin or the
        first round of a Swiss created and started, and everyone told."""
        entries = self.connection.execute(select(ENTRIES.c.player_id).where(ENTRIES.c.tournament_id == row.id)
                                          .order_by(ENTRIES.c.id)).scalars().all()
        ratings = {player_id: current_rating(self.connection, player_id, row.variant) for player_id in entries}
        order = ranked([(player_id, ratings[player_id].rating) for player_id in entries])
        for rank, player_id in enumerate(order, start=1):
            self.connection.execute(update(ENTRIES).where(ENTRIES.c.tournament_id == row.id,
                                                          ENTRIES.c.player_id == player_id)
                                    .values(rank=rank, rating=ratings[player_id].rating))
        terms = terms_of(row)
        self.connection.execute(update(TOURNAMENTS).where(TOURNAMENTS.c.id == row.id).values(
            status=RUNNING, started_at=self.work.now, total_rounds=terms.rounds_for(len(order))))
        if row.format == ROUND_ROBIN:
            for number, pairing in enumerate(round_robin_pairings(order), start=1):
                self.pair(row, number, pairing)
            self.connection.execute(update(TOURNAMENTS).where(TOURNAMENTS.c.id == row.id)
                                    .values(round=terms.rounds_for(len(order))))
        else:
            history = SwissHistory(tuple(order), (), terms.rounds_for(len(order)))
            self.pair(row, 1, pair_next_round(history))
            self.connection.execute(update(TOURNAMENTS).where(TOURNAMENTS.c.id == row.id).values(round=1))
        self.mail.started(self.whole(row.id))

    def due_starts(self) -> list[int]:
        """The open tournaments whose start day has come (a partial index holds the open ones alone)."""
        return list(self.connection.execute(DUE_STARTS, {"now": self.work.now, "limit": DUE_BATCH}).scalars())

    def start_due(self, number: int) -> int:
        """On its start day: started with whoever entered, or cancelled with fewer than its minimum (everyone
        told). Its row locked: a second worker finds it started and does nothing (1 if acted)."""
        row = tournament_row(self.connection, number, lock=True)
        if row is None or row.status != OPEN or row.starts_at is None or row.starts_at > self.work.now:
            return 0
        if row.entrants >= terms_of(row).fewest:
            self.begin(row)
        else:
            self.connection.execute(update(TOURNAMENTS).where(TOURNAMENTS.c.id == number)
                                    .values(status=CANCELLED, finished_at=self.work.now))
            self.mail.cancelled(self.whole(number))
        self.work.flush()
        return 1

    # ------------------------------------------------------------------ rounds and the end

    def pair(self, row: Any, number: int, pairing: Pairing) -> None:
        """One round's boards written and their games created and started, names only, as agreed by entering."""
        raw = {key: written(value) for key, value in row.options.items()}
        event = f"Tournament {row.id}, round {number}"
        for board, (white_id, black_id) in enumerate(pairing.games, start=1):
            white, black = self.player(white_id), self.player(black_id)
            game = self.invitations.create_game(row.variant, white, black, {**raw, "days": str(row.days)}, None,
                                                rated=row.rated, names_only=True, event=event)
            self.connection.execute(insert(PAIRINGS), {"tournament_id": row.id, "round": number, "board": board,
                                                       "white_id": white_id, "black_id": black_id,
                                                       "game_id": game.id})
            self.turn.start(game, f"{title(row)}, round {number}, board {board}")
        if pairing.bye is not None:
            self.connection.execute(insert(PAIRINGS), {"tournament_id": row.id, "round": number,
                                                       "board": len(pairing.games) + 1, "white_id": pairing.bye,
                                                       "black_id": None, "game_id": None})

    def game_ended(self, game: GameRecord) -> Ending:
        """A game has ended (the turn's listener): if it is a tournament's, its players' game-over mails say where
        to follow it, and once those mails are queued the tournament goes on (``goes_on``). Its row is locked
        now and stays locked to the end of the transaction."""
        found = self.pairing_of(game)
        if found is None:
            return Ending()
        row = tournament_row(self.connection, found.tournament_id, lock=True)
        lines = [f"This was round {found.round} of {title(row)}; its standings: 'standings {row.id}' by mail, or "
                 f"{self.settings.base_url}/tournaments/{row.id}"]
        return Ending(dict.fromkeys(SIDES, lines), partial(self.goes_on, row.id, found.round))

    def pairing_of(self, game: GameRecord) -> Any:
        """(tournament_id, round) of a tournament's game; None for any other game."""
        return self.connection.execute(select(PAIRINGS.c.tournament_id, PAIRINGS.c.round)
                                       .where(PAIRINGS.c.game_id == game.id)).first()

    def lock_row_of(self, game: GameRecord) -> None:
        """Lock the row of the game's tournament, if it is a tournament's: a game's end takes it before the
        players' ratings rows, as a withdrawal does (its games, the row, then the ratings of the games it
        resigns), so that the two never wait for each other at once."""
        found = self.pairing_of(game)
        if found is not None:
            tournament_row(self.connection, found.tournament_id, lock=True)

    def goes_on(self, number: int, round_number: int) -> None:
        """After the game-over mails of a game of round ``round_number`` (the turn runs it), under the row's lock:
        a Swiss's next round paired once every game of the round has ended, the end once every game has. Two
        workers ending the last two games of a round at once: the second waits on the lock, then finds the round
        paired."""
        self.work.flush()  # the game's end written: what follows reads it with the rest of the round
        row = tournament_row(self.connection, number, lock=True)
        if row.status == RUNNING and (round_number == row.round or row.format == ROUND_ROBIN) and \
                not self.unfinished(row.id, None if row.format == ROUND_ROBIN else row.round):
            self.next_round(row)

    def unfinished(self, number: int, round_number: int | None = None) -> int:
        """Games of the tournament (of one round) not yet ended."""
        query = select(func.count()).select_from(PAIRINGS.join(GAMES, GAMES.c.id == PAIRINGS.c.game_id)) \
            .where(PAIRINGS.c.tournament_id == number, GAMES.c.status.in_(UNFINISHED))
        if round_number is not None:
            query = query.where(PAIRINGS.c.round == round_number)
        return self.connection.execute(query).scalar_one()

    def next_round(self, row: Any) -> None:
        """Every game of the last round has ended: a Swiss's next round, or the end."""
        if row.format == ROUND_ROBIN or row.round >= row.total_rounds:
            self.finish(row)
            return
        tournament = self.whole(row.id)
        try:
            pairing = pair_next_round(SwissHistory(tuple(tournament.ranked), tuple(tournament.rounds()),
                                                   row.total_rounds, tournament.withdrawn()))
        except PairingImpossible:
            self.finish(row)
            return
        self.connection.execute(update(TOURNAMENTS).where(TOURNAMENTS.c.id == row.id).values(round=row.round + 1))
        self.pair(row, row.round + 1, pairing)
        self.mail.paired(self.whole(row.id), row.round + 1)

    def finish(self, row: Any) -> None:
        self.connection.execute(update(TOURNAMENTS).where(TOURNAMENTS.c.id == row.id)
                                .values(status=FINISHED, finished_at=self.work.now))
        self.mail.finished(self.whole(row.id))

    # ------------------------------------------------------------------ reading

    def whole(self, number: int) -> Whole:
        return whole(self.connection, self.existing(number))

    def existing(self, number: int, lock: bool = False) -> Any:
        row = tournament_row(self.connection, number, lock)
        if row is None:
            raise ServiceError(f"there is no tournament {number}; 'tournaments' lists them")
        return row

    def entry(self, number: int, player_id: int) -> Any:
        return self.connection.execute(select(ENTRIES.c.withdrawn).where(
            ENTRIES.c.tournament_id == number, ENTRIES.c.player_id == player_id)).first()

    def player(self, player_id: int) -> PlayerRecord:
        return self.work.player(self.connection.execute(select(PLAYERS.c.email).where(
            PLAYERS.c.id == player_id)).scalar_one())

    @staticmethod
    def gone(row: Any) -> str:
        return {RUNNING: "started", FINISHED: "finished", CANCELLED: "been cancelled"}.get(row.status, "started")

    def standings_lines(self, number: int) -> tuple[str, list[str], Any]:
        """The subject, paragraphs and table of ``standings T``."""
        tournament = self.whole(number)
        return title(tournament.row), pairing_lines(tournament, self.settings), standings_table(tournament)
