"""The headers of one outbound mail, and its MIME message (standard ``email`` package, policy.default)."""

from __future__ import annotations

import base64
import hashlib
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime

from app.config import Settings
from app.db import utcnow
from app.outbound.headers import SUBJECT_LIMIT, mailbox, safe_headers, text_header
from app.outbound.policy import POLICY, WIRE


def new_message_id(settings: Settings, token: str | None) -> str:
    """A Message-ID carrying the reply token, so replies that lose the plus-address keep it."""
    return f"<{token or 'mp'}.{secrets.token_hex(8)}@{settings.server_domain}>"


def reply_address(settings: Settings, token: str | None) -> str:
    if token is None:
        return settings.server_email
    return f"{settings.server_local}+{token}@{settings.server_domain}"


@dataclass(frozen=True)
class Thread:
    """What a mail answers, so that clients show them together: a Message-ID (In-Reply-To, References),
    and for a conversation of ours the topic and start Outlook groups by (Thread-Topic, Thread-Index)."""

    message_id: str
    topic: str | None = None
    started: datetime | None = None


def game_thread(settings: Settings, game_id: int, side: str, topic: str, started: datetime) -> Thread:
    """The one thread of all mails of one game to one player: each answers the same Message-ID."""
    return Thread(f"<game-{game_id}-{side}@{settings.server_domain}>", topic, started)


FILETIME_EPOCH = datetime(1601, 1, 1, tzinfo=UTC)


def thread_index(thread: Thread) -> str | None:
    """Outlook's conversation index (MS-OXOMSG 2.2.1.3) of a thread with a start, the same for each of its
    mails: a reserved 1, the start as the top 40 bits of a FILETIME, and a GUID fixed by its Message-ID."""
    if thread.started is None:
        return None
    ticks = (thread.started - FILETIME_EPOCH) // timedelta(microseconds=1) * 10  # FILETIME: 100 ns since 1601
    guid = hashlib.sha256(thread.message_id.encode()).digest()[:16]
    return base64.b64encode(b"\x01" + (ticks >> 24).to_bytes(5, "big") + guid).decode()


def headers_for(
    settings: Settings,
    *,
    recipient: str,
    recipient_name: str | None,
    subject: str,
    message_id: str,
    token: str | None,
    thread: Thread | None,
    auto: str,
) -> list[tuple[str, str]]:
    """The headers every mail of ours carries, fixed when it is queued: each made by the ``email`` package's
    header classes from a cleaned, bounded value, and encoded (RFC 2047 where needed) and folded by them."""
    answers = thread.message_id if thread else None
    topic = thread.topic if thread else None
    headers = [
        ("From", mailbox("Mirrorpost referee", settings.server_email)),
        ("To", mailbox(recipient_name, recipient)),
        ("Reply-To", reply_address(settings, token)),
        ("Subject", text_header("Subject", subject, SUBJECT_LIMIT)),
        ("Date", format_datetime(utcnow())),
        ("Message-ID", message_id),
        ("In-Reply-To", answers),
        ("References", answers),
        ("Thread-Topic", text_header("Thread-Topic", topic, SUBJECT_LIMIT) if topic else None),
        ("Thread-Index", thread_index(thread) if thread else None),
        ("Auto-Submitted", auto),  # "auto-replied" or "auto-generated": never answered by robots
        ("X-Auto-Response-Suppress", "All"),
        ("X-Loop", settings.server_email),  # a mail that comes back with it is never answered
    ]
    return [(name, value) for name, value in headers if value]


def boundary_for(message_id: str) -> str:
    """A MIME boundary fixed by the Message-ID, so every attempt sends the same bytes.

    "=_" occurs neither in base64 nor unescaped in quoted-printable, and no text of ours can hold a
    digest of the Message-ID's random part, which nobody knows before the mail is made.
    """
    return "=_mp_" + hashlib.sha256(message_id.encode()).hexdigest()[:32]


SMTP_LINE = 998  # characters of a line, as RFC 5322 allows them on the wire


def assemble(headers: Iterable[Sequence[str]], text: str, html: str, message_id: str,
             attachments: Iterable[dict[str, str]] = ()) -> bytes:
    """The multipart/alternative message (in a multipart/mixed one when files go with it) as it goes on the
    wire (CRLF line ends).

    Built when the mail is sent rather than when it is queued: the outbox keeps the headers and both
    parts, which is all a resend needs. Header values are set raw, so policy.default writes them as
    they are instead of parsing each one again; a stored value unfit for that (queued before values were
    cleaned) is cleaned and encoded again, so it is sent rather than refused.
    """
    message = EmailMessage(policy=POLICY)
    for name, value in safe_headers(headers):
        message.set_raw(name, value)
    # 7-bit safe on the wire whatever the relay supports (no reliance on 8BITMIME). The text part stays
    # readable as quoted-printable. The HTML part is ASCII (glyphs as character references) in lines
    # under SMTP's 998 (counted between the bytes the encoder breaks lines at), so it goes as it is, a
    # quarter smaller than base64; otherwise (a long line in a passed-on message) as base64, which is far
    # cheaper to encode than quoted-printable.
    short = text.isascii() and all(len(line) <= 78 for line in text.splitlines())
    message.set_content(text, cte="7bit" if short else "quoted-printable")
    plain_html = html.isascii() and all(len(line) <= SMTP_LINE for line in html.encode("ascii").splitlines())
    message.add_alternative(html, subtype="html", cte="7bit" if plain_html else "base64")
    message.set_boundary(boundary_for(message_id))
    for number, attachment in enumerate(attachments):
        subtype = attachment["content_type"].split("/", 1)[1]
        body = attachment["text"]
        plain = body.isascii() and all(len(line) <= 78 for line in body.splitlines())
        message.add_attachment(body, subtype=subtype, filename=attachment["filename"],
                               cte="7bit" if plain else "quoted-printable")
        if number == 0:  # the alternative parts are now one part of a multipart/mixed: both boundaries fixed
            message.get_payload()[0].set_boundary(boundary_for(message_id))
            message.set_boundary(boundary_for(message_id + ".mixed"))
    return message.as_bytes(policy=WIRE)
