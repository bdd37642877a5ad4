"""Whether a mail is proven to come from its From domain: DKIM, SPF and DMARC checked as a border mail server would.

A mail is *proven* when a DKIM signature whose ``d=`` is aligned with the From domain verifies, or when SPF
passes for an envelope sender aligned with it, checked on the host that handed the mail to the server's own
listener (the only door that sees it); or, read by the pipeline, when the border mail server the operator
trusts (``AUTHSERV_ID``) says DMARC, or SPF or DKIM for that very domain, passed. The From domain's DMARC
policy comes along: a mail not proven whose domain asks for ``quarantine`` or ``reject`` is refused.

``authenticate`` does it once per message, before the message's transaction (the look-ups may take up to
three seconds): the result is a plain value, with an Authentication-Results header of our own that the
inbound record keeps for operators. Nothing downstream reads a header for it again.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import authres
import authres.dmarc

from app.config import Settings
from app.inbound.limits import header_facts
from app.inbound.parse import read_sender
from app.inbound.proof.domains import Policy, aligned, ascii_domain, dmarc_policy
from app.inbound.proof.resolver import DnsTrouble, Lookups, resolver_for
from app.inbound.proof.senders import check_spf
from app.inbound.proof.signatures import Checked, check_signatures

HEADER_LIMIT = 1000  # characters of the Authentication-Results kept for operators
SIGNED_ELSEWHERE = "signed for other recipients, not the referee"

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Authentication:
    """What the checks found for one message: proven or not, for which From domain, and that domain's policy."""

    domain: str | None  # the From domain checked (None: there was none to check)
    proven_by: str | None  # "dkim", "spf" or "border" when proven; None when not
    policy: str | None  # the From domain's DMARC policy: none, quarantine or reject; None when it publishes none
    trouble: str | None  # a look-up that got no answer in time: the checks are incomplete
    results: str  # the Authentication-Results header's value, for operators
    signature_key: str | None = None  # what identifies the mail its signature proved (``signatures.mail_key``)
    signed_elsewhere: bool = False  # not proven, though signed by the From domain: for other recipients only

    @property
    def proven(self) -> bool:
        return self.proven_by is not None

    @property
    def strict_policy(self) -> bool:
        """The From domain asks receivers to quarantine or reject its mail that is not proven."""
        return self.policy in ("quarantine", "reject")

    def by_border(self) -> Authentication:
        """The same, proven by the border mail server the operator trusts (its Authentication-Results passed)."""
        return Authentication(self.domain, "border", self.policy, None, self.results)

    def summary(self) -> str:
        """One short phrase for the log and ``inbound list``."""
        if self.proven:
            return f"proven by {self.proven_by} for {self.domain}"
        if self.domain is None:
            return "not checked"
        return f"not proven for {self.domain}" + (f" (DMARC p={self.policy})" if self.policy else "") + (
            f" (DNS: {self.trouble})" if self.trouble else "")


def not_checked(settings: Settings, why: str) -> Authentication:
    return Authentication(None, None, None, None, header(settings, [], why))


@dataclass(frozen=True)
class Arrival:
    """What the checks need of a stored message."""

    raw: bytes
    envelope_from: str | None = None
    peer: str | None = None  # the address of the host that handed it to our listener (SMTP/LMTP only)
    helo: str | None = None
    too_large: bool = False  # only its header was kept, or it is over MAX_MESSAGE_BYTES: not read, not checked
    received_at: float | None = None  # when it came (a Unix time): signatures' expiry is judged then; None: now


def authenticate(arrival: Arrival, settings: Settings) -> Authentication:
    """Check the message's DKIM signatures, SPF and the From domain's DMARC policy; never raises: a check that
    fails on something unforeseen proves nothing, and the message goes on, unproven (logged for the operator)."""
    try:
        return checked(arrival, settings)
    except Exception:
        log.exception("the sender check failed; the message is taken as not proven")
        return not_checked(settings, "the check failed")


def checked(arrival: Arrival, settings: Settings) -> Authentication:
    facts = header_facts(arrival.raw)
    if facts.problem is not None:
        return not_checked(settings, "header refused")
    sender = read_sender(facts)[0]
    domain = ascii_domain(sender.rpartition("@")[2]) if sender else None
    if domain is None:
        return not_checked(settings, "no From domain to check")
    lookups = Lookups(resolver_for(settings.dns_nameservers))
    try:
        policy = dmarc_policy(domain, lookups)
    except DnsTrouble:
        policy = None
    signatures = [] if arrival.too_large else check_signatures(arrival.raw, domain, lookups,
                                                               strict=bool(policy and policy.strict_dkim),
                                                               at=arrival.received_at)
    signatures = [not_to_us(check, settings) for check in signatures]
    spf = sender_check(arrival, domain, policy, lookups)
    proving = next((check for check in signatures if check.proves), None)
    proven_by = "dkim" if proving else "spf" if spf and spf[2] else None
    trouble = lookups.trouble if not proven_by else None
    comment = "signatures not read: too large" if arrival.too_large else None
    return Authentication(domain, proven_by, policy.policy if policy else None, trouble,
                          header(settings, [*dkim_results(signatures), *spf_results(spf),
                                            dmarc_result(domain, proven_by, policy, trouble)], comment),
                          proving.key if proving else None,
                          not proven_by and any(check.reason == SIGNED_ELSEWHERE for check in signatures))


def not_to_us(check: Checked, settings: Settings) -> Checked:
    """A passing signature over To or Cc fields none of whose addresses is the referee's (at its domain) was
    written to someone else: sent on to the referee by whoever received it, it proves nothing (a replay). The
    signature still verified; its result says so ("policy"). A signature over neither field cannot tell."""
    if check.result != "pass" or check.recipients is None:
        return check
    ours = "@" + (ascii_domain(settings.server_domain) or settings.server_domain.lower())
    if any(address.endswith(ours) for address in check.recipients):
        return check
    return Checked("policy", check.domain, check.selector, check.algorithm, SIGNED_ELSEWHERE, check.aligned,
                   check.recipients)


def sender_check(arrival: Arrival, domain: str, policy: Policy | None,
                 lookups: Lookups) -> tuple[str, str, bool] | None:
    """SPF, where the listener saw the sending host: (result, envelope sender, aligned pass); None when not
    checked (another door, no envelope sender, or an envelope domain not aligned with the From domain, whose
    result would prove nothing)."""
    sender = (arrival.envelope_from or "").strip().strip("<>")
    envelope_domain = ascii_domain(sender.rpartition("@")[2]) if "@" in sender else None
    if arrival.peer is None or envelope_domain is None:
        return None
    if not aligned(envelope_domain, domain, strict=bool(policy and policy.strict_spf)):
        return None
    result = check_spf(arrival.peer, sender, arrival.helo or envelope_domain, lookups)
    return result, sender, result == "pass"


def dkim_results(checked: list[Checked]) -> list[authres.AuthenticationResult]:
    return [authres.DKIMAuthenticationResult(
        result=check.result, reason=check.reason or None, header_d=check.domain, header_s=check.selector,
        header_a=check.algorithm) for check in checked]


def spf_results(spf: tuple[str, str, bool] | None) -> list[authres.AuthenticationResult]:
    if spf is None:
        return []
    return [authres.SPFAuthenticationResult(result=spf[0], smtp_mailfrom=spf[1])]


def dmarc_result(domain: str, proven_by: str | None, policy: Policy | None,
                 trouble: str | None) -> authres.AuthenticationResult:
    result = "pass" if proven_by else "temperror" if trouble else "fail" if policy else "none"
    return authres.dmarc.DMARCAuthenticationResult(result=result, header_from=domain,
                                                   policy=policy.policy if policy else None)


def header(settings: Settings, results: list[authres.AuthenticationResult], comment: str | None = None) -> str:
    """The Authentication-Results value (RFC 8601) of our own, as operators read it."""
    value = str(authres.AuthenticationResultsHeader(authserv_id=settings.server_domain, results=results))
    value = value.removeprefix("Authentication-Results: ")
    if not results:
        value = f"{settings.server_domain}; none" + (f" ({comment})" if comment else "")
    elif comment:
        value += f" ({comment})"
    return value[:HEADER_LIMIT]


__all__ = ["Arrival", "Authentication", "authenticate", "not_checked"]
