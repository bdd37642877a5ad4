"""Who sent a message and which game it answers: reply tokens, the sender, Authentication-Results."""

from __future__ import annotations

import re
from dataclasses import dataclass

import authres

from app.config import Settings
from app.games.digest.rows import find_key as find_digest_key
from app.inbound.parse import ParsedMail
from app.outbound.envelope import find_envelope_key
from app.tokens import ReplyToken, TokenSigner


@dataclass
class Identity:
    token: ReplyToken | None
    forged: bool
    bounce_of: int | None  # a bounce to the envelope sender of mail queued before envelope keys (its row id)
    bounce_key: str | None = None  # a bounce to a mail's envelope sender: the mail's envelope key
    digest: str | None = None  # a reply to a daily digest: its key, naming the digest row


def identify(parsed: ParsedMail, signer: TokenSigner, settings: Settings) -> Identity:
    """The reply token, or a digest's key (recipient addresses first, then In-Reply-To and References)."""
    ours = [address for address in parsed.recipients if address.endswith("@" + settings.server_domain)]
    for address in ours:
        key = find_envelope_key(address)
        if key is not None:
            return Identity(None, False, None, key)
        bounce = signer.find_bounce(address)
        if bounce is not None:
            return Identity(None, False, bounce)
    forged = 0
    for source in (" ".join(ours), " ".join(parsed.references)):
        tokens, bad = signer.find_reply_tokens(source)
        forged += bad
        if tokens:
            return Identity(tokens[0], False, None)
        digest = find_digest_key([source])
        if digest is not None:
            return Identity(None, False, None, digest=digest)
    return Identity(None, forged > 0, None)


def auth_results_problem(parsed: ParsedMail, settings: Settings) -> str | None:
    """Why the message is not proven to come from its From domain, or None when it is.

    Only the topmost Authentication-Results header of our own border MTA (``AUTHSERV_ID``) counts,
    read by ``authres`` (RFC 8601; comments are comments). It proves the sender when DMARC passed for the
    From domain, or SPF or DKIM passed for that very domain (strict alignment): a pass for another
    domain proves nothing about the From address.
    """
    domain = (parsed.sender or "").rpartition("@")[2]
    wanted = (settings.authserv_id or "").lower()
    for text in parsed.headers.get("authentication-results", ()):
        if not wanted or authserv_id_of(text) != wanted:
            continue  # only the header our own border MTA added counts
        try:
            header = authres.AuthenticationResultsHeader.parse_value(text)
        except Exception:  # authres raises its own SyntaxError and others on a malformed value
            return "our mail server's Authentication-Results could not be read"  # never a lower one instead
        return None if any(_aligned_pass(result, domain) for result in header.results) else \
            f"no DMARC, SPF or DKIM pass for {domain or 'the From domain'}"
    return "no Authentication-Results from our mail server"


def authserv_id_of(value: str) -> str:
    """The authserv-id an Authentication-Results value begins with (RFC 8601: before the first ``;``, a
    comment in parentheses aside), read without parsing the rest: the topmost header of our border MTA is
    found even when its results are written in a way the parser refuses, so that a header a sender added
    below it is never read in its place."""
    head = re.sub(r"\([^()]*\)", " ", value.split(";", 1)[0])
    return (head.split() or [""])[0].lower()


def _aligned_pass(result: object, domain: str) -> bool:
    """A pass for the From domain itself: DMARC's header.from, SPF's smtp.mailfrom, DKIM's header.d."""
    method = str(getattr(result, "method", "")).lower()
    if str(getattr(result, "result", "")).lower() != "pass" or not domain:
        return False
    wanted = {"dmarc": ("header", "from"), "spf": ("smtp", "mailfrom"), "dkim": ("header", "d")}.get(method)
    if wanted is None:
        return False
    for prop in getattr(result, "properties", ()):
        if (str(prop.type).lower(), str(prop.name).lower()) == wanted:
            return str(prop.value).lower().rpartition("@")[2].strip(".") == domain
    return False
