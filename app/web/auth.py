"""Sign-in without passwords: a signed, short-lived, single-use link by mail.

The move requests' own history links (signed, for one game and one player) sign a
player in too, by a button on the page they open (never by the GET alone, which a
mail scanner or a browser's prefetch may make), and only while the game runs and for
``HISTORY_LINK_DAYS`` after it ends. Link requests are rate-limited per address and
per client. A session is a row on the server as well as a cookie: signing out ends the
row, so a copy of the cookie kept afterwards signs nobody in.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from flask import Blueprint, abort, current_app, g, redirect, render_template, request, session, url_for
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlalchemy import func, select, update
from werkzeug.wrappers import Response

from app.db import utcnow
from app.games.links import read_history_key
from app.games.models import Event, Game, Player
from app.games.service import GameService
from app.web.models import LoginToken, WebSession

blueprint = Blueprint("auth", __name__)
LINK_SALT = "mirrorpost.login-link"
LINK_MAX_AGE = timedelta(minutes=15)
PER_ADDRESS_PER_HOUR = 3
PER_CLIENT_PER_HOUR = 10


def server():
    return current_app.extensions["mirrorpost"]


@blueprint.app_context_processor
def session_context() -> dict[str, object]:
    """Pages ask the server whether the session is open (the cookie alone does not say)."""
    return {"signed_in_player_id": signed_in_player_id}


def serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(server().settings.secret_key, salt=LINK_SALT)


@blueprint.before_app_request
def load_session() -> None:
    """Look the session up before the request opens any transaction of its own (SQLite allows one writer)."""
    g.player_id = open_session_player(session.get("sid"))


def signed_in_player_id() -> int | None:
    """The player of this request's session, if the session is still open on the server."""
    return g.get("player_id")


def open_session_player(key: object) -> int | None:
    if not isinstance(key, str) or not key:
        return None
    since = utcnow() - current_app.permanent_session_lifetime
    with server().db.sessions() as db_session:
        return db_session.scalar(select(WebSession.player_id).where(
            WebSession.key == key, WebSession.ended_at.is_(None), WebSession.created_at >= since))


def sign_in(player_id: int) -> None:
    key = secrets.token_urlsafe(32)
    with server().db.transaction() as db_session:
        db_session.add(WebSession(key=key, player_id=player_id))
    session.clear()
    session["sid"] = key
    session.permanent = True
    g.player_id = player_id


@blueprint.get("/login")
def login_form() -> str:
    return render_template("web/login.html", title="Sign in")


@blueprint.post("/login")
def login_request() -> tuple[str, int] | str:
    email = (request.form.get("email") or "").strip().lower()
    if "@" not in email or len(email) > 320 or " " in email:
        return render_template("web/login.html", title="Sign in", error="Please enter an email address."), 400
    client = (request.remote_addr or "unknown")[:64]
    since = utcnow() - timedelta(hours=1)
    db = server().db
    with db.transaction() as db_session:
        by_client = db_session.scalar(select(func.count(LoginToken.id)).where(
            LoginToken.client == client, LoginToken.created_at >= since)) or 0
        by_address = db_session.scalar(select(func.count(LoginToken.id)).where(
            LoginToken.email == email, LoginToken.created_at >= since)) or 0
        if by_client >= PER_CLIENT_PER_HOUR or by_address >= PER_ADDRESS_PER_HOUR:
            return render_template("web/message.html", title="Too many requests", paragraphs=[
                "Too many sign-in links were asked for in the last hour. Please wait a while and try again, "
                "or use the history link in your latest move request.",
            ]), 429
        player = db_session.scalar(select(Player).where(Player.email == email))
        nonce = secrets.token_urlsafe(24)
        db_session.add(LoginToken(nonce=nonce, email=email, player_id=player.id if player else None, client=client))
        if player is not None:
            link = server().settings.base_url + url_for("auth.login_link", token=serializer().dumps(nonce))
            service = GameService(db_session.connection(), server().settings, server().signer)
            service.mailer.send_login_link(player, link, int(LINK_MAX_AGE.total_seconds() // 60))
    # The same answer whether or not the address plays here: the page reveals nobody's address.
    return render_template("web/message.html", title="Check your mail", paragraphs=[
        f"If {email} plays here, a sign-in link is on its way. It works once, for "
        f"{int(LINK_MAX_AGE.total_seconds() // 60)} minutes.",
    ])


@blueprint.get("/login/<token>")
def login_link(token: str) -> Response | tuple[str, int]:
    failure = render_template("web/message.html", title="Link not valid", paragraphs=[
        "This sign-in link has expired or has already been used. Ask for a new one.",
    ]), 400
    try:
        nonce = serializer().loads(token, max_age=int(LINK_MAX_AGE.total_seconds()))
    except SignatureExpired:
        return failure
    except BadSignature:
        abort(404)
    with server().db.transaction() as db_session:
        query = select(LoginToken).where(LoginToken.nonce == nonce).with_for_update()
        row = db_session.scalar(query)
        if row is None or row.used_at is not None or row.player_id is None:
            return failure
        row.used_at = utcnow()
        player_id = row.player_id
    sign_in(player_id)
    return redirect(url_for("pages.games"))


@blueprint.post("/logout")
def logout() -> Response:
    key = session.get("sid")
    if isinstance(key, str):
        with server().db.transaction() as db_session:
            db_session.execute(update(WebSession).where(WebSession.key == key, WebSession.ended_at.is_(None))
                               .values(ended_at=utcnow()))
    session.clear()
    return redirect(url_for("auth.login_form"))


def history_link_page(game_id: int, key: str) -> tuple[str, int] | str:
    """What a move request's history link opens: a button that signs in (``open_history``), if the key is
    one of this game's and still valid."""
    if history_key_player(game_id, key) is None:
        return render_template("web/message.html", title="Link not valid", paragraphs=[
            "This history link has expired: it works while the game runs and for a while after it ends. "
            "Sign in with a link by mail instead.",
        ]), 410
    return render_template("web/open_history.html", title=f"Game {game_id}", game_id=game_id, key=key)


@blueprint.post("/games/<int:game_id>/open")
def open_history(game_id: int) -> Response | tuple[str, int]:
    player_id = history_key_player(game_id, request.form.get("key", ""))
    if player_id is None:
        return render_template("web/message.html", title="Link not valid", paragraphs=[
            "This history link has expired. Sign in with a link by mail instead.",
        ]), 410
    sign_in(player_id)
    return redirect(url_for("pages.game_history", game_id=game_id))


def history_key_player(game_id: int, key: str) -> int | None:
    """The player a history key names, while its game runs and for ``HISTORY_LINK_DAYS`` after it ended."""
    found = read_history_key(server().settings, key)
    if found is None or found[0] != game_id:
        abort(404)
    with server().db.sessions() as db_session:
        game = db_session.get(Game, game_id)
        if game is None or found[1] not in (game.white_id, game.black_id):
            abort(404)
        if game.status in ("over", "declined"):
            ended = db_session.scalar(select(func.max(Event.created_at)).where(Event.game_id == game_id))
            ended = ended or game.updated_at
            if ended.tzinfo is None:
                ended = ended.replace(tzinfo=utcnow().tzinfo)
            if ended < utcnow() - timedelta(days=server().settings.history_link_days):
                return None
    return found[1]
