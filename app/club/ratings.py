"""The club's ratings: each rated game's end is one Glicko-2 rating period for its two players.

A listener to the end of games (``Ratings.game_ended``), handed to the turn where the service is put
together (``app.service``): ``Turn.finish``, which every end of a game goes through (a move that ends it, a
resignation, a draw agreed or automatic, a loss on time), calls it before the game-over mails are written,
so that they can tell each player their new rating (``rating_lines``). A game that ended before each side had
made two moves changes no rating. Several workers may end two games of one player at once: both players' rating rows
are locked in player-id order (a missing row inserted first, the conflict of a concurrent insert
ignored), so the second game is rated from the rating the first left, and neither waits on the other
for ever.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import Connection, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite

from app.club.glicko2 import Glicko, rate_game
from app.club.models import CHANGES, RATINGS
from app.games.models import Event
from app.games.play.turn import Ending
from app.games.records.rows import GameRecord
from app.games.records.work import UnitOfWork
from app.rules.base import SIDES, other
from app.rules.registry import get_variant

SCORES = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}  # White's score in each result that is rated
MOVES_TO_COUNT = 2  # each side's completed moves before a game's end changes a rating (the club's rule)
EVENTS = Event.__table__
START_RATING, START_DEVIATION, START_VOLATILITY = 1500.0, 350.0, 0.06  # a new player's (Glicko-2)
PROVISIONAL_DEVIATION = 110.0  # a rating less sure than this is shown with a "?"


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


@dataclass(frozen=True)
class RatedEnd:
    """What a rated game's end did to its players' ratings in its variant, by side: empty when it ended before
    each side had moved twice (it counted for nothing)."""

    before: dict[str, RatingNow] = field(default_factory=dict)
    after: dict[str, RatingNow] = field(default_factory=dict)

    @property
    def counted(self) -> bool:
        return bool(self.after)


def lock_rating(connection: Connection, player_id: int, variant: str, now: datetime) -> RatingNow:
    """The player's rating in the variant, its row locked for the rest of the transaction; a player with none
    gets the start values (inserted, or left as a concurrent transaction inserted them)."""
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    connection.execute(dialect.insert(RATINGS).on_conflict_do_nothing(index_elements=["player_id", "variant"]), {
        "player_id": player_id, "variant": variant, "rating": START_RATING, "deviation": START_DEVIATION,
        "volatility": START_VOLATILITY, "games": 0, "updated_at": now})
    row = connection.execute(select(RATINGS.c.rating, RATINGS.c.deviation, RATINGS.c.volatility, RATINGS.c.games)
                             .where(RATINGS.c.player_id == player_id, RATINGS.c.variant == variant)
                             .with_for_update()).one()
    return RatingNow(*row)


def change_words(before: RatingNow, after: RatingNow) -> str:
    """"1500? -> 1662? (+162)": the change as the ratings are shown, rounded."""
    return f"{before.shown} -> {after.shown} ({round(after.rating) - round(before.rating):+d})"


def rating_lines(game: GameRecord, side: str, rated: RatedEnd | None) -> list[str]:
    """What a rated game's end did to the player's rating in its variant, and to their opponent's (nothing for
    an unrated game): the lines of their game-over mail."""
    if rated is None:
        return []
    if not rated.counted:
        return ["This game was rated, but it ended before each side had made two moves, so it changes no "
                "rating."]
    title, opponent = get_variant(game.variant).title, other(side)
    lines = [f"Your rating in {title}: {change_words(rated.before[side], rated.after[side])}",
             f"{game.player(opponent).name}'s rating in {title}: "
             f"{change_words(rated.before[opponent], rated.after[opponent])}"]
    if any(rating.provisional for rating in (*rated.before.values(), *rated.after.values())):
        lines.append(f"A ? marks a provisional rating: still unsure (its deviation is over "
                     f"{PROVISIONAL_DEVIATION:.0f}), it moves a long way with each game.")
    return lines


class Ratings:
    """Ratings changed at the end of rated games."""

    def __init__(self, work: UnitOfWork) -> None:
        self.work = work

    def game_ended(self, game: GameRecord) -> Ending:
        """A game has just ended: rated now, if it is rated; what each side's game-over mail says of it (and
        nothing to follow those mails)."""
        rated = self.rate(game)
        return Ending({side: rating_lines(game, side, rated) for side in SIDES})

    def rate(self, game: GameRecord) -> RatedEnd | None:
        """Rate a game that has just ended (its result set): None for an unrated game, an empty ``RatedEnd`` for
        a rated one that ended too soon (or without a winner or a draw), else both players' ratings before and
        after."""
        if not game.rated:
            return None
        score = SCORES.get(game.result or "")
        if score is None or min(self.moves_made(game).values()) < MOVES_TO_COUNT:
            return RatedEnd()
        connection, now = self.work.connection, self.work.now
        ids = {side: game.player(side).id for side in SIDES}
        locked = {player_id: lock_rating(connection, player_id, game.variant, now)
                  for player_id in sorted(ids.values())}  # in player-id order: no two games wait on each other
        before = {side: locked[ids[side]] for side in SIDES}
        white, black = rate_game(glicko(before["white"]), glicko(before["black"]), score)
        after = {side: RatingNow(new.rating, new.deviation, new.volatility, before[side].games + 1)
                 for side, new in (("white", white), ("black", black))}
        for side in SIDES:
            new = after[side]
            connection.execute(update(RATINGS).where(RATINGS.c.player_id == ids[side],
                                                     RATINGS.c.variant == game.variant)
                               .values(rating=new.rating, deviation=new.deviation, volatility=new.volatility,
                                       games=new.games, updated_at=now))
            connection.execute(insert(CHANGES).values(
                player_id=ids[side], variant=game.variant, game_id=game.id, before=before[side].rating,
                rating=new.rating, deviation=new.deviation, created_at=now))
        return RatedEnd(before, after)

    def moves_made(self, game: GameRecord) -> dict[str, int]:
        """Each side's completed moves in the game, from its event record (the variant says which results
        complete a turn)."""
        variant = self.work.variant(game)
        made = dict.fromkeys(SIDES, 0)
        rows = self.work.connection.execute(select(EVENTS.c.by, EVENTS.c.result).where(EVENTS.c.game_id == game.id))
        for by, result in rows:
            if by in made and variant.completes_turn(result):
                made[by] += 1
        return made


def glicko(rating: RatingNow) -> Glicko:
    return Glicko(rating.rating, rating.deviation, rating.volatility)
