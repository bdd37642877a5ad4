"""The game service as a signed-in player's page uses it: in the page's transaction, answering that player."""

from __future__ import annotations

from collections.abc import Callable

from flask import current_app, flash, redirect, url_for
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from app.games.errors import ServiceError
from app.games.models import Player
from app.games.records.rows import PlayerRecord
from app.service import Service
from app.web.auth import signed_in_player_id


def service_as(db_session: Session, player_id: int) -> tuple[Service, PlayerRecord]:
    """The service and the player's record; the player asked, so what follows is told to them at once."""
    server = current_app.extensions["mirrorpost"]
    service = Service(db_session.connection(), server.settings, server.signer)
    player = service.player(db_session.get(Player, player_id).email)
    service.actor_id = player.id
    return service, player


def as_player(act: Callable[[Service, PlayerRecord], str], back: str) -> Response:
    """Carry out ``act(service, player)`` for the signed-in player, in one transaction, and go ``back`` with its
    words flashed (or why it was not done); the sign-in page for a visitor not signed in."""
    player_id = signed_in_player_id()
    if player_id is None:
        return redirect(url_for("signin.login_form"))
    try:
        with current_app.extensions["mirrorpost"].db.transaction() as db_session:
            service, player = service_as(db_session, player_id)
            said = act(service, player)
            service.flush()
    except ServiceError as error:
        flash(f"Not done: {error}.")
        return redirect(back)
    flash(said)
    return redirect(back)
