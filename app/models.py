"""Every model, imported together so the metadata (and Alembic) sees the whole schema."""

from app.db import Base
from app.games.models import Event, Game, Player
from app.mail.models import InboundMessage, OutboundMessage
from app.web.models import LoginToken

__all__ = ["Base", "Event", "Game", "InboundMessage", "LoginToken", "OutboundMessage", "Player"]
