"""Who is in the club and has a page, and what a player's page reads: their finished games and the history of
each of their ratings.

A player is in the club once they have posted or joined a seek, played a rated game or entered a tournament
(``WAYS_IN``). Only a player in the club has a page anyone may see, unless they chose ``profile public``;
``profile private`` hides it even then (``with_pages``, and ``page_for`` for one page). Nothing here names
an address: opponents are named by ``club_name``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from typing import Any

from sqlalchemy import Connection, Integer, Select, and_, bindparam, func, or_, select, union
from sqlalchemy.orm import Session

from app.club.models import CHANGES, SEEKS, TournamentEntry
from app.club.names import club_name
from app.games.models import Game, Player
from app.rules.registry import VARIANTS

GAMES_LISTED = 100  # finished games on a player's page, the latest first
GAMES = Game.__table__
PLAYED = ("active", "over")  # a game played, or being played


def seekers(ids: Collection[int]) -> Select[Any]:
    """Who among ``ids`` posted a seek."""
    return select(SEEKS.c.player_id).where(SEEKS.c.player_id.in_(ids))


def club_players(ids: Collection[int]) -> Select[Any]:
    """Who among ``ids`` played a rated game or a game from a seek (its seeker, or who joined it)."""
    club_game = or_(GAMES.c.rated, GAMES.c.id.in_(select(SEEKS.c.game_id).where(SEEKS.c.game_id.is_not(None))))
    return union(*(select(side).where(side.in_(ids), club_game, GAMES.c.status.in_(PLAYED))
                   for side in (GAMES.c.white_id, GAMES.c.black_id))).subquery().select()


def entrants(ids: Collection[int]) -> Select[Any]:
    """Who among ``ids`` entered a tournament (and is still in it, or played in it)."""
    entries = TournamentEntry.__table__
    return select(entries.c.player_id).where(entries.c.player_id.in_(ids))


# Each way into the club: the players among some ids who took it; every rule that asks who is in the club follows.
WAYS_IN: tuple[Callable[[Collection[int]], Select[Any]], ...] = (seekers, club_players, entrants)


def club_members(connection: Connection, player_ids: Iterable[int]) -> set[int]:
    """The players among ``player_ids`` who are in the club: each has taken one of the ``WAYS_IN``."""
    ids = sorted(set(player_ids))
    if not ids:
        return set()
    return set(connection.execute(union(*(way(ids) for way in WAYS_IN))).scalars())


def with_pages(connection: Connection, players: Iterable[Player]) -> set[int]:
    """The players among these whose page anyone may see: in the club, or who chose ``profile public``; never one
    who chose ``profile private``."""
    shown = [player for player in players if player.profile_public]
    members = club_members(connection, [player.id for player in shown if not player.profile_chosen])
    return {player.id for player in shown if player.profile_chosen or player.id in members}


def page_for(db_session: Session, player_id: int, me: int | None) -> tuple[Player, bool] | None:
    """The player whose page this is, and whether anyone may see it (``with_pages``), when ``me`` (the player
    signed in, if any) may: anyone may see a page shown, and a player their own. None for a page not shown and
    for an id nobody holds alike, from the one statement both send: nothing in the answer or in the work behind
    it tells them apart."""
    members = union(*(way([player_id]) for way in WAYS_IN))
    shown = and_(Player.profile_public, or_(Player.profile_chosen, Player.id.in_(members)))
    found = db_session.execute(select(Player, shown.label("shown")).where(
        Player.id == player_id, or_(shown, Player.id == bindparam("me", me, Integer)))).first()
    return (found[0], bool(found[1])) if found else None


SCORE = {"1-0": {"white": "won", "black": "lost"}, "0-1": {"white": "lost", "black": "won"}}


def rating_history(connection: Connection, player_id: int, variant: str, limit: int = 200) -> list[Any]:
    """The player's last ``limit`` rating changes in a variant, oldest first (game_id, before, rating,
    deviation, created_at)."""
    rows = connection.execute(select(CHANGES.c.game_id, CHANGES.c.before, CHANGES.c.rating, CHANGES.c.deviation,
                                     CHANGES.c.created_at)
                              .where(CHANGES.c.player_id == player_id, CHANGES.c.variant == variant)
                              .order_by(CHANGES.c.id.desc()).limit(limit)).all()
    return rows[::-1]


def rated_words(rated: bool, counted: bool) -> str:
    """How the page says whether a game was rated: a rated game that ended before each side had made two moves
    changed no rating."""
    if not rated:
        return ""
    return "rated" if counted else "rated, but too short to count"


def finished_games(db_session: Session, player: Player) -> tuple[int, list[dict[str, Any]]]:
    """How many games the player finished, and the latest GAMES_LISTED of them as the page shows them."""
    mine = or_(Game.white_id == player.id, Game.black_id == player.id)
    count = db_session.scalar(select(func.count()).select_from(Game).where(mine, Game.status == "over")) or 0
    games = db_session.scalars(select(Game).where(mine, Game.status == "over")
                               .order_by(Game.updated_at.desc(), Game.id.desc()).limit(GAMES_LISTED)).all()
    opponents = {each.id: each for each in db_session.scalars(select(Player).where(Player.id.in_(
        {game.black_id if game.white_id == player.id else game.white_id for game in games})))}
    paged = with_pages(db_session.connection(), opponents.values())
    counted = set(db_session.scalars(select(CHANGES.c.game_id).where(
        CHANGES.c.player_id == player.id, CHANGES.c.game_id.in_([game.id for game in games if game.rated]))))
    listed = []
    for game in games:
        side = "white" if game.white_id == player.id else "black"
        opponent = opponents[game.black_id if side == "white" else game.white_id]
        listed.append({
            "id": game.id, "variant": game.variant, "title": VARIANTS[game.variant].title,
            "side": side.title(), "opponent": club_name(opponent.name, opponent.email, opponent.id),
            "opponent_id": opponent.id if opponent.id in paged else None,
            "result": SCORE.get(game.result or "", {}).get(side, "drew" if game.result == "1/2-1/2" else "ended"),
            "rated": rated_words(game.rated, game.id in counted), "date": game.updated_at.strftime("%d %b %Y"),
            "public": game.public_white and game.public_black})
    return count, listed
