"""Web sessions: opened only by a sign-in link mailed to the player, ended by signing out.

A session is a row on the server as well as a cookie: signing out ends the row, so a copy of the cookie
kept afterwards signs nobody in. Signing out everywhere voids every session, sign-in link and history
link of the player issued until then (app/games/access.py); each is checked against that time when used.
A move request's history link opens one game's history read only and never a session (app/web/keyed.py).
"""

from __future__ import annotations

import secrets
from typing import Any

from flask import Blueprint, current_app, flash, g, redirect, session, url_for
from sqlalchemy import ColumnElement, select, update
from werkzeug.wrappers import Response

from app.db import utcnow
from app.games.access import sign_out_everywhere
from app.games.models import Player
from app.web.models import WebSession

blueprint = Blueprint("auth", __name__)


def server():
    return current_app.extensions["mirrorpost"]


@blueprint.app_context_processor
def session_context() -> dict[str, object]:
    """Pages ask the server whether the session is open (the cookie alone does not say)."""
    return {"signed_in_player_id": signed_in_player_id}


@blueprint.before_app_request
def load_session() -> None:
    """Look the session up before the request opens any transaction of its own (SQLite allows one writer)."""
    g.player_id = open_session_player(session.get("sid"))


def signed_in_player_id() -> int | None:
    """The player of this request's session, if the session is still open on the server."""
    return g.get("player_id")


def revoked(player_id: ColumnElement[Any], issued_at: ColumnElement[Any]) -> ColumnElement[bool]:
    """SQL: the player signed out everywhere at or after ``issued_at`` (a correlated test, not a join)."""
    return select(Player.id).where(Player.id == player_id, Player.keys_valid_after >= issued_at).exists()


def open_session_player(key: object) -> int | None:
    if not isinstance(key, str) or not key or len(key) > 64:
        return None
    since = utcnow() - current_app.permanent_session_lifetime
    with server().db.sessions() as db_session:
        return db_session.scalar(select(WebSession.player_id).where(
            WebSession.key == key, WebSession.ended_at.is_(None), WebSession.created_at >= since,
            ~revoked(WebSession.player_id, WebSession.created_at)))


def sign_in(player_id: int) -> None:
    """A new session for the player: a new row and a new cookie (nothing of the old cookie is kept)."""
    key = secrets.token_urlsafe(32)
    with server().db.transaction() as db_session:
        db_session.add(WebSession(key=key, player_id=player_id))
    session.clear()
    session["sid"] = key
    session.permanent = True
    g.player_id = player_id


def end_this_session() -> None:
    key = session.get("sid")
    if isinstance(key, str):
        with server().db.transaction() as db_session:
            db_session.execute(update(WebSession).where(WebSession.key == key, WebSession.ended_at.is_(None))
                               .values(ended_at=utcnow()))
    session.clear()
    g.player_id = None


@blueprint.post("/logout")
def logout() -> Response:
    end_this_session()
    return redirect(url_for("signin.login_form"))


@blueprint.post("/logout/everywhere")
def logout_everywhere() -> Response:
    """Every session of the player ends, and every link mailed to them so far stops working."""
    player_id = signed_in_player_id()
    if player_id is not None:
        with server().db.transaction() as db_session:
            sign_out_everywhere(db_session.connection(), player_id)
    end_this_session()
    if player_id is not None:
        flash("Signed out everywhere: every session has ended, and the links in the mail you had so far "
              "(history links, sign-in links) no longer work. New move requests carry new links.")
    return redirect(url_for("signin.login_form"))
