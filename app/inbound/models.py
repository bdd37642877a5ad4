"""Inbound messages, kept raw before anything else is done with them."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Index, Integer, LargeBinary, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, UTCDateTime, utcnow

NEW = "status = 'new'"  # stored, not yet processed: what the sweep takes up
# Processed messages whose bytes are still kept: what retention looks through, oldest first. Failed ones (and
# new ones) are never compacted: an operator may need them.
TO_COMPACT = "compacted_at IS NULL AND status IN ('done', 'rejected', 'ignored')"


class InboundMessage(Base):
    """A message as received, stored before processing so a crash loses nothing.

    Once it has been processed and is older than the retention (``INBOUND_RETENTION_DAYS``), its bytes are
    dropped (``raw`` empty, ``compacted_at`` set); the row stays, with its key, so a redelivery is still
    recognised, and with what became of it.
    """

    __tablename__ = "inbound_messages"
    __table_args__ = (
        Index("ix_inbound_messages_new", "id", postgresql_where=text(NEW), sqlite_where=text(NEW)),
        Index("ix_inbound_messages_to_compact", "processed_at", postgresql_where=text(TO_COMPACT),
              sqlite_where=text(TO_COMPACT)),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    message_key: Mapped[str] = mapped_column(String(512), unique=True)  # ``dedupe.message_key``
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    envelope_from: Mapped[str | None] = mapped_column(String(512))
    envelope_to: Mapped[list[Any]] = mapped_column(default=list)
    source: Mapped[str] = mapped_column(String(20))
    # Set when ``raw`` holds only the header of a message larger than any door takes (IMAP, which cannot
    # refuse it): the message's size, so that it is answered "too large".
    full_size: Mapped[int | None] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(20), default="new", index=True)
    outcome: Mapped[str | None] = mapped_column(Text)
    sender: Mapped[str | None] = mapped_column(String(320))
    received_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    processed_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    compacted_at: Mapped[datetime | None] = mapped_column(UTCDateTime())  # when retention dropped the bytes
    # The host that handed the message to the listener (SMTP/LMTP), which SPF is checked for, and its greeting
    peer_address: Mapped[str | None] = mapped_column(String(64))
    helo: Mapped[str | None] = mapped_column(String(255))
    # The Authentication-Results of the sender checks (app/inbound/proof), for operators
    authentication: Mapped[str | None] = mapped_column(Text)
    # A new message whose sender check could not be finished (DNS): not taken up again before this time
    retry_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # The DKIM signature that proved it (app/inbound/proof): a copy of the mail, folded anew, carries the same
    signature_key: Mapped[str | None] = mapped_column(String(80), unique=True)


class Answer(Base):
    """One answer the referee sent to a mail outside any game, or a refusal: what the limits count.

    ``recipient`` is where it went; ``cause`` who caused it (the envelope sender, else the From address),
    which is not the same when someone forges another's address.
    """

    __tablename__ = "answers"
    __table_args__ = (
        Index("ix_answers_recipient_created_at", "recipient", "created_at"),
        Index("ix_answers_cause_created_at", "cause", "created_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    recipient: Mapped[str] = mapped_column(String(320))
    cause: Mapped[str] = mapped_column(String(320))
    kind: Mapped[str] = mapped_column(String(20))  # "answer", "refusal", or "hour-limit"/"day-limit" (a notice)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
