"""The open seeks on the web: listed for anyone; posted, joined and withdrawn by a signed-in player.

Every change goes through the game service (``Seeks``), exactly as ``seek``, ``join N`` and ``cancel seek N``
by mail do: a signed-in player has proved their address, so nothing waits for a confirmation here.
"""

from __future__ import annotations

from flask import Blueprint, current_app, render_template, request, url_for
from werkzeug.wrappers import Response

from app.club.names import club_name
from app.club.seeks import HIGHEST, open_seeks, seeker_rating
from app.db import utcnow
from app.games.lobby.challenges import terms
from app.rules.options import MOST_DAYS
from app.rules.registry import DEFAULT_VARIANT, VARIANTS
from app.service import Service
from app.web.acting import as_player
from app.web.auth import signed_in_player_id
from app.web.numbers import number_from

blueprint = Blueprint("seeks", __name__)
LISTED = 100  # seeks on the page (five at most a player, lapsing in two weeks)


def server():
    return current_app.extensions["mirrorpost"]


def listed_seeks(connection, limit: int = LISTED) -> list[dict]:
    """The open seeks as the pages show them: nothing of any address."""
    return [{"id": row.id, "variant": row.variant, "title": VARIANTS[row.variant].title,
             "terms": terms(row.variant, row.days, row.options), "rated": row.rated,
             "range": f"{row.rating_low}-{row.rating_high}" if row.rating_low is not None else "",
             "player_id": row.player_id, "name": club_name(row.name, row.email, row.player_id),
             "rating": seeker_rating(row).shown,
             "lapses": row.lapses_at.strftime("%d %b %Y")}
            for row in open_seeks(connection, utcnow(), limit)]


@blueprint.get("/seeks")
def index() -> str:
    with server().db.sessions() as db_session:
        seeks = listed_seeks(db_session.connection())
    return render_template("web/seeks.html", title="Open seeks", seeks=seeks, me=signed_in_player_id(),
                           variants=sorted(VARIANTS.items()), default=DEFAULT_VARIANT,
                           referee=server().settings.server_email)


def seek_words(form) -> str:
    """The web form written as the mail command's argument, to be read by the same reader; its numbers read
    first (``number_from``: a 400 page for one that is not a number)."""
    back = url_for("seeks.index")
    variant = (form.get("variant") or "").strip()[:40]
    days = number_from(form.get("days") or "3", "Days a move", 1, MOST_DAYS, back)
    words = [variant, f"days={days}", "rated" if form.get("rated") else "unrated"]
    low, high = form.get("low") or "", form.get("high") or ""
    if low or high:
        words.append(f"rating {number_from(low, 'Lowest rating', 0, HIGHEST, back)}-"
                     f"{number_from(high, 'Highest rating', 0, HIGHEST, back)}")
    return " ".join(words)


@blueprint.post("/seeks")
def post() -> Response:
    words = seek_words(request.form)

    def act(service: Service, player) -> str:
        number = service.seeks.post(player, words)
        return f"Your seek {number} is open. The first player who joins it starts the game."
    return as_player(act, url_for("seeks.index"))


def read_id(number: str) -> int:
    return number_from(number, "Seek number", 1, 2**31 - 1, url_for("seeks.index"))


@blueprint.post("/seeks/<number>/join")
def join(number: str) -> Response:
    seek = read_id(number)

    def act(service: Service, player) -> str:
        game = service.seeks.join(player, seek)
        return f"You joined seek {number}: game {game.id} has started. Its first mail is on its way."
    return as_player(act, url_for("seeks.index"))


@blueprint.post("/seeks/<number>/cancel")
def cancel(number: str) -> Response:
    seek = read_id(number)

    def act(service: Service, player) -> str:
        service.seeks.cancel(player, seek)
        return f"Your seek {number} is withdrawn."
    return as_player(act, url_for("seeks.index"))
