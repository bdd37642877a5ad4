"""The service the doors use (mail, the web, the worker, the command line): the game service with the club above
it.

The game service knows nothing of the club; here the two are put together. The commands read are the game
service's and then the club's (``BOOK``); the club's jobs stand beside the game service's, built on them (the
club creates and starts games through the game service's jobs, never writing game state itself); and the end of
every game reaches the club through the listeners handed to the turn: a rated game's players are rated, then a
tournament goes on (a Swiss's next round, the end) once the game's game-over mails are queued.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Connection

from app.club.commands import CLUB_COMMANDS
from app.club.jobs import ClubJobs
from app.club.ratings import Ratings
from app.club.seeks import Seeks
from app.club.tournaments.jobs import Tournaments
from app.config import Settings
from app.games.commands.base import CommandBook, Jobs
from app.games.commands.registry import MAIL_COMMANDS
from app.games.play.turn import Ending
from app.games.records.rows import GameRecord
from app.games.service import GameService
from app.tokens import TokenSigner

BOOK = CommandBook((*MAIL_COMMANDS, *CLUB_COMMANDS))
GAME_WORDS = BOOK.game_words  # the first words of the commands of a reply about a game
LOBBY_WORDS = BOOK.lobby_words  # and of a mail to the bare address


class Service(GameService):
    """The game service and the club's jobs, in one transaction: the entry points of mail, the web, the worker
    and the command line."""

    ratings: Ratings
    seeks: Seeks
    tournaments: Tournaments

    def __init__(self, connection: Connection, settings: Settings, signer: TokenSigner,
                 now: datetime | None = None) -> None:
        super().__init__(connection, settings, signer, now, book=BOOK, listeners=(self.rate, self.tournament_goes_on),
                         extend=self.with_club)

    def with_club(self, jobs: Jobs) -> ClubJobs:
        """The club's jobs, built on the game service's."""
        self.ratings = Ratings(jobs.work)
        self.seeks = Seeks(jobs.work, jobs.settings, jobs.invitations, jobs.turn, jobs.preferences)
        self.tournaments = Tournaments(jobs.work, jobs.settings, jobs.invitations, jobs.turn, jobs.preferences)
        return ClubJobs(**{name: getattr(jobs, name) for name in Jobs.__dataclass_fields__},
                        ratings=self.ratings, seeks=self.seeks, tournaments=self.tournaments)

    def rate(self, game: GameRecord) -> Ending:
        """A game has ended: rated, if it is rated (before its game-over mails, which tell the ratings). The locks
        go game, tournament row, ratings rows, whatever ends a game: the row is taken first when it is a
        tournament's game (``lock_row_of``)."""
        self.tournaments.lock_row_of(game)
        return self.ratings.game_ended(game)

    def tournament_goes_on(self, game: GameRecord) -> Ending:
        """A game has ended: if it is a tournament's, the tournament goes on once the game-over mails are queued
        (after the ratings: the standings mailed then are the ratings' too)."""
        return self.tournaments.game_ended(game)

    # ------------------------------------------------------------------ the worker's round of start days

    def due_tournaments(self) -> list[int]:
        return self.tournaments.due_starts()

    def start_due_tournament(self, number: int) -> int:
        """A tournament on its start day: started, or cancelled with too few (1 if acted)."""
        acted = self.tournaments.start_due(number)
        self.flush()
        return acted
