"""Domains as DMARC reads them: the organisational domain (the Public Suffix List), alignment, the policy record.

A domain that signs (DKIM ``d=``) or sends (the SPF-checked envelope domain) is *aligned* with the From
domain when it is that domain or a parent of it within the same organisational domain (DMARC's relaxed
alignment): ``players.test`` for ``ann@mail.players.test``, never ``test`` nor ``p1ayers.test``; in strict
mode (``adkim=s`` / ``aspf=s``) only the From domain itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from dkim.util import InvalidTagValueList, parse_tag_value
from publicsuffixlist import PublicSuffixList

from app.inbound.proof.resolver import Lookups, RecordTooLarge
from app.outbound.idn import ascii_name

POLICIES = ("none", "quarantine", "reject")


@cache
def suffixes() -> PublicSuffixList:
    """The Public Suffix List the package ships, loaded once a process."""
    return PublicSuffixList()


def ascii_domain(domain: str) -> str | None:
    """The domain as DNS names it (an internationalised one as its A-labels, UTS-46: ``app.outbound.idn``);
    None when it is not a domain a mail can be checked for: a single label such as ``localhost``, or not a
    valid name (whose mail is then not proven)."""
    name = ascii_name(domain)
    if name is None or "." not in name:
        return None
    return name


def organisational(domain: str) -> str:
    """The organisational domain: the public suffix and one label more (the domain itself when it is a suffix)."""
    return suffixes().privatesuffix(domain) or domain


def aligned(domain: str, from_domain: str, strict: bool = False) -> bool:
    """Whether a signing or sending ``domain`` speaks for ``from_domain`` (both lower case, ASCII)."""
    domain = domain.lower().rstrip(".")
    if domain == from_domain:
        return True
    if strict or not from_domain.endswith("." + domain):
        return False
    organisation = organisational(from_domain)
    return domain == organisation or domain.endswith("." + organisation)


@dataclass(frozen=True)
class Policy:
    """A From domain's DMARC record as it applies to that domain."""

    policy: str  # none, quarantine or reject
    strict_dkim: bool
    strict_spf: bool


def dmarc_policy(from_domain: str, lookups: Lookups) -> Policy | None:
    """The DMARC record for ``from_domain``: its own, else its organisational domain's (``sp=`` then applies).
    None when neither publishes one (or what is published is not one valid record). Raises DnsTrouble."""
    own = record_at(from_domain, lookups)
    if own is not None:
        return read_policy(own, subdomain=False)
    organisation = organisational(from_domain)
    if organisation == from_domain:
        return None
    found = record_at(organisation, lookups)
    return read_policy(found, subdomain=True) if found is not None else None


def record_at(domain: str, lookups: Lookups) -> dict[bytes, bytes] | None:
    try:
        texts = lookups.txt(f"_dmarc.{domain}")
    except RecordTooLarge:
        return None
    found = [text for text in texts if text.startswith(b"v=DMARC1")]
    if len(found) != 1:  # RFC 7489 6.6.3: none, or several, is no policy
        return None
    try:
        return parse_tag_value(found[0])
    except InvalidTagValueList:
        return None


def read_policy(tags: dict[bytes, bytes], subdomain: bool) -> Policy | None:
    value = (tags.get(b"sp") if subdomain else None) or tags.get(b"p") or b""
    policy = value.decode("ascii", "replace").strip().lower()
    if policy not in POLICIES:
        return None
    return Policy(policy, tags.get(b"adkim", b"r").strip().lower() == b"s",
                  tags.get(b"aspf", b"r").strip().lower() == b"s")
