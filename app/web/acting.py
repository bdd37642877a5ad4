"""The game service as a signed-in player's page uses it: in the page's transaction, answering that player."""

from __future__ import annotations

from flask import current_app
from sqlalchemy.orm import Session

from app.games.models import Player
from app.games.records.rows import PlayerRecord
from app.service import Service


def service_as(db_session: Session, player_id: int) -> tuple[Service, PlayerRecord]:
    """The service and the player's record; the player asked, so what follows is told to them at once."""
    server = current_app.extensions["mirrorpost"]
    service = Service(db_session.connection(), server.settings, server.signer)
    player = service.player(db_session.get(Player, player_id).email)
    service.actor_id = player.id
    return service, player
