"""Sign-in links (single use, short-lived, counted for rate limits) and the web sessions they open."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, UTCDateTime, utcnow


class LoginToken(Base):
    """One mailed sign-in link; ``used_at`` is set the one time it is used."""

    __tablename__ = "login_tokens"

    id: Mapped[int] = mapped_column(primary_key=True)
    nonce: Mapped[str] = mapped_column(String(64), unique=True)
    email: Mapped[str] = mapped_column(String(320), index=True)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    client: Mapped[str] = mapped_column(String(64), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, index=True)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class WebSession(Base):
    """One signed-in browser: the session cookie names it, and logging out ends it here too, so a copy
    of the cookie kept after logout no longer works."""

    __tablename__ = "web_sessions"

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(64), unique=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
