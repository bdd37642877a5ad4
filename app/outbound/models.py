"""The outbox: one row per mail to send."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, Integer, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, UTCDateTime, utcnow
from app.outbound.compose import assemble

TO_SEND = "status IN ('pending', 'sending')"  # waiting for its first or next attempt, or being sent under a lease
# Sent mail whose parts are still kept: what retention looks through, oldest first. Failed and bounced mail keeps
# its parts for an operator.
TO_COMPACT = "status = 'sent' AND compacted_at IS NULL"


class OutboundMessage(Base):
    """One mail to send: written in the transaction that caused it, sent by the dispatcher."""

    __tablename__ = "outbound_messages"
    __table_args__ = (
        # What the server looks up: a player's recent error notices (rate limit) and the latest mails
        # of a game to one player. Every move writes two rows, so no index more than these.
        Index("ix_outbound_messages_recipient_created_at", "recipient", "created_at"),
        Index("ix_outbound_messages_game_id_recipient", "game_id", "recipient"),
        Index("ix_outbound_messages_envelope_key", "envelope_key", unique=True),  # a bounce finds its mail
        # What dispatch claims: only the rows still to send, by when they are next due.
        Index("ix_outbound_messages_to_send", "next_attempt_at", "id", postgresql_where=text(TO_SEND),
              sqlite_where=text(TO_SEND)),
        Index("ix_outbound_messages_to_compact", "sent_at", postgresql_where=text(TO_COMPACT),
              sqlite_where=text(TO_COMPACT)),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    message_id: Mapped[str] = mapped_column(String(512), unique=True)
    recipient: Mapped[str] = mapped_column(String(320))
    kind: Mapped[str] = mapped_column(String(40))
    subject: Mapped[str] = mapped_column(Text)
    # Headers (encoded, in order) and both parts; the MIME bytes are assembled from them when sent.
    headers: Mapped[list[Any]] = mapped_column(default=list, server_default="[]")
    body_text: Mapped[str] = mapped_column(Text, default="", server_default="")
    body_html: Mapped[str] = mapped_column(Text, default="", server_default="")
    # Files sent with the mail, as {"filename", "content_type", "text"}: the record of a game at its end.
    attachments: Mapped[list[Any]] = mapped_column(default=list, server_default="[]")
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"))
    status: Mapped[str] = mapped_column(String(20), default="pending", index=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    # When the row is next to be tried: at once when queued, after a backoff when an attempt failed, and
    # when its lease runs out while it is being sent (a worker that died mid-send leaves it for another).
    next_attempt_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    lease_until: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # Which worker holds the lease (``app.outbound.lease``): after a restart it takes its own rows back at once.
    lease_owner: Mapped[str | None] = mapped_column(String(100))
    # The envelope sender's part that names this mail to a bounce (VERP): random, so the address tells its
    # recipient nothing about how many mails were made before it. Null for mail queued before it existed.
    envelope_key: Mapped[str | None] = mapped_column(String(32))
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    last_error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    # When retention dropped the headers and both parts of this sent mail (``OUTBOX_RETENTION_DAYS``).
    compacted_at: Mapped[datetime | None] = mapped_column(UTCDateTime())

    @property
    def raw(self) -> bytes:
        """The message as it goes on the wire; the same bytes on every attempt."""
        return assemble(self.headers, self.body_text, self.body_html, self.message_id, self.attachments or ())
