"""Retention: what is kept for ever, and what is dropped once it is old.

Kept for ever, whatever the settings: games, players, the event record (what each player was told
and saw at every step) and the setup commitments; these tables are never touched here. Kept too,
for an operator: inbound mail that failed, and outbound mail that failed or bounced.

Dropped once old, in small batches (``RETENTION_BATCH`` rows of each kind a round, so a round is
short however far behind it is):

- the raw bytes of a processed inbound message, ``INBOUND_RETENTION_DAYS`` after it was processed.
  The row stays, with its key, so a redelivery of the message is still recognised as one, and with
  its status, outcome, sender and dates;
- the headers and both parts of a sent mail, ``OUTBOX_RETENTION_DAYS`` after it was sent. The row stays,
  with its Message-ID, recipient, kind, subject, status and dates;
- sign-in links a day after they were made: a link lives 15 minutes, and the hourly limit on links
  counts an hour of them.

Each kind is looked up through a partial index of the rows still to be dropped, oldest first; the
statements name the index's own predicate so that a prepared plan uses it too. Running in several
workers at once is harmless: a row is dropped once, and a second worker finds it gone.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Column, Delete, Select, Table, Update, bindparam, delete, select, text, update

from app.config import Settings
from app.db import Database
from app.inbound import models as inbound_models
from app.inbound.models import InboundMessage
from app.outbound import models as outbound_models
from app.outbound.models import OutboundMessage
from app.web.models import LoginToken

INBOUND = InboundMessage.__table__
OUTBOX = OutboundMessage.__table__
TOKENS = LoginToken.__table__
TOKENS_KEPT = timedelta(days=1)  # at least a link's life (15 minutes) and the hour its rate limit counts


def _oldest(table: Table, predicate: str, age: Column[datetime]) -> Select[tuple[int]]:
    """The ids of up to ``batch`` rows matching ``predicate`` older than ``before``, oldest first."""
    return (select(table.c.id).where(text(predicate), age < bindparam("before"))
            .order_by(age).limit(bindparam("batch")))


# Each kind in two statements: the ids of one batch through its partial index, then those rows by primary key (a
# subquery with a LIMIT would leave the planner to guess the batch's size, and it may then walk the whole table).
# The change names the predicate again: a row another worker changed meanwhile is left alone.
OLD_INBOUND = _oldest(INBOUND, inbound_models.TO_COMPACT, INBOUND.c.processed_at)
COMPACT_INBOUND = (update(INBOUND).where(INBOUND.c.id.in_(bindparam("ids", expanding=True)),
                                         text(inbound_models.TO_COMPACT))
                   .values(raw=b"", compacted_at=bindparam("now")))
OLD_OUTBOX = _oldest(OUTBOX, outbound_models.TO_COMPACT, OUTBOX.c.sent_at)
COMPACT_OUTBOX = (update(OUTBOX).where(OUTBOX.c.id.in_(bindparam("ids", expanding=True)),
                                       text(outbound_models.TO_COMPACT))
                  .values(headers=[], body_text="", body_html="", compacted_at=bindparam("now")))
OLD_TOKENS = (select(TOKENS.c.id).where(TOKENS.c.created_at < bindparam("before"))
              .order_by(TOKENS.c.created_at).limit(bindparam("batch")))
DROP_TOKENS = delete(TOKENS).where(TOKENS.c.id.in_(bindparam("ids", expanding=True)))


@dataclass(frozen=True)
class Dropped:
    """What one round of retention dropped: rows compacted, or deleted for tokens."""

    inbound: int = 0
    outbound: int = 0
    tokens: int = 0

    @property
    def total(self) -> int:
        return self.inbound + self.outbound + self.tokens


def run(db: Database, settings: Settings, now: datetime) -> Dropped:
    """One round: at most ``retention_batch`` rows of each kind, each kind in a short transaction of its own."""
    batch = settings.retention_batch
    inbound = outbound = 0
    if settings.inbound_retention_days:
        before = now - timedelta(days=settings.inbound_retention_days)
        inbound = _apply(db, OLD_INBOUND, COMPACT_INBOUND, {"before": before, "batch": batch, "now": now})
    if settings.outbox_retention_days:
        before = now - timedelta(days=settings.outbox_retention_days)
        outbound = _apply(db, OLD_OUTBOX, COMPACT_OUTBOX, {"before": before, "batch": batch, "now": now})
    tokens = _apply(db, OLD_TOKENS, DROP_TOKENS, {"before": now - TOKENS_KEPT, "batch": batch})
    return Dropped(inbound, outbound, tokens)


def _apply(db: Database, find: Select[tuple[int]], change: Update | Delete, values: dict[str, object]) -> int:
    """``change`` on the rows ``find`` names; how many it changed."""
    with db.engine.begin() as connection:
        ids = connection.execute(find, values).scalars().all()
        if not ids:
            return 0
        return connection.execute(change, {**values, "ids": ids}).rowcount
