"""The outbox: rows written in the same transaction as the change, and their dispatch.

Dispatch claims rows with a lease (``FOR UPDATE SKIP LOCKED`` on PostgreSQL, so
several workers share the work), sends them, then marks them sent. A row whose
send failed is retried with exponential backoff, or failed for good when retrying
cannot help (a 5xx, an address no relay can take), the reason on the row; whatever
one row's failure is, the others of the round are still sent. Over SMTP one connection serves
a round, and each mail is recorded as sent as soon as the relay has accepted it
(its 250 to the data), before the next one goes: a worker killed in between sends
that one mail again, with the same Message-ID. A worker that died mid-round leaves
its other rows leased in its name (``lease``); restarted, it takes them back at once,
and otherwise their lease expires. A row's ``next_attempt_at`` says when it is next
due in every case, so the claim reads only the rows due now.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import smtplib
import ssl
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Protocol

from sqlalchemy import Connection, Select, Update, bindparam, func, insert, select, text, update

from app.config import Settings
from app.db import Database, is_postgres, utcnow
from app.outbound.compose import Thread, headers_for, new_message_id
from app.outbound.envelope import envelope_address, new_envelope_key
from app.outbound.idn import ascii_name
from app.outbound.lease import WorkerIdentity
from app.outbound.models import TO_SEND, OutboundMessage
from app.outbound.signing import load_key
from app.tokens import TokenSigner

log = logging.getLogger(__name__)

LEASE = timedelta(minutes=5)
FIRST_RETRY = timedelta(seconds=30)
LONGEST_RETRY = timedelta(hours=4)
GIVE_UP_AFTER = 40  # attempts: about five days of retries
QUEUE = insert(OutboundMessage.__table__)


@dataclass
class Mail:
    """One mail to queue: who gets it, what kind, and both rendered parts."""

    recipient: str
    recipient_name: str | None
    kind: str
    subject: str
    text: str
    html: str
    game_id: int | None = None
    token: str | None = None
    thread: Thread | None = None  # what it answers
    auto: str = "auto-generated"
    attachments: tuple[Attachment, ...] = ()


@dataclass(frozen=True)
class Attachment:
    """A text file sent with a mail (UTF-8)."""

    filename: str
    content_type: str
    text: str

    def as_json(self) -> dict[str, str]:
        return {"filename": self.filename, "content_type": self.content_type, "text": self.text}


def enqueue(connection: Connection, settings: Settings, *mails: Mail) -> None:
    """Add mails to the outbox in the caller's transaction.

    Each row holds the headers and both parts; the MIME bytes are assembled when it is sent
    (``OutboundMessage.raw``). The rows are inserted at once, in one statement.
    """
    now = utcnow()
    rows = []
    for mail in mails:
        message_id = new_message_id(settings, mail.token)
        headers = headers_for(
            settings,
            recipient=mail.recipient,
            recipient_name=mail.recipient_name,
            subject=mail.subject,
            message_id=message_id,
            token=mail.token,
            thread=mail.thread,
            auto=mail.auto,
        )
        rows.append({
            "message_id": message_id,
            "recipient": mail.recipient,
            "kind": mail.kind,
            "subject": mail.subject,
            "headers": headers,
            "body_text": mail.text,
            "body_html": mail.html,
            "attachments": [attachment.as_json() for attachment in mail.attachments],
            "game_id": mail.game_id,
            "status": "pending",
            "attempts": 0,
            "next_attempt_at": now,
            "created_at": now,
            "envelope_key": new_envelope_key(),
        })
    if rows:
        connection.execute(QUEUE, rows)


# The rows due now, soonest first, through the partial index of the rows still to send: its own predicate
# (``TO_SEND``) is written out so that a prepared, generic plan uses the index too. Sent mail is never walked.
CLAIMABLE = (select(OutboundMessage.id).where(text(TO_SEND), OutboundMessage.next_attempt_at <= bindparam("now"))
             .order_by(OutboundMessage.next_attempt_at, OutboundMessage.id).limit(bindparam("limit")))


def leasing(due: Select) -> Update:
    """The rows ``due`` names, leased in the statement that finds them, and returned whole for sending."""
    return (update(OutboundMessage).where(OutboundMessage.id.in_(due.scalar_subquery()))
            .values(status="sending", lease_until=bindparam("until"), next_attempt_at=bindparam("until"),
                    lease_owner=bindparam("owner"), attempts=OutboundMessage.attempts + 1)
            .returning(OutboundMessage).execution_options(synchronize_session=False))


# One statement, one round trip: on PostgreSQL several workers share the rows, each skipping those another has locked.
LEASING = {"postgresql": leasing(CLAIMABLE.with_for_update(skip_locked=True)), "sqlite": leasing(CLAIMABLE)}

# Kinds of mail that answer a player's own mistake in a reply about a game or a digest: their own budget, apart
# from the answers to mail to the bare address (``app.inbound.answers`` counts those, and refusals of mail that
# may be forged, against whoever caused them), so that no such answer silences them.
ERROR_KINDS = ("error", "stale", "not-accepted", "digest-error")
ERRORS_SENT = select(func.count(OutboundMessage.id)).where(
    OutboundMessage.recipient == bindparam("recipient"), OutboundMessage.kind.in_(ERROR_KINDS),
    (OutboundMessage.game_id.is_not(None)) | (OutboundMessage.kind == "digest-error"),
    OutboundMessage.created_at >= bindparam("since"))


def error_notices_since(connection: Connection, address: str, since: datetime) -> int:
    """How many error notices about games and digests were queued for ``address`` since then (the hourly limit
    counts them)."""
    return connection.execute(ERRORS_SENT, {"recipient": address, "since": since}).scalar() or 0


class Transport(Protocol):
    def send(self, envelope_from: str, recipient: str, raw: bytes, message_id: str) -> None:
        """Deliver one message or raise; PermanentFailure when retrying cannot help."""

    def close(self) -> None:
        """End the round: close what ``send`` kept open."""


class PermanentFailure(Exception):
    """The receiving server refused for good (5xx)."""


class MaildirTransport:
    """Writes each message once into a Maildir: the default, readable with any mail client."""

    def __init__(self, path: Path) -> None:
        self.path = path
        for part in ("tmp", "new", "cur"):
            (path / part).mkdir(parents=True, exist_ok=True)

    def send(self, envelope_from: str, recipient: str, raw: bytes, message_id: str) -> None:
        key = hashlib.sha256(message_id.encode()).hexdigest()[:32]
        name = f"{key}.mirrorpost"
        if (self.path / "new" / name).exists() or any((self.path / "cur").glob(f"{name}*")):
            return  # already delivered: a retry after a crash writes nothing twice
        temporary = self.path / "tmp" / f"{name}.{os.getpid()}"
        envelope = f"Return-Path: <{envelope_from}>\r\nDelivered-To: {recipient}\r\n".encode()
        temporary.write_bytes(envelope + raw)
        os.rename(temporary, self.path / "new" / name)

    def close(self) -> None:
        pass


class SMTPTransport:
    """Sends through an SMTP relay (``SMTP_*`` settings), on one connection for a round of mails."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.client: smtplib.SMTP | None = None

    def connect(self) -> smtplib.SMTP:
        settings = self.settings
        assert settings.smtp_host
        if settings.smtp_security == "tls":
            client: smtplib.SMTP = smtplib.SMTP_SSL(
                settings.smtp_host, settings.smtp_port, timeout=60, context=ssl.create_default_context()
            )
        else:
            client = smtplib.SMTP(settings.smtp_host, settings.smtp_port, timeout=60)
        try:
            client.ehlo()
            if settings.smtp_security == "starttls":
                client.starttls(context=ssl.create_default_context())
                client.ehlo()
            if settings.smtp_username:
                client.login(settings.smtp_username, settings.smtp_password or "")
        except BaseException:
            client.close()
            raise
        return client

    def send(self, envelope_from: str, recipient: str, raw: bytes, message_id: str) -> None:
        """Returns once the relay has accepted the message (its 250 to the data)."""
        address, utf8 = wire_address(recipient)
        fresh = self.client is None
        if self.client is None:
            self.client = self.connect()
        if utf8 and not self.client.has_extn("smtputf8"):
            raise PermanentFailure("the address has characters other than ASCII before the @, and the relay "
                                   f"({self.settings.smtp_host}) does not offer SMTPUTF8, which such an address needs")
        try:
            self.client.sendmail(envelope_from, [address], crlf(raw), mail_options=["SMTPUTF8"] if utf8 else [])
        except smtplib.SMTPServerDisconnected:
            self.drop()
            if fresh:
                raise
            self.send(envelope_from, recipient, raw, message_id)  # the relay closed an idle connection: once more
        except smtplib.SMTPRecipientsRefused as error:
            code = next(iter(error.recipients.values()))[0]
            if 500 <= code < 600:
                raise PermanentFailure(str(error)) from error
            raise
        except smtplib.SMTPResponseException as error:
            if 500 <= error.smtp_code < 600 and error.smtp_code not in (500, 502, 503, 504):
                raise PermanentFailure(str(error)) from error
            raise
        except Exception:  # a lost connection, or one left mid-transaction: the next mail starts afresh
            self.drop()
            raise

    def drop(self) -> None:
        if self.client is not None:
            self.client.close()
            self.client = None

    def close(self) -> None:
        """QUIT, after the round: every mail of it is already recorded as sent."""
        if self.client is not None:
            with contextlib.suppress(OSError, smtplib.SMTPException):
                self.client.quit()
            self.drop()


def wire_address(recipient: str) -> tuple[str, bool]:
    """The recipient as SMTP carries it, its domain as A-labels (UTS-46), and whether its local part needs
    SMTPUTF8 (characters other than ASCII). Raises PermanentFailure when the domain is no valid name."""
    local, at, domain = recipient.rpartition("@")
    name = ascii_name(domain) if at and local else None
    if name is None:
        raise PermanentFailure(f"the address's domain ({domain[:80]!r}) is not a valid domain name")
    return f"{local}@{name}", not local.isascii()


def crlf(raw: bytes) -> bytes:
    """SMTP wants CRLF line ends; a bare LF would make the whole message one over-long line."""
    return raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


def make_transport(settings: Settings) -> Transport:
    return SMTPTransport(settings) if settings.smtp_host else MaildirTransport(settings.outbox_maildir)


def backoff(attempts: int) -> timedelta:
    return min(FIRST_RETRY * (2 ** min(max(attempts - 1, 0), 20)), LONGEST_RETRY)


class Dispatcher:
    """Sends what is due in the outbox; safe to run in several workers at once."""

    def __init__(self, db: Database, settings: Settings, transport: Transport, signer: TokenSigner) -> None:
        self.db = db
        self.settings = settings
        self.transport = transport
        self.signer = signer
        self.identity: WorkerIdentity | None = None  # taken on the first round
        self.dkim = load_key(settings)  # DKIM_SELECTOR and DKIM_PRIVATE_KEY_FILE: every mail signed as it goes

    def take_back_own(self) -> int:
        """Rows leased in this worker's identity by its previous process, which is gone: due again now."""
        self.identity = WorkerIdentity(self.settings.instance_path)
        table = OutboundMessage.__table__
        with self.db.engine.begin() as connection:
            return connection.execute(update(table).where(
                table.c.status == "sending", table.c.lease_owner == self.identity.name).values(
                status="pending", lease_until=None, lease_owner=None, next_attempt_at=utcnow())).rowcount

    def claim(self, limit: int) -> list[OutboundMessage]:
        """The rows due now (the soonest ``limit``), each leased to this worker by the statement that finds them: a
        row is due again when its lease runs out. They are sent in the order they were queued."""
        now = utcnow()
        with self.db.transaction() as session:
            statement = LEASING["postgresql" if is_postgres(session) else "sqlite"]
            rows = session.scalars(statement, {"now": now, "limit": limit, "until": now + LEASE,
                                               "owner": self.identity.name if self.identity else None})
            return sorted(rows, key=lambda row: row.id)

    def envelope_sender(self, row: OutboundMessage) -> str:
        """VERP: a bounce to this address names the row, and so the address that bounced; by the row's random
        envelope key (``app.outbound.envelope``), or for a row queued before keys, by its signed id."""
        settings = self.settings
        if row.envelope_key:
            return envelope_address(settings, row.envelope_key)
        return f"{settings.server_local}+{self.signer.bounce_token(row.id)}@{settings.server_domain}"

    def run_once(self, limit: int = 20) -> int:
        """Send what is due now; returns how many were sent."""
        if self.identity is None:
            self.take_back_own()
        try:
            return self.send_claimed(self.claim(limit))
        finally:
            self.transport.close()

    def send_claimed(self, rows: list[OutboundMessage]) -> int:
        sent = 0
        for row in rows:
            try:
                raw = self.dkim.sign(row.raw) if self.dkim else row.raw
            except Exception as error:  # a row that cannot become MIME must not hold up the others
                log.exception("outbound message %s could not be assembled", row.message_id)
                self.finish(row, "failed", f"could not be assembled: {error.__class__.__name__}: {error}")
                continue
            try:
                self.transport.send(self.envelope_sender(row), row.recipient, raw, row.message_id)
            except PermanentFailure as error:
                log.warning("sending %s to %r failed for good: %s", row.message_id, row.recipient, error)
                self.finish(row, "failed", str(error))
            except (TimeoutError, OSError, smtplib.SMTPException) as error:
                log.warning("sending %s to %r failed: %s", row.message_id, row.recipient, error)
                self.finish(row, "failed" if row.attempts >= GIVE_UP_AFTER else "pending", str(error))
            except Exception as error:  # unforeseen: recorded on this row, tried again later; the others go on
                log.exception("sending %s to %r failed", row.message_id, row.recipient)
                self.finish(row, "failed" if row.attempts >= GIVE_UP_AFTER else "pending",
                            f"{error.__class__.__name__}: {error}"[:1000])
            else:
                self.finish(row, "sent", None)
                sent += 1
        return sent

    def finish(self, row: OutboundMessage, status: str, error: str | None) -> None:
        """Record one attempt's outcome: a single UPDATE, committed at once, before the next mail goes."""
        now = utcnow()
        values: dict[str, object] = {"status": status, "lease_until": None, "lease_owner": None, "last_error": error}
        if status == "sent":
            values["sent_at"] = now
        elif status == "pending":
            values["next_attempt_at"] = now + backoff(row.attempts)
        with self.db.engine.begin() as connection:
            table = OutboundMessage.__table__
            connection.execute(update(table).where(table.c.id == row.id).values(**values))
