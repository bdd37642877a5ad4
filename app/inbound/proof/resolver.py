"""DNS for the sender checks: one resolver a process (dnspython), a short timeout a look-up, a deadline a mail,
and a small cache of what the look-ups found.

Every look-up of one mail (its DKIM keys, its DMARC policy, its SPF records) shares one deadline
(``MAIL_SECONDS``), each look-up at most ``LOOKUP_SECONDS`` of it: a name whose server never answers, answers
truncated or sends a CNAME loop costs that mail its look-ups, never more, and the mail goes on unproven. The
cache keeps what was found, by name and type, for its TTL (at most an hour), at most ``CACHE_ENTRIES`` names
and at most ``RECORD_BYTES`` of records a name: a larger answer is kept as "too large", never as its records.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from functools import cache

import dns.exception
import dns.nameserver
import dns.rdatatype
import dns.resolver

LOOKUP_SECONDS = 1.0  # one look-up
MAIL_SECONDS = 3.0  # all the look-ups of one mail together
MOST_LOOKUPS = 40  # look-ups one mail may ask for, cached or not (SPF alone allows 10, and 2 void ones)
CACHE_ENTRIES = 512  # names (with their type) the cache keeps, the least recently used dropped first
RECORD_BYTES = 4096  # bytes of records kept for one name: a DKIM key of 4096 bits is under 1 KB
LONGEST_TTL = 3600  # seconds an answer is kept at most, whatever its TTL
NEGATIVE_TTL = 300  # seconds "no such name" or "no such record" is kept
TYPES = ("TXT", "A", "AAAA", "MX", "PTR")


class DnsTrouble(Exception):
    """A look-up got no usable answer in time (timeout, server failure, truncation, CNAME loop, no time left):
    what it would have shown is not known."""


class RecordTooLarge(Exception):
    """The records of a name are larger than any a sender check needs: taken as garbage, not read."""


@dataclass(frozen=True)
class Found:
    """What a look-up found: the records (TXT as bytes, addresses and names as text, MX as (preference, name)),
    none when the name or the record does not exist; ``too_large`` when they were too large to keep."""

    records: tuple[object, ...]
    expires: float
    too_large: bool = False


class Resolver:
    """A dnspython stub resolver (``DNS_NAMESERVERS``, else the system's) with a bounded cache; thread-safe."""

    def __init__(self, nameservers: tuple[tuple[str, int], ...]) -> None:
        try:
            resolver = dns.resolver.Resolver(configure=not nameservers)
        except dns.resolver.NoResolverConfiguration:  # no /etc/resolv.conf: every look-up fails at once
            resolver = dns.resolver.Resolver(configure=False)
        if nameservers:
            resolver.nameservers = [dns.nameserver.Do53Nameserver(host, port) for host, port in nameservers]
        resolver.timeout = LOOKUP_SECONDS
        resolver.lifetime = LOOKUP_SECONDS
        resolver.retry_servfail = False
        self.resolver = resolver
        self.cache: OrderedDict[tuple[str, str], Found] = OrderedDict()
        self.lock = threading.Lock()

    def lookup(self, name: str, rdtype: str, seconds: float) -> tuple[object, ...]:
        """The records of ``name`` (``rdtype``, one of ``TYPES``), from the cache or asked within ``seconds``.

        Raises DnsTrouble when no usable answer came in time, RecordTooLarge when it came too large."""
        key = (name.lower().rstrip("."), rdtype)
        found = self.cached(key)
        if found is None:
            found = self.ask(key[0], rdtype, seconds)
            self.keep(key, found)
        if found.too_large:
            raise RecordTooLarge(f"the {rdtype} records of {key[0]} are larger than {RECORD_BYTES} bytes")
        return found.records

    def cached(self, key: tuple[str, str]) -> Found | None:
        with self.lock:
            found = self.cache.get(key)
            if found is None:
                return None
            if found.expires <= time.monotonic():
                del self.cache[key]
                return None
            self.cache.move_to_end(key)
            return found

    def keep(self, key: tuple[str, str], found: Found) -> None:
        if found.expires <= time.monotonic():
            return
        with self.lock:
            self.cache[key] = found
            self.cache.move_to_end(key)
            while len(self.cache) > CACHE_ENTRIES:
                self.cache.popitem(last=False)

    def ask(self, name: str, rdtype: str, seconds: float) -> Found:
        now = time.monotonic()
        try:
            answer = self.resolver.resolve(name, rdtype, lifetime=seconds, search=False, raise_on_no_answer=False)
        except dns.resolver.NXDOMAIN:
            return Found((), now + NEGATIVE_TTL)
        except (dns.exception.DNSException, OSError, ValueError, UnicodeError) as error:
            raise DnsTrouble(f"{rdtype} {name}: {error.__class__.__name__}") from error
        if answer.rrset is None:  # the name exists without such records
            return Found((), now + min(NEGATIVE_TTL, max(answer.expiration - time.time(), 0)))
        expires = now + min(LONGEST_TTL, answer.rrset.ttl)
        if sum(len(rdata.to_wire()) for rdata in answer.rrset) > RECORD_BYTES:
            return Found((), expires, too_large=True)
        return Found(tuple(records(rdtype, answer.rrset)), expires)


def records(rdtype: str, rrset: dns.rrset.RRset) -> list[object]:
    """The records as the checks read them: a TXT record's strings joined, addresses and names as text."""
    if rdtype == "TXT":
        return [b"".join(rdata.strings) for rdata in rrset]
    if rdtype in ("A", "AAAA"):
        return [rdata.address for rdata in rrset]
    if rdtype == "MX":
        return [(rdata.preference, rdata.exchange.to_text(omit_final_dot=True)) for rdata in rrset]
    return [rdata.target.to_text(omit_final_dot=True) for rdata in rrset]


@cache
def resolver_for(nameservers: tuple[tuple[str, int], ...]) -> Resolver:
    """The process's resolver for these nameservers (one, with its cache, for as long as the process lives)."""
    return Resolver(nameservers)


class Lookups:
    """The look-ups of one mail: within ``MAIL_SECONDS`` together and ``MOST_LOOKUPS`` in number."""

    def __init__(self, resolver: Resolver, seconds: float = MAIL_SECONDS) -> None:
        self.resolver = resolver
        self.deadline = time.monotonic() + seconds
        self.asked = 0
        self.trouble: str | None = None  # the first look-up that got no usable answer

    def lookup(self, name: str, rdtype: str) -> tuple[object, ...]:
        remaining = self.deadline - time.monotonic()
        self.asked += 1
        try:
            if remaining <= 0 or self.asked > MOST_LOOKUPS:
                raise DnsTrouble("no time left for look-ups" if remaining <= 0 else "too many look-ups")
            return self.resolver.lookup(name, rdtype, min(LOOKUP_SECONDS, remaining))
        except DnsTrouble as error:
            self.trouble = self.trouble or str(error)
            raise

    def txt(self, name: str) -> list[bytes]:
        return [record for record in self.lookup(name, "TXT") if isinstance(record, bytes)]


__all__ = ["TYPES", "DnsTrouble", "Lookups", "RecordTooLarge", "Resolver", "dns", "resolver_for"]
