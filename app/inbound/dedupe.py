"""What makes two deliveries the same message: its Message-ID, its sender and its content together.

A Message-ID alone is anyone's to reuse: a stranger's mail with a player's Message-ID
would have made the player's own mail a "redelivery", dropped without a word. The key is
a digest of the Message-ID, the From field and the body (line ends made alike), so the
same message delivered twice, by one door or two, is one message, and anything else that
shares its Message-ID is a new one. A message without a Message-ID is keyed by all its bytes.
"""

from __future__ import annotations

import hashlib

from app.inbound.limits import header_block, split_fields


def message_key(raw: bytes) -> str:
    """The key a stored message is deduplicated by (``sha256:`` and 64 hex digits)."""
    head = header_block(raw)
    fields = {}
    for name, lines in split_fields(head):
        if name in (b"message-id", b"from") and name not in fields:
            fields[name] = b" ".join(line.strip() for line in lines)
    message_id = fields.get(b"message-id", b"")
    if not message_id:
        return "sha256:" + hashlib.sha256(raw).hexdigest()
    body = raw[len(head):].lstrip(b"\r\n").replace(b"\r\n", b"\n")
    digest = hashlib.sha256()
    for part in (message_id, fields.get(b"from", b""), body):
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return "sha256:" + digest.hexdigest()
