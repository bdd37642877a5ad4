"""Parsing raw RFC 5322 bytes into the few things the pipeline needs.

Uses the standard ``email`` package with ``policy.default``, after the header has
been measured on the raw bytes (``limits``): a header beyond any mail client's is not
parsed at all. The From header is read strictly (``addresses``). Bodies in unknown
or broken charsets fall back instead of failing, HTML-only mail is turned into text
with the quoted parts of common clients left out (``html_text``), and the text read
for orders is cut to a bound. Each step counts against the message's ``Budget``.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass, field, replace
from email.feedparser import FeedParser
from email.message import EmailMessage, Message
from email.utils import getaddresses

from app.addresses import AddressError, sender_of
from app.inbound.budget import Budget, OverBudget
from app.inbound.html_text import html_to_text
from app.inbound.limits import (
    PART_HEADER_LIMIT,
    PART_LIMIT,
    TEXT_LIMIT,
    HeaderFacts,
    head_only,
    header_facts,
    part_fields_problem,
)
from app.inbound.safe import message_ids, printable_addresses, readable
from app.inbound.variables import Unresolved
from app.outbound.policy import POLICY

CHARSET_ALIASES = {"gb2312": "gb18030", "gbk": "gb18030", "x-gbk": "gb18030", "ks_c_5601-1987": "cp949",
                   "iso-8859-8-i": "iso-8859-8", "windows-874": "cp874", "unknown-8bit": "latin-1",
                   "x-unknown": "latin-1", "us-ascii": "utf-8", "ascii": "utf-8"}


@dataclass
class ParsedMail:
    message: Message
    message_id: str | None
    sender: str | None
    sender_name: str
    subject: str
    recipients: list[str] = field(default_factory=list)
    references: list[str] = field(default_factory=list)
    text: str = ""
    from_html: bool = False
    headers: dict[str, list[str]] = field(default_factory=dict)  # ``raw_headers``: as received, by lower-case name
    shown_html: Message | None = None  # the HTML alternative of the text part read, which the reader was shown
    refused: str | None = None  # why the message is not read (its header), if it is not
    sender_problem: str | None = None  # why no sender was read from its From header, if none was
    unread_html: str | None = None  # why its HTML, the only text it has, was not read (styles not worked out)


def decode_payload(part: Message) -> str:
    """A text part's content, whatever its declared charset claims."""
    payload = part.get_payload(decode=True)
    if payload is None:
        payload = str(part.get_payload()).encode("utf-8", "replace")
    charset = (part.get_content_charset() or "utf-8").lower()
    charset = CHARSET_ALIASES.get(charset, charset)
    try:
        codecs.lookup(charset)
    except LookupError:
        charset = "utf-8"
    try:
        return payload.decode(charset)
    except UnicodeDecodeError:
        try:
            return payload.decode("utf-8")
        except UnicodeDecodeError:
            return payload.decode("latin-1")


def best_text(message: Message, budget: Budget | None = None, raw: bytes | None = None) -> tuple[str, bool]:
    """The text/plain body (its parts in order, when a file stands between them), or the HTML body as text;
    never an attachment, a file shown inline, or a forwarded message.

    The HTML part is decoded only when there is no text to read (a reply's HTML part usually quotes
    our whole move request). At most ``PART_LIMIT`` parts are looked at, and a part whose header holds
    a field too long to parse is passed over, as is a file (``is_file``). When neither says anything, the
    body of a multipart/alternative in which no part was found is read (``unsplit_text``).
    The text is cut to ``TEXT_LIMIT`` characters.
    """
    budget = budget or Budget()
    plains: list[str] = []
    html_part: Message | None = None
    unsplit: Message | None = None
    waiting: list[Message] = [message]  # parts to look at, the next last: the message's own, in order
    for number in range(PART_LIMIT):
        if not waiting:
            break
        part = waiting.pop()
        if number and any(len(value) > PART_HEADER_LIMIT for _name, value in part.raw_items()):
            continue
        kind = part.get_content_type()  # read once: each call parses the part's Content-Type again
        if kind == "multipart/alternative" and unsplit is None:
            unsplit = part
        if kind.startswith("multipart/"):
            if part.is_multipart():
                waiting += reversed(part.get_payload())
            continue
        if kind == "message/rfc822" or is_file(part):
            continue  # a forwarded message or a file: nothing in it is the player's new text
        if kind == "text/plain":  # each, in order: Apple Mail's text before and after a file it shows inline
            plains.append(decode_payload(part))
            budget.decode(len(plains[-1]), "decoding the text part")
        elif kind == "text/html" and html_part is None:
            html_part = part
    plain = "\n".join(plains) if plains else None
    if plain is not None and plain.strip():
        return plain[:TEXT_LIMIT], False
    if html_part is not None:
        html = decode_payload(html_part)
        budget.decode(len(html), "decoding the HTML part")
        text = html_to_text(html, quote_mark=">")
        budget.check("turning HTML into text")
        if text.strip() or unsplit is None:
            return text[:TEXT_LIMIT], True
    if unsplit is not None:
        text = unsplit_text(unsplit, raw)
        budget.decode(len(text), "decoding the body of a multipart")
        if text.strip():
            return text[:TEXT_LIMIT], False
    return (plain or "")[:TEXT_LIMIT], False


def is_file(part: Message) -> bool:
    """Whether a part is a file: an attachment, or a part with a file name, inline or not (Apple Mail sends the
    files it shows in the text inline, each with its name: a text file among them is no part of the text)."""
    try:
        return part.get_content_disposition() == "attachment" or part.get_filename() is not None or \
            part.get_param("name") not in (None, "")
    except (ValueError, IndexError, TypeError, LookupError):  # parameters too broken to read: not the text
        return True


def html_alternative(message: Message) -> Message | None:
    """The HTML part of the first multipart/alternative that also holds a text part: what a client shows instead
    of that text (at most ``PART_LIMIT`` parts looked at)."""
    for number, part in enumerate(message.walk()):
        if number >= PART_LIMIT:
            return None
        if part.get_content_type() != "multipart/alternative" or not part.is_multipart():
            continue
        children = [child for child in part.get_payload() if not is_file(child)]
        kinds = [child.get_content_type() for child in children]
        if "text/plain" in kinds and "text/html" in kinds:
            return children[kinds.index("text/html")]
    return None


def unsplit_text(part: Message, raw: bytes | None = None) -> str:
    """What a multipart says when no part was found in it (no boundary, or none in the body: a client that
    never wrapped its text in the parts it announced): its whole body. The text around its parts (the preamble
    and epilogue, or all of the body when a delimiter in ``raw``, the message, ends a multipart with no part)
    is never read: no mail client shows it."""
    if part.is_multipart():
        return ""
    try:
        boundary = part.get_boundary()
    except (ValueError, IndexError, TypeError, LookupError):
        boundary = None
    if boundary and raw is not None and f"\n--{boundary}".encode("utf-8", "surrogateescape") in raw:
        return ""  # its closing delimiter, and no part before it: what the parser kept is the preamble
    return decode_payload(part)


def _header(message: Message, name: str) -> str:
    try:
        value = message.get(name)
        return str(value) if value is not None else ""
    except (ValueError, IndexError, TypeError):  # a malformed header
        raw = message.get_all(name, failobj=[]) if hasattr(message, "get_all") else []
        return str(raw[0]) if raw else ""


def raw_headers(message: Message) -> dict[str, list[str]]:
    """Every header's values as received (unfolded, not RFC 2047 decoded), by lower-case name, made text
    (``safe.readable``: 8-bit bytes decoded, control characters made spaces).

    For headers read only for their machine parts (addresses, Message-IDs), which RFC 2047 never
    encodes: this skips policy.default's parser, the costliest part of reading a message.
    """
    found: dict[str, list[str]] = {}
    for name, value in message.raw_items():
        found.setdefault(readable(name).lower(), []).append(" ".join(readable(str(value)).split()))
    return found


def subject_of(message: Message, headers: dict[str, list[str]]) -> str:
    """The Subject, decoded. Most carry no RFC 2047 encoded word: those are read as received (unfolded,
    spaces run together), which is what the standard policy makes of them but for the spaces. Only
    the others go through its parser, which costs far more, and each reply's subject is new to the
    header memo."""
    values = headers.get("subject", ())
    if len(values) == 1 and "=?" not in values[0]:
        return values[0]
    return " ".join(readable(_header(message, "Subject")).split())


def addresses(headers: dict[str, list[str]], *names: str) -> list[str]:
    values = [value for name in names for value in headers.get(name.lower(), ())]
    try:
        return printable_addresses([address.lower() for _, address in getaddresses(values)])
    except (RecursionError, IndexError, ValueError):  # nested comments, and the like: no address read
        return []


def feed_whole(raw: bytes) -> Message:
    """``message_from_bytes``, fed in one piece: it would copy the message into a file object and feed
    the parser from it 8 KB at a time. Bytes that are not ASCII are kept as surrogates, as it keeps them."""
    parser = FeedParser(policy=POLICY)
    parser.feed(raw.decode("ascii", "surrogateescape"))
    return parser.close()


def parse(raw: bytes, envelope_to: list[str] | None = None, budget: Budget | None = None,
          header_only: bool = False) -> ParsedMail:
    """Everything the pipeline reads of a message. ``header_only``: the body is not read (a message too
    large to read). A header beyond the limits is not parsed: the result says why (``refused``)."""
    budget = budget or Budget()
    facts = header_facts(raw)
    if facts.problem is None and not header_only:
        facts = replace(facts, problem=part_fields_problem(raw))
    if facts.problem is not None:
        return refused_mail(facts, envelope_to)
    message = feed_whole(head_only(raw) if header_only else raw)
    budget.check("parsing the message")
    assert isinstance(message, EmailMessage | Message)
    headers = raw_headers(message)
    own_ids = message_ids(headers.get("message-id", ()))
    references = [*message_ids(headers.get("in-reply-to", ())),
                  *reversed(message_ids(headers.get("references", ())))]
    unread_html = None
    try:
        text, from_html = ("", False) if header_only else best_text(message, budget, raw)
    except Unresolved as error:  # an HTML-only message whose styles cannot be worked out: nothing of it is read
        text, from_html, unread_html = "", True, str(error)
    text = text.replace("\x00", "")  # unseen, and no database stores it in text
    recipients = printable_addresses([address.lower() for address in (envelope_to or [])])
    recipients += addresses(headers, "Delivered-To", "X-Original-To", "Envelope-To", "To", "Cc")
    sender, sender_name, problem = read_sender(facts)
    return ParsedMail(
        message=message,
        message_id=own_ids[0] if own_ids else None,
        sender=sender,
        sender_name=sender_name,
        subject=subject_of(message, headers),
        recipients=recipients,
        references=references,
        text=text,
        from_html=from_html,
        headers=headers,
        sender_problem=problem,
        unread_html=unread_html,
        shown_html=None if from_html or not text.strip() else html_alternative(message),
    )


def read_sender(facts: HeaderFacts) -> tuple[str | None, str, str | None]:
    """(address, display name, why there is none) from the From fields, read strictly. Bytes that are not
    UTF-8 stay stray bytes: an address with one is refused, a name with one read as Latin-1 (``addresses``)."""
    try:
        found = sender_of([value.decode("utf-8", "surrogateescape") for value in facts.from_fields])
    except AddressError as error:
        return None, "", readable(str(error))
    return found.address, found.name, None


def refused_mail(facts: HeaderFacts, envelope_to: list[str] | None) -> ParsedMail:
    """A message whose header is not parsed: its sender (when the one From field is readable) and the
    few machine fields screening reads, taken from the raw bytes."""
    sender, sender_name, problem = read_sender(facts)
    return ParsedMail(message=EmailMessage(policy=POLICY), message_id=None, sender=sender,
                      sender_name=sender_name, subject="", recipients=printable_addresses(list(envelope_to or [])),
                      headers=facts.fields, refused=facts.problem, sender_problem=problem)


__all__ = ["OverBudget", "ParsedMail", "best_text", "html_to_text", "parse"]
