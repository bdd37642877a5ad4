"""The one way in for mail: store the raw bytes, then process them in one transaction.

``receive`` is what every door calls (listener, IMAP, webhook, pipe). It keeps the
message before anything else (deduplicated by Message-ID, or a digest when there is
none), committed on its own, and then processes it: screen, authenticate, read, hand
the commands to the game service (``pipeline``) and mark the message done, all in one
transaction.

The mark decides: it is written only if the message is still new, so whoever marks
it first has applied it, and any other attempt (another worker, a redelivery) is
rolled back whole. Locks are always taken game row first, inbound row last (by the
mark), so two attempts at one message may wait for each other but never deadlock.
A crash at any point loses nothing and applies nothing twice; ``process_pending``
picks up what was stored but not done.

The statements on the inbound table (store, read, mark, sweep) are here; each runs
where it is called, in plain SQLAlchemy: the store in a short transaction of its
own, everything else a message does in the one transaction that ends with the mark.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import Connection, bindparam, insert, or_, select, text, update
from sqlalchemy.exc import DBAPIError, IntegrityError

from app.config import Settings
from app.db import Database, utcnow
from app.inbound.dedupe import message_key
from app.inbound.models import NEW, InboundMessage
from app.inbound.pipeline import DNS_WAIT, CheckAgain, Pipeline, Received
from app.inbound.proof import Arrival, Authentication, authenticate
from app.inbound.safe import storable
from app.tokens import TokenSigner

log = logging.getLogger(__name__)

INBOUND = InboundMessage.__table__
STORE = insert(INBOUND).returning(INBOUND.c.id)
FIND = select(INBOUND.c.id).where(INBOUND.c.message_key == bindparam("key"))
READ = (select(INBOUND.c.raw, INBOUND.c.envelope_from, INBOUND.c.envelope_to, INBOUND.c.full_size,
               INBOUND.c.peer_address, INBOUND.c.helo, INBOUND.c.received_at)
        .where(INBOUND.c.id == bindparam("inbound_id"), INBOUND.c.status == "new"))
MARK = update(INBOUND).where(INBOUND.c.id == bindparam("inbound_id"), INBOUND.c.status == "new").values(
    status=bindparam("new_status"), outcome=bindparam("new_outcome"), processed_at=bindparam("at"),
    sender=bindparam("from_address"), authentication=bindparam("results"), signature_key=bindparam("key"))
# Through the partial index of the new messages, its predicate written out so a prepared plan uses it too. Those
# never tried come first: one waiting for DNS may take seconds again, and never holds up one a crash left behind.
PENDING = (select(INBOUND.c.id).where(text(NEW), INBOUND.c.received_at <= bindparam("before"),
                                      or_(INBOUND.c.retry_at.is_(None), INBOUND.c.retry_at <= bindparam("now")))
           .order_by(INBOUND.c.retry_at.is_not(None), INBOUND.c.id).limit(bindparam("limit")))
WAIT = update(INBOUND).where(INBOUND.c.id == bindparam("inbound_id"), INBOUND.c.status == "new").values(
    retry_at=bindparam("retry_at"), outcome=bindparam("new_outcome"), authentication=bindparam("results"))
SIGNED_BY = select(INBOUND.c.id).where(INBOUND.c.signature_key == bindparam("key"))
FIRST_RETRY = timedelta(minutes=10)  # a message whose check DNS left unfinished: checked again after this, then
# after as long again as it has waited, until DNS_WAIT after it came
# The largest message any door takes in, as large as the common mail providers send. A larger one is refused
# at the door, with the reason, before it is stored: SMTP 552, HTTP 413, ``ingest`` exit 65 (the mail system
# bounces it); IMAP, which cannot refuse, keeps only its header and leaves it in the mailbox, flagged. Up to it
# a message is stored, and one larger than MAX_MESSAGE_BYTES (or kept as its header) is answered "too large".
LARGEST_MESSAGE = 25 * 1024 * 1024
SETTLE = timedelta(seconds=30)  # the sweep leaves younger messages to the door that received them
TRANSIENT = ("40001", "40P01")  # serialization failure, deadlock: the transaction may simply be tried again


Check = Callable[[Arrival, Settings], Authentication]


@dataclass(frozen=True)
class Receipt:
    """What became of one received message."""

    inbound_id: int
    duplicate: bool  # stored before: a redelivery
    outcome: str | None  # what processing did; None when it was processed before, or is being elsewhere


def receive(db: Database, settings: Settings, signer: TokenSigner, raw: bytes, source: str,
            envelope_from: str | None = None, envelope_to: list[str] | None = None,
            check: Check = authenticate) -> Receipt:
    """Store a message as received, then process it (a redelivered one is processed only if it never was).

    Both on one connection: every message that comes in goes through here. Once stored, the message is
    accepted: a failure while processing it is logged and left to ``process_pending``, never raised.
    ``check`` is the sender check (``authenticate``; the benchmark measures the pipeline without it too).
    """
    received = Received(raw, envelope_from, list(envelope_to or []))
    with db.engine.connect() as connection:
        inbound_id, duplicate = store_on(connection, raw, source, envelope_from, envelope_to)
        log_stored(inbound_id, duplicate, source, len(raw))
        return Receipt(inbound_id, duplicate,
                       process_stored(db, settings, signer, inbound_id, received, duplicate, connection, check))


def process_stored(db: Database, settings: Settings, signer: TokenSigner, inbound_id: int, received: Received,
                   duplicate: bool, connection: Connection | None = None, check: Check = authenticate) -> str | None:
    """Process what a door has just stored, with its bytes in hand; a redelivery (``duplicate``) is read
    back and processed only if it never was. Never raises (``process_safely``)."""
    in_hand = None if duplicate else received
    if connection is not None:
        return process_safely(db, connection, settings, signer, inbound_id, in_hand, check)
    with db.engine.connect() as own:
        return process_safely(db, own, settings, signer, inbound_id, in_hand, check)


def store(db: Database, raw: bytes, source: str, envelope_from: str | None = None,
          envelope_to: list[str] | None = None, full_size: int | None = None, peer: str | None = None,
          helo: str | None = None) -> tuple[int, bool]:
    """Keep a message as received; returns (row id, whether it was already stored).

    ``full_size``: ``raw`` is only the header of a message of that many bytes, too large to keep whole.
    ``peer`` and ``helo``: the host that handed it to the listener, and what it said its name was.
    """
    with db.engine.connect() as connection:
        inbound_id, duplicate = store_on(connection, raw, source, envelope_from, envelope_to, full_size, peer, helo)
    log_stored(inbound_id, duplicate, source, full_size or len(raw))
    return inbound_id, duplicate


def log_stored(inbound_id: int, duplicate: bool, source: str, size: int) -> None:
    """Each message, at INFO, when it is safe in the database (what became of it follows when processed)."""
    if duplicate:
        log.info("inbound message %s came again by %s (%s bytes): stored before", inbound_id, source, size)
    else:
        log.info("inbound message %s stored, from %s (%s bytes)", inbound_id, source, size)


def store_on(connection: Connection, raw: bytes, source: str, envelope_from: str | None = None,
             envelope_to: list[str] | None = None, full_size: int | None = None, peer: str | None = None,
             helo: str | None = None) -> tuple[int, bool]:
    """``store`` on a connection that is in no transaction, in a short transaction of its own: the row is
    committed when this returns, before anything else is done with the message."""
    key = message_key(raw)
    try:
        with connection.begin():
            return connection.execute(STORE, {
                "message_key": key, "raw": raw, "source": source, "envelope_from": envelope_from,
                "envelope_to": list(envelope_to or []), "full_size": full_size, "status": "new",
                "received_at": utcnow(), "peer_address": storable((peer or "")[:64]) or None,
                "helo": storable((helo or "")[:255]) or None,
            }).scalar_one(), False
    except IntegrityError:  # stored before: the key is the one a redelivery has
        with connection.begin():
            return connection.execute(FIND, {"key": key}).scalar_one(), True


def process(db: Database, settings: Settings, signer: TokenSigner, inbound_id: int) -> str | None:
    """Process one stored message if no one else has; returns what was done (None: nothing to do)."""
    with db.engine.connect() as connection:
        return process_on(connection, settings, signer, inbound_id)


class _MarkedElsewhere(Exception):
    """Another attempt marked the message first: everything this one did is rolled back."""


def process_on(connection: Connection, settings: Settings, signer: TokenSigner, inbound_id: int,
               in_hand: Received | None = None, check: Check = authenticate) -> str | None:
    """``process`` on a connection that is in no transaction: the sender check, then one transaction, ending
    with the mark.

    ``in_hand`` is the message when the caller has just stored it (it is not read back). The sender check
    (``check``) runs before the transaction: its look-ups may take seconds, and no row waits for them. Returns
    what was done, or None when the message was already done (here or by another attempt).
    """
    received = in_hand
    if received is None:
        with connection.begin():
            row = connection.execute(READ, {"inbound_id": inbound_id}).first()
        if row is None:
            return None
        raw, envelope_from, envelope_to, full_size, peer, helo, received_at = row
        received = Received(raw, envelope_from, envelope_to or [], full_size, peer, helo, received_at)
    authentication = check(received.arrival(settings), settings)
    log.info("inbound message %s checked: %s", inbound_id, authentication.summary())
    key = authentication.signature_key
    try:
        with connection.begin():
            pipeline = Pipeline(connection, settings, signer)
            status, outcome = pipeline.run(received, authentication)
            pipeline.service.flush()
            # the key is unique: a copy's mark fails, undoing all it did
            marked = mark(connection, inbound_id, status, outcome, pipeline.sender,
                          pipeline.authentication.results, key)
            if marked != 1:
                raise _MarkedElsewhere
            return f"{status}: {outcome}"
    except _MarkedElsewhere:
        return None
    except CheckAgain as waiting:  # everything the pipeline did is rolled back
        return wait_for_dns(connection, inbound_id, received, authentication, str(waiting))
    except IntegrityError:
        original = signed_by_another(connection, inbound_id, key)
        if original is None:
            raise
        return mark_copy(connection, inbound_id, original, authentication)


def signed_by_another(connection: Connection, inbound_id: int, key: str | None) -> int | None:
    """The message proven before this one by a signature pinning the same mail (``key``), if another holds it:
    this one is a copy of it, and its mark, which records the key (unique), failed, undoing all it did. The unique
    column decides between two copies processed at once: the second's mark waits for the first's commit."""
    if key is None:
        return None
    with connection.begin():
        found = connection.execute(SIGNED_BY, {"key": key}).scalar()
    return found if found is not None and found != inbound_id else None


def mark_copy(connection: Connection, inbound_id: int, original: int, authentication: Authentication) -> str | None:
    """A copy of a message already proven by the same signature: nothing done, nobody answered (the original
    was, and whoever sent the copy on is not to be answered in the player's name)."""
    outcome = f"a copy of message {original} (the same DKIM signature): not carried out again"
    with connection.begin():
        marked = mark(connection, inbound_id, "ignored", outcome, None, authentication.results, None)
    return f"ignored: {outcome}" if marked == 1 else None


def mark(connection: Connection, inbound_id: int, status: str, outcome: str, sender: str | None, results: str,
         key: str | None) -> int:
    """Mark a new message with what became of it (``MARK``); how many rows it marked: 0 when another attempt did."""
    return connection.execute(MARK, {"inbound_id": inbound_id, "new_status": status, "new_outcome": outcome,
                                     "at": utcnow(), "from_address": sender, "results": results,
                                     "key": key}).rowcount


def wait_for_dns(connection: Connection, inbound_id: int, received: Received, authentication: Authentication,
                 trouble: str) -> str | None:
    """Leave the message new, nothing in it done, to be checked again once its domain's DNS may answer: after
    ``FIRST_RETRY``, then after as long again as it has waited, the last time when ``DNS_WAIT`` has passed since
    it came (then it is refused, if still not proven). The sweep takes it up at ``retry_at``."""
    now = utcnow()
    came = received.received_at or now
    retry_at = min(now + max(FIRST_RETRY, now - came), came + DNS_WAIT)  # the last time: when waiting ends
    outcome = storable(f"waiting: the sender check could not be finished ({trouble}); checked again from "
                       f"{retry_at:%Y-%m-%d %H:%M} UTC")[:500]
    with connection.begin():
        marked = connection.execute(WAIT, {"inbound_id": inbound_id, "retry_at": retry_at, "new_outcome": outcome,
                                           "results": authentication.results}).rowcount
    return outcome if marked == 1 else None


def process_safely(db: Database, connection: Connection, settings: Settings, signer: TokenSigner,
                   inbound_id: int, in_hand: Received | None = None, check: Check = authenticate) -> str | None:
    """``process_on``, with a failure logged instead of raised: a lost connection, a deadlock or a
    serialization failure leaves the message new (it is tried again); anything else marks it failed,
    kept for an operator, so one bad message cannot hold up the others."""
    try:
        outcome = process_on(connection, settings, signer, inbound_id, in_hand, check)
        if outcome is not None:
            log.info("inbound message %s %s", inbound_id, outcome)
        return outcome
    except Exception as error:
        if transient(error):
            log.warning("processing inbound message %s was interrupted (%s); it stays queued", inbound_id, error)
        else:
            log.exception("processing inbound message %s failed", inbound_id)
            mark_failed(db, inbound_id)
        return None


def transient(error: Exception) -> bool:
    """A failure that trying again can cure: a lost connection, a deadlock, a serialization failure, a
    database locked for longer than the busy timeout."""
    if not isinstance(error, DBAPIError):
        return False
    code = getattr(error.orig, "sqlstate", None)
    return error.connection_invalidated or code in TRANSIENT or "database is locked" in str(error.orig)


def process_pending(db: Database, settings: Settings, signer: TokenSigner, limit: int = 50,
                    settle: timedelta = SETTLE) -> int:
    """Process stored messages not yet done (after a crash, or from other adapters); returns how many.

    Messages younger than ``settle`` are left to the door that received them, which processes them at once.
    """
    done = 0
    with db.engine.connect() as connection:
        with connection.begin():
            now = utcnow()
            ids = connection.execute(PENDING, {"limit": limit, "before": now - settle, "now": now}).scalars().all()
        for inbound_id in ids:
            if process_safely(db, connection, settings, signer, inbound_id) is not None:
                done += 1
    return done


def mark_failed(db: Database, inbound_id: int) -> None:
    """A message processing could not handle: kept for an operator, never tried again on its own."""
    with db.engine.begin() as connection:
        connection.execute(update(INBOUND).where(INBOUND.c.id == inbound_id, INBOUND.c.status == "new").values(
            status="failed", outcome="internal error: kept for an operator to look at"))
