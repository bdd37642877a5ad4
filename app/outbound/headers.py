"""Every value that reaches a header or a player's name: cleaned, bounded, and encoded by the ``email`` package.

A name or subject may come from anyone's mail. Python's header folding breaks lines
at every character ``str.splitlines`` breaks at (CR, LF, VT, FF, the file, group and
record separators, NEL, U+2028, U+2029), so one such character in a display name
would start a header of the sender's choosing in someone else's mail. Here every
control, format and separator character becomes a space, spaces run together, and
the value is cut to a bound; headers are then made and folded by the ``email``
package's own header classes, never by joining strings.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from email.header import Header
from email.headerregistry import Address
from functools import lru_cache

from app.outbound.idn import ascii_name
from app.outbound.policy import POLICY, WIRE

NAME_LIMIT = 100  # characters of a player's name (the column's size)
SUBJECT_LIMIT = 250  # characters of a subject or thread topic
TEXT_LIMIT = 900  # characters of any other header value we make
# Categories that never belong in a header value or a name: controls, format characters (bidi overrides
# included), surrogates (from undecodable mail), unassigned code points, line and paragraph separators.
REMOVED = frozenset({"Cc", "Cf", "Cs", "Cn", "Zl", "Zp"})
KEPT_FORMAT = frozenset({"\u200c", "\u200d"})  # zero-width (non-)joiners: parts of names and emoji
# A header value as we set it raw: printable ASCII, folded only by CRLF followed by a space or tab.
ADDRESS_HEADERS = frozenset({"from", "to", "cc", "reply-to", "sender"})
TRAILING_ADDRESS = re.compile(r"<([^<>\s]+@[^<>\s]+)>\s*$")
SAFE_RAW = re.compile(r"[\x20-\x7e\t]*(?:\r\n[ \t][\x20-\x7e\t]*)*")


def clean(value: object, limit: int = TEXT_LIMIT) -> str:
    """One line of printable text, at most ``limit`` characters: what a header or a name may hold."""
    text = str(value)
    if not text.isascii() or not text.isprintable():
        text = "".join(" " if _removed(char) else char for char in text)
    text = " ".join(text.split())
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "\u2026"
    return text


def _removed(char: str) -> bool:
    return unicodedata.category(char) in REMOVED and char not in KEPT_FORMAT


def clean_name(value: object) -> str:
    """A player's name as it may be shown in a header or in a mail: one bounded line, in which nothing reads
    as an RFC 2047 encoded word (mail readers decode one even inside a quoted display name)."""
    return clean(str(value).replace("=?", "= ?"), NAME_LIMIT)


def clean_subject(value: object) -> str:
    return clean(value, SUBJECT_LIMIT)


def folded(name: str, value: object) -> str:
    """The header's value as the ``email`` package encodes (RFC 2047) and folds it for the wire."""
    text = POLICY.header_factory(name, value).fold(policy=WIRE)
    value = text[len(name) + 1 : -2]  # "Name:" before, CRLF after
    return value.removeprefix("\r\n").lstrip(" \t")  # a first word too long for the first line


def mailbox(display_name: str | None, address: str) -> str:
    """``Name <address>``, the name cleaned, as an Address header holds it."""
    return _mailbox(clean_name(display_name or ""), clean(address, 320))


@lru_cache(maxsize=1024)  # the same players get mail after mail; keys are cleaned, so bounded
def _mailbox(name: str, address: str) -> str:
    """The domain as its A-labels (an encoded word is no domain); one that is no name is left to fail when sent."""
    local, _, domain = address.rpartition("@")
    return folded("To", Address(name, local, ascii_name(domain) or domain))


def text_header(name: str, value: object, limit: int = TEXT_LIMIT) -> str:
    """An unstructured header (Subject, Thread-Topic, ...), cleaned, bounded, and encoded and folded by the
    ``email`` package's ``Header``: folded at spaces within 78 columns, so it goes out as made and reads back
    exactly (policy.default's own refolding of a long value starts it on a line of its own, which readers
    see as a leading space). Text that looks like an encoded word is encoded, so it reads back as written."""
    return _encoded(name, clean(value, limit))


@lru_cache(maxsize=1024)  # subjects recur (each move's, each notice's); keys are cleaned, so bounded
def _encoded(name: str, text: str) -> str:
    charset = "us-ascii" if text.isascii() and "=?" not in text else "utf-8"
    return Header(text, charset, header_name=name).encode(linesep="\r\n")


def safe_raw(name: str, value: str) -> str:
    """A stored header value fit to set raw: as it is when it already is (every value we make), else
    decoded, cleaned and made again (a row queued before values were cleaned)."""
    if SAFE_RAW.fullmatch(value):
        return value
    if name.lower() in ADDRESS_HEADERS:  # we wrote "name <address>": the address is the one at the end
        found = TRAILING_ADDRESS.search(value)
        if found is None:
            return mailbox("", clean(value, 320))
        return mailbox(value[: found.start()].strip().strip('"'), found.group(1))
    decoded = str(POLICY.header_factory(name, clean(value)))
    return text_header(name, decoded)


def safe_headers(headers: Sequence[Sequence[str]]) -> list[tuple[str, str]]:
    """``safe_raw`` for each stored header; a name that is not a plain token is left out."""
    return [(name, safe_raw(name, value)) for name, value in headers if re.fullmatch(r"[A-Za-z0-9-]{1,76}", name)]
