"""IMAP polling with imap-tools: fetch what is new, store it raw, and only then mark it.

A message is marked with the keyword ``$MirrorpostStored`` after it is safely
stored, so a crash in between means it is fetched again (and deduplicated by
Message-ID), never lost. The keyword leaves the mailbox's \\Seen flags to people.
A message larger than any door takes is not fetched: it stays in the mailbox,
flagged ``$MirrorpostTooLarge`` for an operator.
"""

from __future__ import annotations

import logging

from imap_tools import AND, MailBox, MailBoxUnencrypted

from app.mail import inbound
from app.mail.inbound import Received, process_stored, store
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
            if sizes.get(uid, 0) > inbound.LARGEST_MESSAGE:
                log.warning("IMAP uid %s is %s bytes, larger than the referee takes: left in the mailbox as %s",
                            uid, sizes[uid], TOO_LARGE)
                mailbox.flag(uid, TOO_LARGE, True)
                continue
            status, data = mailbox.client.uid("FETCH", uid, "(BODY.PEEK[])")
            raw = next((item[1] for item in data if isinstance(item, tuple)), None)
            if status != "OK" or raw is None:
                log.warning("IMAP fetch of uid %s failed: %s", uid, status)
                continue
            received = Received(raw, None, [settings.server_email])
            inbound_id, duplicate = store(server.db, raw, "imap", received.envelope_from, received.envelope_to)
            mailbox.flag(uid, STORED, True)
            process_stored(server.db, settings, server.signer, inbound_id, received, duplicate)
            count += 1
    return count
