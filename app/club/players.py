"""What a player's page reads: their finished games and the history of each of their ratings.

Neither names any address: opponents are named by ``club_name``.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, func, or_, select
from sqlalchemy.orm import Session

from app.club.models import CHANGES
from app.club.names import club_name
from app.games.models import Game, Player
from app.rules.registry import VARIANTS

GAMES_LISTED = 100  # finished games on a player's page, the latest first
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
    counted = set(db_session.scalars(select(CHANGES.c.game_id).where(
        CHANGES.c.player_id == player.id, CHANGES.c.game_id.in_([game.id for game in games if game.rated]))))
    listed = []
    for game in games:
        side = "white" if game.white_id == player.id else "black"
        opponent = opponents[game.black_id if side == "white" else game.white_id]
        listed.append({
            "id": game.id, "variant": game.variant, "title": VARIANTS[game.variant].title,
            "side": side.title(), "opponent": club_name(opponent.name, opponent.email, opponent.id),
            "opponent_id": opponent.id if opponent.profile_public else None,
            "result": SCORE.get(game.result or "", {}).get(side, "drew" if game.result == "1/2-1/2" else "ended"),
            "rated": rated_words(game.rated, game.id in counted), "date": game.updated_at.strftime("%d %b %Y"),
            "public": game.public_white and game.public_black})
    return count, listed
