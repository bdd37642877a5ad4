"""Every model, imported together so the metadata (and Alembic) sees the whole schema."""

from app.club.models import Rating, RatingChange, Seek, Tournament, TournamentEntry, TournamentPairing
from app.db import Base
from app.games.digest.rows import Digest, DigestGame, DigestNote
from app.games.lobby.confirmations import Confirmation
from app.games.models import Event, Game, Player
from app.inbound.models import Answer, InboundMessage
from app.outbound.models import OutboundMessage
from app.web.models import LoginToken, WebSession

__all__ = ["Answer", "Base", "Confirmation", "Digest", "DigestGame", "DigestNote", "Event", "Game", "InboundMessage",
           "LoginToken", "OutboundMessage", "Player", "Rating", "RatingChange", "Seek", "Tournament", "TournamentEntry",
           "TournamentPairing", "WebSession"]
