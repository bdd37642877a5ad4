"""What the club reads of its tournaments: the lists, one tournament whole (its entrants, its rounds with each
game's result), a player's tournaments and places, and the plain values the core works out standings from.

Every player is named by ``club_name``: the email read with a name is for that alone, never shown. Each read
is one statement on an index: a tournament's entries by (tournament, player), its pairings by (tournament,
round, board), its games by their ids; the lists by status.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, bindparam, select, text

from app.club.models import ENTRIES, PAIRINGS, PLAYERS, RATINGS, TOURNAMENTS
from app.club.names import club_name
from app.club.ratings import RatingNow
from app.club.tournaments.core import ROUND_ROBIN, Game, Round, Terms, standings
from app.club.tournaments.core.standings import StandingsLine
from app.games.models import Game as GameRow
from app.rules.registry import VARIANTS

GAMES = GameRow.__table__
RUNNING, OPEN, FINISHED, CANCELLED = "running", "open", "finished", "cancelled"
FORMAT_WORDS = {ROUND_ROBIN: "round robin", "swiss": "Swiss"}
FINISHED_LISTED = 50  # the latest finished tournaments on /tournaments


@dataclass(frozen=True)
class Entrant:
    """One entrant: their id and club name, the order of entry, their rank from the start, the rating they
    started with (or have now, while it is open), and whether they withdrew."""

    player_id: int
    name: str
    entered: int
    rank: int | None
    rating: RatingNow
    withdrawn: bool
    public: bool  # their player page may be linked


@dataclass(frozen=True)
class Board:
    """One board of one round: its players, its game (none for a bye) and where the game stands."""

    round: int
    board: int
    white: int
    black: int | None
    game_id: int | None
    status: str | None
    result: str | None
    ply: int

    @property
    def over(self) -> bool:
        return self.black is None or self.status == "over"

    def core_game(self) -> Game:
        """The game as the core reads it: its result once it has ended; decided without play (``played``) when
        its loser never moved (they withdrew, or let their first move's time run out)."""
        assert self.black is not None
        result = self.result if self.status == "over" else None
        loser_moved = {"1-0": self.ply >= 2, "0-1": self.ply >= 1}.get(result or "", True)
        return Game(self.white, self.black, result, played=loser_moved)


@dataclass(frozen=True)
class Whole:
    """One tournament whole: its row, its entrants in order of entry, every board of every round, and who
    organises it (by club name)."""

    row: Any
    entrants: list[Entrant]
    boards: list[Board]
    organiser: str = "the club"

    @property
    def ranked(self) -> list[int]:
        """The entrants best first: by rank once it has started, by entry while it is open."""
        return [entrant.player_id for entrant in sorted(self.entrants, key=lambda each: (each.rank or 0,
                                                                                          each.entered))]

    def names(self) -> dict[int, str]:
        return {entrant.player_id: entrant.name for entrant in self.entrants}

    def rounds(self) -> list[Round]:
        """Every round paired so far, as the core reads them."""
        found = []
        for number in range(1, self.row.round + 1):
            boards = [board for board in self.boards if board.round == number]
            found.append(Round(tuple(board.core_game() for board in boards if board.black is not None),
                               bye=next((board.white for board in boards if board.black is None), None)))
        return found

    def standings(self) -> list[StandingsLine]:
        return standings(self.row.format, self.ranked, self.rounds())

    def withdrawn(self) -> frozenset[int]:
        return frozenset(entrant.player_id for entrant in self.entrants if entrant.withdrawn)


def title(row: Any) -> str:
    """"Tournament 3: <the game's title>, round robin": how every mail and page names a tournament."""
    return f"Tournament {row.id}: {VARIANTS[row.variant].title}, {FORMAT_WORDS[row.format]}"


def terms_of(row: Any) -> Terms:
    """A tournament row's terms as the core reads them."""
    return Terms(variant=row.variant, format=row.format, players=row.players, rated=row.rated, days=row.days,
                 rounds=row.rounds, starts=row.starts_at.date() if row.starts_at else None, options=row.options)


ONE_TOURNAMENT = select(TOURNAMENTS).where(TOURNAMENTS.c.id == bindparam("number"))
ENTRANTS_OF = (
    select(ENTRIES.c.player_id, ENTRIES.c.id, ENTRIES.c.rank, ENTRIES.c.rating.label("started_with"),
           ENTRIES.c.withdrawn, PLAYERS.c.name, PLAYERS.c.email, PLAYERS.c.profile_public, RATINGS.c.rating,
           RATINGS.c.deviation, RATINGS.c.volatility, RATINGS.c.games)
    .select_from(ENTRIES.join(PLAYERS, PLAYERS.c.id == ENTRIES.c.player_id).outerjoin(
        RATINGS, (RATINGS.c.player_id == ENTRIES.c.player_id) & (RATINGS.c.variant == bindparam("variant"))))
    .where(ENTRIES.c.tournament_id == bindparam("number")).order_by(ENTRIES.c.id)
)
BOARDS_OF = (
    select(PAIRINGS.c.round, PAIRINGS.c.board, PAIRINGS.c.white_id, PAIRINGS.c.black_id, PAIRINGS.c.game_id,
           GAMES.c.status, GAMES.c.result, GAMES.c.ply)
    .select_from(PAIRINGS.outerjoin(GAMES, GAMES.c.id == PAIRINGS.c.game_id))
    .where(PAIRINGS.c.tournament_id == bindparam("number")).order_by(PAIRINGS.c.round, PAIRINGS.c.board)
)


def tournament_row(connection: Connection, number: int, lock: bool = False) -> Any | None:
    """The tournament's row; ``lock``: locked for the rest of the transaction (every change of its course)."""
    return connection.execute(ONE_TOURNAMENT.with_for_update() if lock else ONE_TOURNAMENT, {"number": number}).first()


def whole(connection: Connection, row: Any) -> Whole:
    """The tournament of ``row`` whole, in three statements."""
    entrants = [Entrant(each.player_id, club_name(each.name, each.email, each.player_id), each.id, each.rank,
                        rating_of(each), each.withdrawn, each.profile_public)
                for each in connection.execute(ENTRANTS_OF, {"number": row.id, "variant": row.variant})]
    boards = [Board(*each) for each in connection.execute(BOARDS_OF, {"number": row.id})]
    return Whole(row, entrants, boards, organiser_of(connection, row))


def rating_of(row: Any) -> RatingNow:
    """The rating an entrant started with (their rating now while the tournament is open)."""
    if row.started_with is not None:  # with how sure it is now (a new player's rating stays provisional)
        if row.rating is None:
            return RatingNow(row.started_with)
        return RatingNow(row.started_with, row.deviation, row.volatility, row.games)
    return RatingNow(row.rating, row.deviation, row.volatility, row.games) if row.rating is not None else RatingNow()


def _listing(statuses: tuple[str, ...]) -> Any:
    """The tournaments of these statuses (our own constants), newest first, with the organiser's name. The
    statuses are written into the statement, not bound: PostgreSQL's generic plan of the prepared statement then
    matches the predicate of ``ix_tournaments_under_way`` and reads the open and running ones alone through it,
    however many have finished (with a bound list it walks every tournament from the newest back)."""
    written = ", ".join(f"'{status}'" for status in statuses)
    return (select(TOURNAMENTS, PLAYERS.c.name.label("organiser_name"), PLAYERS.c.email.label("organiser_email"))
            .select_from(TOURNAMENTS.outerjoin(PLAYERS, PLAYERS.c.id == TOURNAMENTS.c.organiser_id))
            .where(text(f"tournaments.status IN ({written})"))
            .order_by(TOURNAMENTS.c.id.desc()).limit(bindparam("limit")))


UNDER_WAY, ENDED = (OPEN, RUNNING), (FINISHED, CANCELLED)
LISTINGS = {statuses: _listing(statuses) for statuses in (UNDER_WAY, ENDED)}


def listed(connection: Connection, statuses: tuple[str, ...], limit: int = 200) -> list[Any]:
    """The tournaments open or under way (``UNDER_WAY``), or ended (``ENDED``), newest first, each with its
    organiser's name (the email only for ``club_name``)."""
    return connection.execute(LISTINGS[statuses], {"limit": limit}).all()


def organiser(row: Any) -> str:
    """Who organises it, by club name ("the club" for the operator's)."""
    if row.organiser_id is None:
        return "the club"
    return club_name(row.organiser_name, row.organiser_email, row.organiser_id)


def organiser_of(connection: Connection, row: Any) -> str:
    """Who organises the tournament of ``row``, by club name."""
    if row.organiser_id is None:
        return "the club"
    found = connection.execute(select(PLAYERS.c.name, PLAYERS.c.email).where(PLAYERS.c.id == row.organiser_id)).one()
    return club_name(found.name, found.email, row.organiser_id)


def players_tournaments(connection: Connection, player_id: int, limit: int = 50) -> list[Any]:
    """The tournaments a player entered, newest first (the row's columns, and whether they withdrew)."""
    return connection.execute(
        select(TOURNAMENTS, ENTRIES.c.withdrawn).select_from(
            ENTRIES.join(TOURNAMENTS, TOURNAMENTS.c.id == ENTRIES.c.tournament_id))
        .where(ENTRIES.c.player_id == player_id).order_by(TOURNAMENTS.c.id.desc()).limit(limit)).all()


def players_tournaments_placed(connection: Connection, player_id: int, limit: int = 20) -> list[dict[str, Any]]:
    """A player's tournaments as their page lists them: each by title, where it stands, and their place once
    it has started (the standings worked out for each, two statements a tournament)."""
    found = []
    for row in players_tournaments(connection, player_id, limit):
        place = place_of(whole(connection, row).standings(), player_id) if row.status in (RUNNING, FINISHED) else ""
        found.append({"id": row.id, "title": title(row), "status": row.status, "place": place,
                      "withdrawn": row.withdrawn})
    return found


def place_of(standing: list[StandingsLine], player_id: int) -> str:
    """"2nd", or "=2nd" for a shared place, as a player's page shows it."""
    found = next((line for line in standing if line.player == player_id), None)
    if found is None:
        return ""
    return f"{'=' if found.shared else ''}{ordinal(found.place)}"


def ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def points(value: float) -> str:
    """Points as chess writes them: 2½, ½, 3."""
    whole_points, half = int(value), value % 1 >= 0.5
    return f"{whole_points if whole_points or not half else ''}{'½' if half else ''}"


def when(moment: datetime | None) -> str:
    return moment.strftime("%Y-%m-%d") if moment else ""
