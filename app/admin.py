"""What an operator does with stored mail: see what failed, look at a message, and try it again.

A message whose processing failed for a reason other than a lost connection is kept ``failed``
and never tried again on its own (``inbound.process_safely``); an outbound mail the relay refused
for good, or that bounced, stays ``failed`` or ``bounced``. Once the cause is mended, ``retry``
puts them back in the way of the pipeline: nothing of a failed message was applied (its
transaction was rolled back), and a mail that was never delivered keeps its Message-ID.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Row, Table, func, select, update

from app.addresses import AddressError, sender_of
from app.config import Settings
from app.db import Database, utcnow
from app.inbound.limits import header_facts
from app.inbound.models import InboundMessage
from app.inbound.receive import process
from app.outbound.models import OutboundMessage
from app.tokens import TokenSigner

INBOUND = InboundMessage.__table__
OUTBOX = OutboundMessage.__table__
OUTBOUND_RETRIABLE = ("failed", "bounced")
HEAD = 16 * 1024  # bytes of a stored message read for its From header when listing


@dataclass(frozen=True)
class Listed:
    """One line of a listing: which message, when, from or to whom, and what became of it."""

    id: int
    at: datetime
    status: str
    address: str | None
    about: str | None
    checked: str | None = None  # an inbound message's sender check: "proven", "unproven" (None: outbound mail)

    def line(self) -> str:
        address = self.address or "-"
        checked = f"{self.checked:<8}  " if self.checked else ""
        return f"{self.id:>8}  {self.at:%Y-%m-%d %H:%M}  {self.status:<8}  {checked}{address:<32}  {self.about or ''}"


def verdict(results: str | None) -> str:
    """Whether a message's Authentication-Results of our own (``app.inbound.proof``) proved its sender."""
    if not results:
        return "-"
    return "proven" if re.search(r"(^|;)\s*dmarc=pass\b", results) else "unproven"


def newest(db: Database, table: Table, status: str | None, limit: int, *columns: ColumnElement[Any]) -> list[Row[Any]]:
    """The newest rows of a mail table (of one status), newest first: their id and status, and ``columns``."""
    query = select(table.c.id, table.c.status, *columns)
    if status:
        query = query.where(table.c.status == status)
    with db.engine.connect() as connection:
        return list(connection.execute(query.order_by(table.c.id.desc()).limit(limit)).all())


def inbound_messages(db: Database, status: str | None = None, limit: int = 50) -> list[Listed]:
    """The newest stored messages (of one status), newest first.

    The sender is recorded when a message is handled; for one that failed before that, it is read
    from the From header at the head of the stored bytes.
    """
    rows = newest(db, INBOUND, status, limit, INBOUND.c.received_at, INBOUND.c.sender, INBOUND.c.envelope_from,
                  INBOUND.c.outcome, INBOUND.c.authentication, func.substr(INBOUND.c.raw, 1, HEAD).label("head"))
    return [Listed(row.id, row.received_at, row.status, row.sender or from_header(row.head) or row.envelope_from,
                   row.outcome, verdict(row.authentication)) for row in rows]


def from_header(head: bytes | None) -> str | None:
    """The address in the From header of a message's first bytes, if it has one."""
    if not head:
        return None
    try:
        return sender_of([value.decode("utf-8", "replace") for value in header_facts(bytes(head)).from_fields]).address
    except AddressError:
        return None


@dataclass(frozen=True)
class Stored:
    """A stored message's bytes as received; the full size when only its header was kept; when retention dropped
    the bytes, if it did."""

    raw: bytes
    full_size: int | None
    compacted_at: datetime | None
    authentication: str | None = None  # the Authentication-Results of the sender check, once processed


def inbound_raw(db: Database, inbound_id: int) -> Stored | None:
    """A stored message exactly as it was received (nothing, once retention dropped its bytes)."""
    with db.engine.connect() as connection:
        row = connection.execute(select(INBOUND.c.raw, INBOUND.c.full_size, INBOUND.c.compacted_at,
                                        INBOUND.c.authentication).where(INBOUND.c.id == inbound_id)).first()
    return None if row is None else Stored(row.raw, row.full_size, row.compacted_at, row.authentication)


def retry_inbound(db: Database, settings: Settings, signer: TokenSigner, inbound_id: int) -> str | None:
    """Process a failed message again, now, or check one waiting for DNS now rather than at its time; returns what
    was done (None: it is neither)."""
    with db.engine.begin() as connection:
        reopened = connection.execute(
            update(INBOUND).where(INBOUND.c.id == inbound_id, (INBOUND.c.status == "failed")
                                  | ((INBOUND.c.status == "new") & INBOUND.c.retry_at.is_not(None)))
            .values(status="new", outcome=None, processed_at=None)).rowcount
    if reopened != 1:
        return None
    return process(db, settings, signer, inbound_id) or "taken up by another worker"


def outbound_messages(db: Database, status: str | None = None, limit: int = 50) -> list[Listed]:
    """The newest outbound mails (of one status), newest first, with the last error of each."""
    rows = newest(db, OUTBOX, status, limit, OUTBOX.c.created_at, OUTBOX.c.recipient, OUTBOX.c.subject,
                  OUTBOX.c.last_error)
    return [Listed(row.id, row.created_at, row.status, row.recipient,
                   row.subject + (f" ({row.last_error})" if row.last_error else "")) for row in rows]


def retry_outbound(db: Database, outbound_id: int) -> bool:
    """Send a failed or bounced mail again, from its first attempt, with the worker's next round (not one whose
    parts retention dropped: a mail that bounced long after it was sent)."""
    with db.engine.begin() as connection:
        return connection.execute(
            update(OUTBOX).where(OUTBOX.c.id == outbound_id, OUTBOX.c.status.in_(OUTBOUND_RETRIABLE),
                                 OUTBOX.c.compacted_at.is_(None))
            .values(status="pending", attempts=0, next_attempt_at=utcnow(), lease_until=None, last_error=None)
        ).rowcount == 1
