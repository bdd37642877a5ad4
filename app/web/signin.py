"""Sign-in without passwords: a signed, short-lived, single-use link by mail, used by a button.

The link's GET only shows a page with a button (mail scanners and browsers' prefetching open links before
the person does, and must not use it up nor be signed in); the button's POST, with its CSRF token, signs
in. The pages whose address carries the link send no Referer (app/web/headers.py), so that POST is
checked against its CSRF token alone (Flask-WTF would also want a Referer over HTTPS). The page names
the account the link signs into (its name and its address masked): someone sent another player's link,
an attacker's own to have them play in the attacker's account, sees it is not theirs before pressing.
"""

from __future__ import annotations

from flask import Blueprint, Flask, abort, redirect, render_template, request, url_for
from flask_wtf.csrf import CSRFError, validate_csrf
from itsdangerous import BadSignature, SignatureExpired
from sqlalchemy import select, update
from werkzeug.wrappers import Response
from wtforms import ValidationError

from app.db import utcnow
from app.games.access import issued_in_force, keys_valid_after
from app.games.models import Player
from app.web.auth import server, sign_in
from app.web.models import LoginToken
from app.web.signin_links import LINK_MAX_AGE, LINK_MINUTES, ask_for_link, link_serializer, queue_link_mail

blueprint = Blueprint("signin", __name__)

Page = str | tuple[str, int]


@blueprint.get("/login")
def login_form() -> str:
    return render_template("web/login.html", title="Sign in")


@blueprint.post("/login")
def login_request() -> Page:
    email = (request.form.get("email") or "").strip().lower()
    if "@" not in email or len(email) > 320 or " " in email:
        return render_template("web/login.html", title="Sign in", error="Please enter an email address."), 400
    client = (request.remote_addr or "unknown")[:64]
    with server().db.transaction() as db_session:
        token_id = ask_for_link(db_session, email, client)
    if token_id is None:
        return render_template("web/message.html", title="Too many requests", paragraphs=[
            "You have asked for too many sign-in links in the last hour. Please wait a while and try again; "
            "a link mailed to you in the last 15 minutes that you have not used still works.",
        ]), 429
    queue_link_mail(server(), token_id)
    # The same answer, after the same work, whether or not the address plays here.
    return render_template("web/message.html", title="Check your mail", paragraphs=[
        f"If {email} plays here, a sign-in link is on its way. It works once, for {LINK_MINUTES} minutes. "
        "If many were asked for lately, no new one is sent while the last one mailed still works.",
    ])


def link_nonce(token: str) -> str | None:
    """The nonce the link names (None: expired); a link the server never made is not found."""
    if len(token) > 200:
        abort(404)
    try:
        nonce = link_serializer(server().settings.secret_key).loads(token, max_age=int(LINK_MAX_AGE.total_seconds()))
    except SignatureExpired:
        return None
    except BadSignature:
        abort(404)
    return nonce if isinstance(nonce, str) else None


def not_valid() -> tuple[str, int]:
    return render_template("web/message.html", title="Link not valid", paragraphs=[
        "This sign-in link has expired, has been used already, or was voided when you signed out everywhere. "
        "Ask for a new one.",
    ]), 400


def masked(email: str) -> str:
    """An address as only its owner recognises it: its first letter and its domain (``a•••@example.org``), the
    rest of the local part hidden, its length too."""
    local, _at, domain = email.rpartition("@")
    return f"{local[:1]}\u2022\u2022\u2022@{domain}"


def usable(row: LoginToken | None, db_session) -> bool:
    """Mailed to a player, unused, and issued after the player last signed out everywhere."""
    if row is None or row.used_at is not None or row.player_id is None:
        return False
    return issued_in_force(row.created_at, keys_valid_after(db_session.connection(), row.player_id))


@blueprint.get("/login/<token>")
def link_page(token: str) -> Page:
    """A button that signs in: the GET itself changes nothing."""
    nonce = link_nonce(token)
    if nonce is None:
        return not_valid()
    with server().db.sessions() as db_session:
        row = db_session.scalar(select(LoginToken).where(LoginToken.nonce == nonce))
        if not usable(row, db_session):
            return not_valid()
        player = db_session.get(Player, row.player_id)
        if player is None:
            return not_valid()
        name, address = player.name, masked(player.email)
    return render_template("web/sign_in_link.html", title="Sign in", token=token, name=name, address=address)


@blueprint.post("/login/<token>")
def use_link(token: str) -> Response | Page:
    try:
        validate_csrf(request.form.get("csrf_token"))
    except ValidationError as error:
        raise CSRFError(error.args[0]) from error
    nonce = link_nonce(token)
    if nonce is None:
        return not_valid()
    with server().db.transaction() as db_session:
        row = db_session.scalar(select(LoginToken).where(LoginToken.nonce == nonce).with_for_update())
        if not usable(row, db_session):
            return not_valid()
        player_id = row.player_id
        # Used, and with it every other link still in the player's mailbox: one sign-in ends them all.
        db_session.execute(update(LoginToken).where(LoginToken.player_id == player_id, LoginToken.used_at.is_(None))
                           .values(used_at=utcnow()))
    sign_in(player_id)
    return redirect(url_for("pages.games"))


def register(app: Flask) -> None:
    """The blueprint, and the link's POST left to check its CSRF token itself (above): its page sends no
    Referer for Flask-WTF to check."""
    app.register_blueprint(blueprint)
    app.extensions["csrf"].exempt(use_link)
