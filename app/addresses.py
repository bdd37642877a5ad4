"""Addresses read strictly: exactly one From with exactly one mailbox, or a refusal.

Mail clients show the address a header really names; a lenient parser may read
another (``From: a@x.org <evil@y.org>`` reads as a@x.org to ``parseaddr``). So the
From header is parsed by the ``email`` package's RFC 5322 parser, and any syntax
defect, a second address, a group, or a second From header is refused. The value is
measured before it is parsed (``limits``), and the parser's recursion on nested
comments is caught. The display name alone is read leniently: the address decides who sent a
message, so a name in broken bytes (an encoded word in an unknown charset, base64 without its
padding, raw 8-bit bytes) is read as well as it can be and cleaned, never a reason to refuse.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from email import errors
from email._header_value_parser import DisplayName, TokenList
from email.headerregistry import AddressHeader

from app.outbound.headers import clean_name
from app.outbound.idn import ascii_name
from app.outbound.policy import POLICY

ADDRESS_LIMIT = 254  # characters of an address (RFC 5321's path limit, less the brackets)
TOLERATED = (errors.ObsoleteHeaderDefect, errors.NonPrintableDefect)  # J. Smith; a name is cleaned anyway
DOMAIN = re.compile(r"(?=.{1,253}$)[^\s@.\[\]()<>,;:\\\"]+(?:\.[^\s@.\[\]()<>,;:\\\"]+)+", re.IGNORECASE)
LOOKS_LIKE_ADDRESS = re.compile(r"^\S*@\S*$|[<>]")
LOCAL = re.compile(r"[^\s@()<>,;:\\\[\]\x00-\x1f\x7f]{1,64}|\"[^\"\\\r\n]{1,62}\"")
SURROGATES = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True)
class Sender:
    """Who a message says it is from: the address (lower case) and a display name fit to show."""

    address: str
    name: str


class AddressError(ValueError):
    """An address or From header the referee refuses to read, with the reason."""


def sender_of(from_fields: list[str]) -> Sender:
    """The one mailbox of the one From header; raises AddressError saying what is wrong."""
    if not from_fields:
        raise AddressError("no From header")
    if len(from_fields) > 1:
        raise AddressError(f"{len(from_fields)} From headers (a message has one)")
    return mailbox(from_fields[0], "From")


def mailbox(value: str, field: str = "To") -> Sender:
    """Exactly one mailbox, parsed strictly as the header ``field`` holds it."""
    try:
        header = POLICY.header_factory(field, value)
    except (RecursionError, IndexError, ValueError, TypeError) as error:
        raise AddressError(f"the {field} header cannot be read ({error.__class__.__name__})") from None
    assert isinstance(header, AddressHeader)
    defects = [defect for defect in defects_outside_names(header._parse_tree) if not isinstance(defect, TOLERATED)]
    if defects:
        raise AddressError(f"the {field} header is not one valid address ({defects[0]})")
    if len(header.groups) != 1 or header.groups[0].display_name is not None or len(header.addresses) != 1:
        raise AddressError(f"the {field} header must name exactly one address")
    found = header.addresses[0]
    address = valid_address(found.addr_spec)
    name = clean_name(decoded(found.display_name)) if not unmended_base64(header._parse_tree) else ""
    if not name or LOOKS_LIKE_ADDRESS.search(name):
        name = clean_name(address.split("@")[0])  # a name that passes for an address is none
    return Sender(address, name)


def decoded(value: str) -> str:
    """``value`` with the 8-bit bytes the parser kept as surrogates read as UTF-8 (what SMTPUTF8 mail carries),
    or as Latin-1 when they are not UTF-8."""
    if not SURROGATES.search(value):
        return value
    try:
        raw = value.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate that stands for no byte
        raw = value.encode("utf-8", "replace")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def defects_outside_names(tree: TokenList) -> list[errors.MessageDefect]:
    """The parser's defects, less those within a display name: what is wrong with the header's addresses and
    its structure (a broken name is read as it can be, ``mailbox``)."""
    found = list(tree.defects)
    for token in tree:
        if isinstance(token, TokenList) and not isinstance(token, DisplayName):
            found += defects_outside_names(token)
    return found


def unmended_base64(tree: TokenList) -> bool:
    """Whether a display name holds base64 of a length no padding mends: the parser leaves its letters as they
    were, which are no name."""
    return any(isinstance(defect, errors.InvalidBase64LengthDefect) for defect in tree.all_defects)


def valid_address(text: str) -> str:
    """A plain ``local@domain`` address the server can write to, lower case, its domain as its A-labels (UTS-46,
    ``app.outbound.idn``: one address however its domain is written); raises AddressError otherwise. A local
    part in other characters than ASCII is refused: no From header the referee reads can carry one (the
    ``email`` parser finds it a defect), and it could be written to only through relays that offer SMTPUTF8."""
    address = text.strip()
    if len(address) > ADDRESS_LIMIT or not address.isprintable():
        raise AddressError("not an address")
    local, at, domain = address.rpartition("@")
    if not at or not LOCAL.fullmatch(local) or not DOMAIN.fullmatch(domain):
        raise AddressError(f"{address[:80]!r} is not an address")
    if not local.isascii():
        raise AddressError(f"{address[:80]!r} is not an address the referee can write to: the part before the @ "
                           "must be in ASCII letters, digits and punctuation")
    name = ascii_name(domain)
    if name is None:
        raise AddressError(f"{address[:80]!r} is not an address: its domain is not a valid domain name")
    return f"{local.lower()}@{name}"
