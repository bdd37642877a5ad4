"""Sign-in without passwords: a signed, short-lived, single-use link by mail.

The move requests' own history links (signed, for one game and one player)
sign a player in too. Link requests are rate-limited per address and per client.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from flask import Blueprint, abort, current_app, redirect, render_template, request, session, url_for
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlalchemy import func, select
from werkzeug.wrappers import Response

from app.db import utcnow
from app.games.models import Player
from app.games.service import GameService
from app.web.models import LoginToken

blueprint = Blueprint("auth", __name__)
LINK_SALT = "mirrorpost.login-link"
LINK_MAX_AGE = timedelta(minutes=15)
PER_ADDRESS_PER_HOUR = 3
PER_CLIENT_PER_HOUR = 10


def server():
    return current_app.extensions["mirrorpost"]


def serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(server().settings.secret_key, salt=LINK_SALT)


def signed_in_player_id() -> int | None:
    value = session.get("player_id")
    return int(value) if value is not None else None


def sign_in(player_id: int) -> None:
    session.clear()
    session["player_id"] = player_id
    session.permanent = True


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
    session.clear()
    return redirect(url_for("auth.login_form"))
