"""IMAP polling with imap-tools: fetch what is new, store it raw, and only then mark it.

A message is marked with the keyword ``$MirrorpostStored`` after it is safely
stored, so a crash in between means it is fetched again (and deduplicated by
Message-ID), never lost. The keyword leaves the mailbox's \\Seen flags to people.
IMAP cannot refuse a message larger than any door takes, as SMTP does: of such a
message only the header is fetched and stored, so that its sender is answered "too
large" (or nothing, if it came from a robot); it stays in the mailbox, flagged
``$MirrorpostTooLarge`` as well, for an operator.
"""

from __future__ import annotations

import logging

from imap_tools import AND, BaseMailBox, MailBox, MailBoxUnencrypted

from app.inbound import receive as inbound
from app.inbound.pipeline import Received
from app.inbound.receive import process_stored, store
from app.server import Server

log = logging.getLogger(__name__)
STORED = "$MirrorpostStored"
TOO_LARGE = "$MirrorpostTooLarge"


def poll(server: Server, limit: int = 100) -> int:
    """Store (and process) every message in the folder not yet stored; returns how many."""
    settings = server.settings
    if not settings.imap_host:
        return 0
    kind = MailBox if settings.imap_ssl else MailBoxUnencrypted
    count = 0
    with kind(settings.imap_host, settings.imap_port).login(
        settings.imap_user or "", settings.imap_password or "", settings.imap_folder
    ) as mailbox:
        uids = mailbox.uids(AND(no_keyword=[STORED, TOO_LARGE]))[:limit]
        sizes = {message.uid: message.size_rfc822 for message in mailbox.fetch(
            uid_list=uids, headers_only=True, mark_seen=False, bulk=True)} if uids else {}
        for uid in uids:
            size = sizes.get(uid, 0)
            too_large = size > inbound.LARGEST_MESSAGE
            raw = fetch(mailbox, uid, "BODY.PEEK[HEADER]" if too_large else "BODY.PEEK[]")
            if raw is None:
                continue
            if too_large:
                log.warning("IMAP uid %s is %s bytes, larger than the referee takes: left in the mailbox as %s",
                            uid, size, TOO_LARGE)
                if len(raw) > inbound.LARGEST_MESSAGE:  # a header that size is nobody's reply
                    mailbox.flag(uid, TOO_LARGE, True)
                    continue
            received = Received(raw, None, [settings.server_email], size if too_large else None)
            inbound_id, duplicate = store(server.db, raw, "imap", received.envelope_from, received.envelope_to,
                                          received.full_size)
            mailbox.flag(uid, [STORED, TOO_LARGE] if too_large else STORED, True)  # once stored, never before
            process_stored(server.db, settings, server.signer, inbound_id, received, duplicate)
            count += 1
    return count


def fetch(mailbox: BaseMailBox, uid: str, item: str) -> bytes | None:
    """One item of one message (the whole message, or its header), leaving \\Seen as it is."""
    status, data = mailbox.client.uid("FETCH", uid, f"({item})")
    raw = next((part[1] for part in data if isinstance(part, tuple)), None)
    if status != "OK" or raw is None:
        log.warning("IMAP fetch of %s of uid %s failed: %s", item, uid, status)
        return None
    return raw
