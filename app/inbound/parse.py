"""Parsing raw RFC 5322 bytes into the few things the pipeline needs.

Uses the standard ``email`` package with ``policy.default``. Bodies in unknown
or broken charsets fall back instead of failing, and HTML-only mail is turned
into text with the quoted parts of common clients left out.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field
from email.feedparser import FeedParser
from email.message import EmailMessage, Message
from email.utils import getaddresses, parseaddr
from html.parser import HTMLParser
from typing import ClassVar

from app.outbound.policy import POLICY

CHARSET_ALIASES = {"gb2312": "gb18030", "gbk": "gb18030", "x-gbk": "gb18030", "ks_c_5601-1987": "cp949",
                   "iso-8859-8-i": "iso-8859-8", "windows-874": "cp874", "unknown-8bit": "latin-1",
                   "x-unknown": "latin-1", "us-ascii": "utf-8", "ascii": "utf-8"}
MESSAGE_ID = re.compile(r"<[^<>\s]+>")


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


class _TextFromHTML(HTMLParser):
    """HTML to plain text, leaving out quoted parts (blockquotes, Gmail/Outlook/Thunderbird quote blocks)."""

    BLOCKS: ClassVar[frozenset[str]] = frozenset(
        {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "table", "ul", "ol", "pre", "hr"}
    )
    SKIP: ClassVar[frozenset[str]] = frozenset({"style", "script", "head", "title"})
    QUOTE_CLASSES: ClassVar[frozenset[str]] = frozenset(
        {"gmail_quote", "gmail_attr", "moz-cite-prefix", "yahoo_quoted", "protonmail_quote", "gmail_extra"}
    )
    QUOTE_IDS: ClassVar[frozenset[str]] = frozenset(
        {"divrplyfwdmsg", "appendonsend", "x_divrplyfwdmsg", "mail-editor-reference-message-container"}
    )

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip_depth = 0
        self.quote_depth = 0
        self.stopped = False
        self.stack: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.stopped:
            return
        attributes = {name: (value or "") for name, value in attrs}
        classes = set(attributes.get("class", "").lower().split())
        if classes & self.QUOTE_CLASSES or attributes.get("id", "").lower() in self.QUOTE_IDS:
            self.stopped = True  # everything from here on is the quoted original
            return
        if tag in self.SKIP:
            self.skip_depth += 1
        if tag == "blockquote":
            self.quote_depth += 1
        if tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if self.stopped:
            return
        if tag in self.SKIP and self.skip_depth:
            self.skip_depth -= 1
        if tag == "blockquote" and self.quote_depth:
            self.quote_depth -= 1
        if tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if self.stopped or self.skip_depth or self.quote_depth:
            return
        self.parts.append(data.replace("\xa0", " "))

    def parts_text(self) -> str:
        return "".join(self.parts)


def html_to_text(html: str) -> str:
    parser = _TextFromHTML()
    parser.feed(html)
    parser.close()
    text = re.sub(r"[ \t]+\n", "\n", parser.parts_text())
    lines = [re.sub(r"[ \t]+", " ", line).strip() for line in text.splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def best_text(message: Message) -> tuple[str, bool]:
    """The text/plain body, or the HTML body as text; never an attachment or a forwarded message.

    The HTML part is decoded only when there is no text to read (a reply's HTML part usually quotes
    our whole move request).
    """
    plain: str | None = None
    html_part: Message | None = None
    for part in message.walk():
        kind = part.get_content_type()  # read once: each call parses the part's Content-Type again
        if kind.startswith("multipart/") or kind == "message/rfc822" or part.get_content_disposition() == "attachment":
            continue
        if kind == "text/plain" and plain is None:
            plain = decode_payload(part)
        elif kind == "text/html" and html_part is None:
            html_part = part
    if plain is not None and plain.strip():
        return plain, False
    if html_part is not None:
        return html_to_text(decode_payload(html_part)), True
    return plain or "", False


def _header(message: Message, name: str) -> str:
    try:
        value = message.get(name)
        return str(value) if value is not None else ""
    except (ValueError, IndexError, TypeError):  # a malformed header
        raw = message.get_all(name, failobj=[]) if hasattr(message, "get_all") else []
        return str(raw[0]) if raw else ""


def raw_headers(message: Message) -> dict[str, list[str]]:
    """Every header's values as received (unfolded, not decoded), by lower-case name.

    For headers read only for their machine parts (addresses, Message-IDs), which RFC 2047 never
    encodes: this skips policy.default's parser, the costliest part of reading a message.
    """
    found: dict[str, list[str]] = {}
    for name, value in message.raw_items():
        found.setdefault(name.lower(), []).append(" ".join(str(value).split()))
    return found


def subject_of(message: Message, headers: dict[str, list[str]]) -> str:
    """The Subject, decoded. Most carry no RFC 2047 encoded word: those are read as received (unfolded,
    spaces run together), which is what the standard policy makes of them but for the spaces. Only
    the others go through its parser, which costs far more, and each reply's subject is new to the
    header memo."""
    values = headers.get("subject", ())
    if len(values) == 1 and "=?" not in values[0]:
        return values[0]
    return _header(message, "Subject")


def addresses(headers: dict[str, list[str]], *names: str) -> list[str]:
    values = [value for name in names for value in headers.get(name.lower(), ())]
    return [address.lower() for _, address in getaddresses(values) if address]


def feed_whole(raw: bytes) -> Message:
    """``message_from_bytes``, fed in one piece: it would copy the message into a file object and feed
    the parser from it 8 KB at a time. Bytes that are not ASCII are kept as surrogates, as it keeps them."""
    parser = FeedParser(policy=POLICY)
    parser.feed(raw.decode("ascii", "surrogateescape"))
    return parser.close()


def parse(raw: bytes, envelope_to: list[str] | None = None) -> ParsedMail:
    message = feed_whole(raw)
    assert isinstance(message, EmailMessage | Message)
    headers = raw_headers(message)
    name, sender = parseaddr(_header(message, "From"))
    message_ids = MESSAGE_ID.findall(" ".join(headers.get("message-id", ())))
    references = MESSAGE_ID.findall(" ".join(headers.get("in-reply-to", ()))) + list(
        reversed(MESSAGE_ID.findall(" ".join(headers.get("references", ()))))
    )
    text, from_html = best_text(message)
    recipients = [address.lower() for address in (envelope_to or [])]
    recipients += addresses(headers, "Delivered-To", "X-Original-To", "Envelope-To", "To", "Cc")
    return ParsedMail(
        message=message,
        message_id=message_ids[0] if message_ids else None,
        sender=sender.lower() if sender and "@" in sender else None,
        sender_name=name.strip() or (sender.split("@")[0] if sender else ""),
        subject=subject_of(message, headers),
        recipients=recipients,
        references=references,
        text=text,
        from_html=from_html,
        headers=headers,
    )
