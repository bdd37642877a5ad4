"""Every model, imported together so the metadata (and Alembic) sees the whole schema."""

from app.db import Base
from app.games.models import Event, Game, Player
from app.inbound.models import InboundMessage
from app.outbound.models import OutboundMessage
from app.web.models import LoginToken

__all__ = ["Base", "Event", "Game", "InboundMessage", "LoginToken", "OutboundMessage", "Player"]
