"""The club's public pages: the home page (what Mirrorpost is and how to start) and each player's page.

Neither shows any address but the referee's: players are named by ``club_name``. Only a player in the club,
or who chose ``profile public``, has a page, and not one who chose ``profile private``
(``app.club.players.page_for``): for anyone but themself, such an id is answered as an unknown one is, after
the same work.
"""

from __future__ import annotations

from flask import Blueprint, abort, current_app, render_template

from app.club.names import club_name
from app.club.players import finished_games, page_for, rating_history
from app.club.ratings import ratings_of
from app.club.tournaments.rows import players_tournaments_placed
from app.present.registry import presenter_for
from app.rules.registry import DEFAULT_VARIANT, VARIANTS
from app.web.auth import signed_in_player_id
from app.web.rating_chart import rating_chart
from app.web.seeks import listed_seeks

blueprint = Blueprint("club", __name__)
HOME_SEEKS = 10  # open seeks on the home page (all of them on /seeks)


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


@blueprint.get("/players/<id:player_id>")
def player_page(player_id: int) -> str:
    me = signed_in_player_id()
    with server().db.sessions() as db_session:
        found = page_for(db_session, player_id, me)
        if found is None:
            abort(404)  # a page not shown is answered as an unknown id is, after the same statement
        player, shown = found
        connection = db_session.connection()
        name = club_name(player.name, player.email, player.id)
        ratings = []
        for variant, now in ratings_of(connection, player.id).items():
            changes = rating_history(connection, player.id, variant)
            chart = rating_chart([changes[0].before, *(change.rating for change in changes)],
                                 changes[0].created_at.strftime("%b %Y"), changes[-1].created_at.strftime("%b %Y"),
                                 f"{name}'s rating in {VARIANTS[variant].title} over {len(changes)} rated "
                                 f"game{'' if len(changes) == 1 else 's'}"
                                 ) if changes else None
            ratings.append({"title": VARIANTS[variant].title, "variant": variant, "shown": now.shown,
                            "deviation": round(now.deviation), "games": now.games, "chart": chart})
        count, games = finished_games(db_session, player)
        tournaments = players_tournaments_placed(connection, player.id)
    return render_template("web/player.html", title=name, name=name, ratings=ratings, games=games, count=count,
                           tournaments=tournaments,
                           private=not player.profile_public, shown=shown, own=me == player_id)
