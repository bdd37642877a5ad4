"""Header text made safe to look up and to store, whatever bytes it held.

The parser keeps a header's 8-bit bytes as lone surrogates (``surrogateescape``), which
no database driver can encode: one such byte in a References field once made the lookup
of the mails a reply quotes raise, and the reply ended as an internal error, its move
never played. PostgreSQL also refuses NUL in text. So every header value the pipeline
reads is turned into plain text here, once, where it is read (``parse.raw_headers``), and
what is stored of a message (its outcome) goes through ``storable``:

- 8-bit bytes are read as UTF-8 (raw UTF-8 headers are what SMTPUTF8 mail carries), or as
  Latin-1 when they are not UTF-8;
- control characters (NUL included) become spaces;
- a Message-ID is only ever printable ASCII between angle brackets (``MESSAGE_ID``): ours all
  are, and one with anything else in it can name no mail of ours, so it is passed over;
- an address is kept only when it is printable (``printable_addresses``).
"""

from __future__ import annotations

import re

from app.addresses import decoded

MESSAGE_ID = re.compile(r"<[!-;=?-~]{1,990}>")  # printable ASCII but the angle brackets
CONTROLS = {code: " " for code in (*range(0x20), 0x7F)}


def readable(value: str) -> str:
    """``value`` as text: the bytes the parser kept as surrogates decoded, control characters made spaces."""
    return decoded(value).translate(CONTROLS)


def storable(text: str) -> str:
    """``text`` as every database takes it: no surrogate, no NUL."""
    return text.encode("utf-8", "replace").decode("utf-8").replace("\x00", " ")


def message_ids(values: list[str] | tuple[str, ...]) -> list[str]:
    """The Message-IDs in header values, in order: only those of printable ASCII."""
    return MESSAGE_ID.findall(" ".join(values))


def printable_addresses(addresses: list[str]) -> list[str]:
    """The addresses that are printable text (no control character, no stray byte): the only ones looked up."""
    return [address for address in addresses if address and address.isprintable()]
