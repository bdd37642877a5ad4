"""Building the MIME message of one outbound mail (standard ``email`` package, policy.default)."""

from __future__ import annotations

import secrets
from email.headerregistry import Address
from email.message import EmailMessage
from email.policy import default
from email.utils import format_datetime

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
    """A multipart/alternative message with the headers every mail of ours carries."""
    message = EmailMessage(policy=default)
    message["From"] = Address("Mirrorpost referee", addr_spec=settings.server_email)
    message["To"] = Address(recipient_name or "", addr_spec=recipient)
    message["Reply-To"] = reply_address(settings, token)
    message["Subject"] = subject
    message["Date"] = format_datetime(utcnow())
    message["Message-ID"] = message_id
    if in_reply_to:
        message["In-Reply-To"] = in_reply_to
    if references:
        message["References"] = " ".join(references)
    message["Auto-Submitted"] = auto  # "auto-replied" or "auto-generated": never answered by robots
    message["X-Auto-Response-Suppress"] = "All"
    message.set_content(text)
    message.add_alternative(html, subtype="html")
    return message
