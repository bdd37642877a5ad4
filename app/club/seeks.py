"""Open seeks: a game offered to anyone, taken by the first player who joins it.

A seek is written ``VARIANT [K=V ...] [rated|unrated] [rating LOW-HIGH]``, its options read and checked
as a challenge's are. Joining starts the game at once (both have agreed), between players who know each
other by name only: the game is ``names_only``, and a player still called after their address is given
a club name first (``club_name``), so that nothing the opponent sees holds any part of an address. The
seek is taken by one conditional update, so two players joining at once make one game.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, and_, bindparam, func, insert, select, text, update

from app.club.models import OPEN, PLAYERS, RATINGS, SEEKS
from app.club.names import club_name
from app.club.ratings import RatingNow, current_rating
from app.config import Settings
from app.games.commands.reading import quoted
from app.games.errors import ServiceError
from app.games.lobby.challenges import challenge_words, read_option, split_options, terms, unrepeated, written
from app.games.lobby.invitations import Invitations
from app.games.lobby.preferences import Preferences
from app.games.play.turn import Turn
from app.games.records.rows import GameRecord, PlayerRecord
from app.games.records.work import UnitOfWork
from app.rules.base import SIDES
from app.rules.options import RATED_WORDS
from app.rules.registry import DEFAULT_VARIANT, VARIANTS
from app.rules.variant_names import variant_named

MOST_OPEN = 5  # open seeks a player may have at once
LIFETIME = timedelta(days=14)  # a seek nobody joined lapses
LISTED = 50  # seeks listed by ``seeks`` (the rest on the web)
RANGE = re.compile(r"([0-9]{1,4})\s*-\s*([0-9]{1,4})")
HIGHEST = 4000  # the highest rating a range may name
USAGE = "write: seek <variant> [days=3] [options] [rated|unrated] [rating LOW-HIGH]"
WORD_QUOTED = 30  # characters of a word of the sender's quoted back to them
_RATED = and_(RATINGS.c.player_id == SEEKS.c.player_id, RATINGS.c.variant == SEEKS.c.variant)
# The predicate of the partial index ix_seeks_open as written, not a bound value: PostgreSQL's generic plan of
# the prepared statement can then use that index, whatever the number of seeks ever taken.
WITH_SEEKER = (
    select(SEEKS.c.id, SEEKS.c.variant, SEEKS.c.options, SEEKS.c.days, SEEKS.c.rated, SEEKS.c.rating_low,
           SEEKS.c.rating_high, SEEKS.c.created_at, SEEKS.c.lapses_at, SEEKS.c.player_id, PLAYERS.c.name,
           PLAYERS.c.email, RATINGS.c.rating, RATINGS.c.deviation, RATINGS.c.volatility, RATINGS.c.games)
    .select_from(SEEKS.join(PLAYERS, PLAYERS.c.id == SEEKS.c.player_id).outerjoin(RATINGS, _RATED))
)
OPEN_SEEKS = (WITH_SEEKER.where(text(f"seeks.status = '{OPEN}'"), SEEKS.c.lapses_at > bindparam("now"))
              .order_by(SEEKS.c.created_at, SEEKS.c.id).limit(bindparam("limit")))
NUMBERED = WITH_SEEKER.where(SEEKS.c.id == bindparam("number"))


@dataclass(frozen=True)
class SeekPlan:
    """A seek as read and checked, before it is posted."""

    variant: str
    days: int
    options: dict[str, Any]
    rated: bool
    low: int | None
    high: int | None

    def written(self) -> str:
        """The seek in the referee's own form, as a held command keeps it."""
        options = [f"{key}={written(value)}" for key, value in sorted(self.options.items())]
        rating = [f"rating {self.low}-{self.high}"] if self.low is not None else []
        return " ".join([self.variant, f"days={self.days}", *options, "rated" if self.rated else "unrated", *rating])

    def described(self) -> str:
        """The seek in words: "a rated game of <title> (3 days a move), for players rated 1400-1800"."""
        rated = "a rated" if self.rated else "an unrated"
        who = f", for players rated {self.low}-{self.high}" if self.low is not None else ""
        return f"{rated} game of {VARIANTS[self.variant].title} ({terms(self.variant, self.days, self.options)}){who}"


def read_seek(text: str) -> SeekPlan:
    """``VARIANT [K=V ...] [rated|unrated] [rating LOW-HIGH]``, checked whole; the variant by its name or its title
    however its words are spaced (``variant_named``), the range with or without the word ``rating``. Its errors
    go to an address not yet proved to be the sender's: they repeat no word of theirs but the referee's own,
    except to a sender proven (``ServiceError.quoting``)."""
    words = challenge_words(text)
    games = ", ".join(sorted(VARIANTS))
    if not words:
        raise ServiceError(f"{USAGE}; the games: {games}")
    found = variant_named(words)
    if found is None:
        raise ServiceError(f"there is no game by that name; the games: {games}",
                           quoting=f"there is no game called {quoted(words[0], WORD_QUOTED)}; the games: {games}")
    variant, named = found
    rated, low, high = True, None, None
    raw: dict[str, str] = {}
    rest = words[named:]
    said = {word.lower() for word in rest} & RATED_WORDS.keys()
    if len(said) > 1:
        raise ServiceError("write rated or unrated, not both")
    while rest:
        word, rest = rest[0], rest[1:]
        if word.lower() in RATED_WORDS:
            rated = RATED_WORDS[word.lower()]
        elif word.lower() == "rating":
            taken = rating_words(rest)
            low, high = read_range(" ".join(taken))
            rest = rest[len(taken):]
        elif RANGE.fullmatch(word) or word.isdigit():  # the range without the word rating: 1400-1800, 1400 - 1800
            taken = rating_words([word, *rest])
            low, high = read_range(" ".join(taken))
            rest = rest[len(taken) - 1:]
        elif "=" in word:
            key, value = read_option(word)
            if key in ("color", "colour", "as"):
                raise ServiceError("a seek's colours are drawn when someone takes it: leave out color=")
            raw[key] = value
        else:
            raise ServiceError(f"a word of the seek is not an option; {USAGE}",
                               quoting=f"{quoted(word, WORD_QUOTED)} is not an option of a seek; {USAGE}")
    try:
        days, options = split_options(variant, raw)
    except ServiceError as error:
        told = unrepeated(str(error), raw, variant)
        raise ServiceError(told or f"an option is not one {VARIANTS[variant].title} takes, or its value is not "
                           "allowed") from None
    if low is not None and not rated:
        raise ServiceError("a rating range is for rated seeks only")
    return SeekPlan(variant, days, options, rated, low, high)


def rating_words(words: list[str]) -> list[str]:
    """The words after ``rating`` that make its range: ``1400-1800`` or ``1400 - 1800``."""
    return words[:3] if len(words) >= 3 and words[1] == "-" else words[:1]


def read_range(text: str) -> tuple[int, int]:
    match = RANGE.fullmatch(text.strip())
    if not match or not all(0 <= int(end) <= HIGHEST for end in match.groups()):
        raise ServiceError(f"write the rating range as two whole numbers from 0 to {HIGHEST}, low first: "
                           "rating 1400-1800")
    low, high = int(match.group(1)), int(match.group(2))
    if low > high:
        raise ServiceError("the rating range's low end comes first and is not above the high end: rating 1400-1800")
    return low, high


class Seeks:
    """Seeks posted, listed, joined and withdrawn; their games created and started by the game service's jobs."""

    def __init__(self, work: UnitOfWork, settings: Settings, invitations: Invitations, turn: Turn,
                 preferences: Preferences) -> None:
        self.work = work
        self.settings = settings
        self.invitations = invitations
        self.turn = turn
        self.preferences = preferences

    def open_count(self, player: PlayerRecord) -> int:
        return self.work.connection.execute(select(func.count()).select_from(SEEKS).where(
            SEEKS.c.player_id == player.id, SEEKS.c.status == OPEN, SEEKS.c.lapses_at > self.work.now)).scalar_one()

    def check_post(self, player: PlayerRecord, text: str) -> SeekPlan:
        """A seek read and checked, and within the player's open seeks."""
        plan = read_seek(text)
        if self.open_count(player) >= MOST_OPEN:
            raise ServiceError(f"you have {MOST_OPEN} open seeks, the most at once; cancel one first "
                               "('cancel seek N')")
        return plan

    def post(self, player: PlayerRecord, text: str) -> int:
        """Post the seek; returns its number."""
        plan = self.check_post(player, text)
        self.enter_club(player)
        now = self.work.now
        return self.work.connection.execute(insert(SEEKS).returning(SEEKS.c.id), {
            "player_id": player.id, "variant": plan.variant, "options": plan.options, "days": plan.days,
            "rated": plan.rated, "rating_low": plan.low, "rating_high": plan.high, "status": OPEN,
            "created_at": now, "lapses_at": now + LIFETIME}).scalar_one()

    def enter_club(self, player: PlayerRecord) -> None:
        """The player enters the club, holding a name nobody else holds (``Preferences.enter_club``)."""
        self.preferences.enter_club(player)

    def listing(self, limit: int = LISTED) -> list[str]:
        """The open seeks, a line each: number, game and terms, rated or not, the seeker's name and rating."""
        rows = open_seeks(self.work.connection, self.work.now, limit + 1)
        if not rows:
            return [f"There are no open seeks. Post one: seek <variant>, e.g. 'seek {DEFAULT_VARIANT}'."]
        more = [f"... and more on the web: {self.settings.base_url}/seeks"] if len(rows) > limit \
            else []
        return [*(seek_line(row) for row in rows[:limit]), *more]

    def check_join(self, player: PlayerRecord, number: int) -> Any:
        """The seek ``number``, if this player may join it now (raises ServiceError saying why not)."""
        row = self.work.connection.execute(select(SEEKS).where(SEEKS.c.id == number)).first()
        if row is None:
            raise ServiceError(f"there is no seek {number}; 'seeks' lists the open ones")
        own = row.player_id == player.id
        if row.status != OPEN or row.lapses_at <= self.work.now:
            raise ServiceError(gone(row, own, self.work.now))
        if own:
            raise ServiceError(f"seek {number} is your own; to withdraw it: cancel seek {number}")
        if row.rating_low is not None:
            mine = current_rating(self.work.connection, player.id, row.variant)
            if not row.rating_low <= round(mine.rating) <= row.rating_high:
                raise ServiceError(f"seek {number} is for players rated {row.rating_low}-{row.rating_high} in "
                                   f"{VARIANTS[row.variant].title}; your rating there is {mine.shown}")
        return row

    def join(self, player: PlayerRecord, number: int) -> GameRecord:
        """Take the seek and start its game at once; a seek taken meanwhile by another is refused."""
        row = self.check_join(player, number)
        taken = self.work.connection.execute(update(SEEKS).where(
            SEEKS.c.id == number, SEEKS.c.status == OPEN, SEEKS.c.lapses_at > self.work.now).values(
            status="taken")).rowcount
        if taken != 1:
            raise ServiceError(f"seek {number} was taken: 'seeks' lists the open ones")
        seeker = self.work.player(self.work.connection.execute(
            select(PLAYERS.c.email).where(PLAYERS.c.id == row.player_id)).scalar_one())
        self.enter_club(player)
        self.enter_club(seeker)
        white, black = (seeker, player) if random.SystemRandom().choice(SIDES) == "white" else (player, seeker)
        raw = {key: written(value) for key, value in row.options.items()}
        game = self.invitations.create_game(row.variant, white, black, {**raw, "days": str(row.days)},
                                                   None, rated=row.rated, names_only=True)
        self.work.connection.execute(update(SEEKS).where(SEEKS.c.id == number).values(game_id=game.id))
        self.turn.start(game, f"{player.name} joined seek {number} of {seeker.name}")
        self.work.flush()
        return game

    def offered(self, number: int) -> str | None:
        """Seek ``number`` in words, with its seeker's club name and rating: what joining it starts."""
        row = self.work.connection.execute(NUMBERED, {"number": number}).first()
        if row is None:
            return None
        plan = SeekPlan(row.variant, row.days, row.options, row.rated, row.rating_low, row.rating_high)
        return (f"{plan.described()}, posted by {club_name(row.name, row.email, row.player_id)} "
                f"({seeker_rating(row).shown})")

    def check_cancel(self, player: PlayerRecord, number: int) -> None:
        """Raise ServiceError unless seek ``number`` is this player's and open."""
        row = self.work.connection.execute(select(SEEKS.c.player_id, SEEKS.c.status).where(
            SEEKS.c.id == number)).first()
        if row is None or row.player_id != player.id:
            raise ServiceError(f"you have no seek {number}; 'seeks' lists the open ones")
        if row.status != OPEN:
            raise ServiceError(f"seek {number} is no longer open")

    def cancel(self, player: PlayerRecord, number: int) -> None:
        """Withdraw one's own open seek."""
        self.check_cancel(player, number)
        done = self.work.connection.execute(update(SEEKS).where(SEEKS.c.id == number, SEEKS.c.status == OPEN)
                                            .values(status="cancelled")).rowcount
        if done != 1:
            raise ServiceError(f"seek {number} is no longer open")


def gone(row: Any, own: bool, now: datetime) -> str:
    """Why a seek can no longer be joined: taken (one's own: by whom is in its game's first mail), withdrawn or
    lapsed."""
    status = "lapsed" if row.status == OPEN and row.lapses_at <= now else row.status
    said = {"taken": "was taken", "cancelled": "was withdrawn", "lapsed": "has lapsed"}.get(status, f"is {status}")
    if own:
        game = f" (its game is game {row.game_id})" if status == "taken" and row.game_id else ""
        return f"your seek {row.id} {said}{game}: 'seeks' lists the open ones"
    return f"seek {row.id} {said}: 'seeks' lists the open ones"


def seek_line(row: Any) -> str:
    """One open seek in words, with the seeker's club name and rating (never an address)."""
    rating = seeker_rating(row).shown
    rated = "rated" if row.rated else "unrated"
    who = f", for players rated {row.rating_low}-{row.rating_high}" if row.rating_low is not None else ""
    return (f"Seek {row.id}: {VARIANTS[row.variant].title}, {terms(row.variant, row.days, row.options)}, {rated}"
            f"{who}; {club_name(row.name, row.email, row.player_id)} ({rating}).")


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
