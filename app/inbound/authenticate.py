"""Who sent a message and which game it answers: reply tokens, the sender, Authentication-Results."""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.config import Settings
from app.inbound.parse import ParsedMail
from app.tokens import ReplyToken, TokenSigner


@dataclass
class Identity:
    token: ReplyToken | None
    forged: bool
    bounce_of: int | None


def identify(parsed: ParsedMail, signer: TokenSigner, settings: Settings) -> Identity:
    """The reply token (recipient addresses first, then In-Reply-To and References)."""
    ours = [address for address in parsed.recipients if address.endswith("@" + settings.server_domain)]
    for address in ours:
        bounce = signer.find_bounce(address)
        if bounce is not None:
            return Identity(None, False, bounce)
    forged = 0
    for source in (" ".join(ours), " ".join(parsed.references)):
        tokens, bad = signer.find_reply_tokens(source)
        forged += bad
        if tokens:
            return Identity(tokens[0], False, None)
    return Identity(None, forged > 0, None)


def auth_results_pass(parsed: ParsedMail, settings: Settings) -> bool:
    """Whether the topmost Authentication-Results of our trusted upstream says spf or dkim passed."""
    for text in parsed.headers.get("authentication-results", ()):
        authserv = text.split(";", 1)[0].strip().split()[0].lower() if text.strip() else ""
        if settings.authserv_id and authserv != settings.authserv_id.lower():
            continue  # only the header our own border MTA added counts
        return bool(re.search(r"\b(spf|dkim|dmarc)\s*=\s*pass\b", text, re.IGNORECASE))
    return False
