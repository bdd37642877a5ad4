"""The club's public pages: the home page (what Mirrorpost is and how to start) and each player's page.

Neither shows any address but the referee's: players are named by ``club_name``. A player who chose
``profile private`` has no page for anyone but themself: the answer is the one an unknown id gets.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, render_template
from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from app.games.club_rows import club_name, rating_history, ratings_of
from app.games.models import Game, Player
from app.present.registry import presenter_for
from app.rules.registry import DEFAULT_VARIANT, VARIANTS
from app.web.auth import signed_in_player_id
from app.web.rating_chart import rating_chart
from app.web.seeks import listed_seeks

blueprint = Blueprint("club", __name__)
HOME_SEEKS = 10  # open seeks on the home page (all of them on /seeks)
GAMES_LISTED = 100  # finished games on a player's page, the latest first
SCORE = {"1-0": {"white": "won", "black": "lost"}, "0-1": {"white": "lost", "black": "won"}}


def server():
    return current_app.extensions["mirrorpost"]


@blueprint.get("/")
def home() -> str:
    with server().db.sessions() as db_session:
        seeks = listed_seeks(db_session.connection(), HOME_SEEKS)
    games = [{"name": name, "title": variant.title, "summary": presenter_for(name).summary()}
             for name, variant in sorted(VARIANTS.items())]
    return render_template("web/home.html", title="Chess you cannot see, refereed by email", games=games,
                           seeks=seeks, referee=server().settings.server_email, default=DEFAULT_VARIANT,
                           me=signed_in_player_id())


def finished_games(db_session: Session, player: Player) -> tuple[int, list[dict[str, Any]]]:
    """How many games the player finished, and the latest GAMES_LISTED of them as the page shows them."""
    mine = or_(Game.white_id == player.id, Game.black_id == player.id)
    count = db_session.scalar(select(func.count()).select_from(Game).where(mine, Game.status == "over")) or 0
    games = db_session.scalars(select(Game).where(mine, Game.status == "over")
                               .order_by(Game.updated_at.desc(), Game.id.desc()).limit(GAMES_LISTED)).all()
    opponents = {each.id: each for each in db_session.scalars(select(Player).where(Player.id.in_(
        {game.black_id if game.white_id == player.id else game.white_id for game in games})))}
    listed = []
    for game in games:
        side = "white" if game.white_id == player.id else "black"
        opponent = opponents[game.black_id if side == "white" else game.white_id]
        listed.append({
            "id": game.id, "variant": game.variant, "title": VARIANTS[game.variant].title,
            "side": side.title(), "opponent": club_name(opponent.name, opponent.email, opponent.id),
            "opponent_id": opponent.id if opponent.profile_public else None,
            "result": SCORE.get(game.result or "", {}).get(side, "drew" if game.result == "1/2-1/2" else "ended"),
            "rated": game.rated, "date": game.updated_at.strftime("%d %b %Y"),
            "public": game.public_white and game.public_black})
    return count, listed


@blueprint.get("/players/<id:player_id>")
def player_page(player_id: int) -> str:
    me = signed_in_player_id()
    with server().db.sessions() as db_session:
        player = db_session.get(Player, player_id)
        if player is None or (not player.profile_public and me != player.id):
            abort(404)  # a private page is answered as an unknown id is
        connection = db_session.connection()
        name = club_name(player.name, player.email, player.id)
        ratings = []
        for variant, now in ratings_of(connection, player.id).items():
            changes = rating_history(connection, player.id, variant)
            chart = rating_chart([changes[0].before, *(change.rating for change in changes)],
                                 changes[0].created_at.strftime("%b %Y"), changes[-1].created_at.strftime("%b %Y"),
                                 f"{name}'s rating in {VARIANTS[variant].title} over {len(changes)} rated games"
                                 ) if changes else None
            ratings.append({"title": VARIANTS[variant].title, "variant": variant, "shown": now.shown,
                            "deviation": round(now.deviation), "games": now.games, "chart": chart})
        count, games = finished_games(db_session, player)
    return render_template("web/player.html", title=name, name=name, ratings=ratings, games=games, count=count,
                           private=not player.profile_public, own=me == player_id)
