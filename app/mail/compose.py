"""Building the MIME message of one outbound mail (standard ``email`` package, policy.default)."""

from __future__ import annotations

import secrets
from email.header import Header
from email.message import EmailMessage
from email.policy import default
from email.utils import format_datetime, formataddr

from app.config import Settings
from app.db import utcnow


def new_message_id(settings: Settings, token: str | None) -> str:
    """A Message-ID carrying the reply token, so replies that lose the plus-address keep it."""
    return f"<{token or 'mp'}.{secrets.token_hex(8)}@{settings.server_domain}>"


def reply_address(settings: Settings, token: str | None) -> str:
    if token is None:
        return settings.server_email
    return f"{settings.server_local}+{token}@{settings.server_domain}"


def thread_id(settings: Settings, game_id: int, side: str) -> str:
    """One Message-ID all mails of one game to one player refer to, so clients thread them."""
    return f"<game-{game_id}-{side}@{settings.server_domain}>"


def encoded(text: str) -> str:
    """A header value in ASCII: as it is, or RFC 2047-encoded when it holds other characters."""
    if text.isascii() and len(text) < 900:
        return text
    return Header(text, "utf-8").encode()


def build(
    settings: Settings,
    *,
    recipient: str,
    recipient_name: str | None,
    subject: str,
    text: str,
    html: str,
    message_id: str,
    token: str | None,
    references: list[str],
    in_reply_to: str | None,
    auto: str,
) -> EmailMessage:
    """A multipart/alternative message with the headers every mail of ours carries.

    Our header values are encoded here (RFC 2047 where needed) and set raw, so
    policy.default writes them as they are instead of parsing each one again.
    """
    message = EmailMessage(policy=default)
    headers = [
        ("From", formataddr(("Mirrorpost referee", settings.server_email))),
        ("To", formataddr((recipient_name or "", recipient), charset="utf-8")),
        ("Reply-To", reply_address(settings, token)),
        ("Subject", encoded(subject)),
        ("Date", format_datetime(utcnow())),
        ("Message-ID", message_id),
        ("In-Reply-To", in_reply_to),
        ("References", " ".join(references) if references else None),
        ("Auto-Submitted", auto),  # "auto-replied" or "auto-generated": never answered by robots
        ("X-Auto-Response-Suppress", "All"),
    ]
    for name, value in headers:
        if value:
            message.set_raw(name, value)
    # 7-bit safe on the wire whatever the relay supports (no reliance on 8BITMIME). The text part stays
    # readable as quoted-printable; the HTML part (long lines, chess glyphs) goes as base64, which is
    # far cheaper to encode and that every client reads.
    short = text.isascii() and all(len(line) <= 78 for line in text.splitlines())
    message.set_content(text, cte="7bit" if short else "quoted-printable")
    message.add_alternative(html, subtype="html", cte="base64")
    return message
