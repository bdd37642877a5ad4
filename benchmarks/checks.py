"""The cost of the sender checks (DKIM, SPF, DMARC) with a warm cache, against the same pipeline without them.

Two copies of the same games, on two databases of one kind (SQLite, then PostgreSQL, the production
database, when it answers): one receives its players' replies signed with DKIM (RSA 2048, as the common
providers sign) and checks them, the other receives them unsigned and checks nothing. The key and the
DMARC record are in the process's DNS cache beforehand, as they are after a domain's first mail, so what is
measured is the checking itself: reading the signatures, canonicalizing and hashing the body, verifying,
aligning. Reply by reply, the two alternate, so noise hits both alike.
The target is on the time per move, as the pipeline's own figure is; the CPU time of this process is
printed beside it (the checks are CPU only: no look-up leaves the cache).

Then where a check's time goes, measured on the same signed replies outside the pipeline: the whole check,
dkimpy's own verification called directly (and, within it, its reading of the message and its relaxed
canonicalization of the body), and what is ours around it.
"""

from __future__ import annotations

import base64
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import dkim
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from dkim.canonicalization import CanonicalizationPolicy
from sqlalchemy import select

from app.inbound.models import InboundMessage
from app.inbound.proof import Arrival, Authentication, authenticate, not_checked
from app.inbound.proof.resolver import LONGEST_TTL, Found, resolver_for
from app.inbound.proof.signatures import DKIMPY_LOG
from app.outbound.signing import SigningKey
from app.server import Server
from benchmarks.measure import report
from benchmarks.replies import CLIENTS, GAMES, PLIES, prepare, replies_for_ply, run_ours

TARGET = 1.2  # at most this many times the pipeline's time without the checks
DOMAIN = "bench.test"


def unchecked(arrival: Arrival, settings) -> Authentication:
    """The pipeline without the checks: nothing looked at."""
    return not_checked(settings, "not checked")


def signing_key() -> SigningKey:
    """A provider's key for the players' domain, its record and the domain's DMARC policy in the DNS cache."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
                                serialization.NoEncryption())
    public = base64.b64encode(key.public_key().public_bytes(serialization.Encoding.DER,
                                                            serialization.PublicFormat.SubjectPublicKeyInfo))
    return SigningKey("s1", DOMAIN, b"rsa-sha256", private, public.decode())


def warm(server: Server, key: SigningKey) -> None:
    resolver = resolver_for(server.settings.dns_nameservers)
    later = time.monotonic() + LONGEST_TTL
    resolver.keep((key.name, "TXT"), Found((key.record.encode(),), later))
    resolver.keep((f"_dmarc.{DOMAIN}", "TXT"), Found((b"v=DMARC1; p=none",), later))


def proven(server: Server) -> int:
    """How many of the server's messages were proven by their signature (the checks ran and passed)."""
    with server.db.sessions() as session:
        found = session.scalars(select(InboundMessage.authentication)).all()
    return sum(1 for results in found if results and "dkim=pass header.d=bench.test" in results)


def timed(spent: list[float], run: Callable[[], int]) -> None:
    """``run()``, its time and CPU time added to ``spent``."""
    began, began_cpu = time.perf_counter(), time.process_time()
    run()
    spent[0] += time.perf_counter() - began
    spent[1] += time.process_time() - began_cpu


def measure_checks(variant_name: str, label: str = "SQLite",
                   url_for: Callable[[Path, str], str] | None = None) -> None:
    """The checks' cost on one kind of database: ``url_for(folder, name)`` gives each copy's database."""
    url_for = url_for or (lambda folder, name: f"sqlite:///{folder / (name + '.sqlite3')}")
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        checked, scripts = prepare(url_for(folder, "checked"), folder / "checked", variant_name)
        plain, plain_scripts = prepare(url_for(folder, "plain"), folder / "plain", variant_name)
        key = signing_key()
        warm(checked, key)
        spent = {"with": [0.0, 0.0], "without": [0.0, 0.0]}  # time, CPU
        moves = 0
        sample: list[bytes] = []
        for ply in range(PLIES):
            signed = [key.sign(raw) for raw in replies_for_ply(checked, scripts, ply)]
            unsigned = replies_for_ply(plain, plain_scripts, ply)
            sample += signed[:len(CLIENTS)] if ply < 2 else []  # every client's reply, twice
            for number, (one, other) in enumerate(zip(unsigned, signed, strict=True)):
                runs = [(spent["without"], plain, one, unchecked), (spent["with"], checked, other, authenticate)]
                for into, server, raw, check in runs if number % 2 else reversed(runs):  # neither always first
                    timed(into, lambda server=server, raw=raw, check=check: run_ours(server, [raw], check))
                moves += 1
        assert proven(checked) == moves, "every signed reply must have been checked and proven"
        print(f"  sender checks ({label}): {moves} signed replies in {GAMES} games of {variant_name}, DKIM RSA 2048 "
              "verified and aligned, DMARC read, the key and policy cached")
        report("time per move, checked vs not checked", spent["with"][0] / moves * 1000,
               spent["without"][0] / moves * 1000, "ms", target=TARGET)
        report("CPU per move, checked vs not checked", spent["with"][1] / moves * 1000,
               spent["without"][1] / moves * 1000, "ms")
        if label == "SQLite":  # the check itself is the same whatever the database
            where_the_time_goes(checked, key, sample)
        for server in (checked, plain):
            server.db.engine.dispose()


def where_the_time_goes(server: Server, key: SigningKey, sample: list[bytes]) -> None:
    """The check alone on the sample, against dkimpy's own verification of the same replies, called directly
    with the key in hand: what is left is ours (reading the From, the signatures' tags, the DMARC record,
    the Authentication-Results header)."""
    record = key.record.encode()

    def dkimpy_verifies(raw: bytes) -> None:
        assert dkim.DKIM(raw, logger=DKIMPY_LOG, minkey=1024).verify(dnsfunc=lambda name, timeout=0: record)

    relaxed = CanonicalizationPolicy.from_c_value(b"relaxed/relaxed")
    bodies = [dkim.DKIM(raw).body for raw in sample]
    check = per_reply(sample, lambda raw: authenticate(Arrival(raw), server.settings))
    verifying = per_reply(sample, dkimpy_verifies)
    reading = per_reply(sample, lambda raw: dkim.DKIM(raw, logger=DKIMPY_LOG))
    canonicalizing = per_reply(bodies, relaxed.canonicalize_body)
    print(f"    where a check's time goes, on {len(sample)} of these replies ({min(map(len, sample)) // 1024} to "
          f"{max(map(len, sample)) // 1024} KB): the check {check:.2f} ms a reply; dkimpy's verification, called "
          f"directly, {verifying:.2f} ms ({verifying / check:.0%}): reading the message {reading:.2f} ms, the "
          f"relaxed canonicalization of its body {canonicalizing:.2f} ms, its RSA and header hashing "
          f"{max(0.0, verifying - reading - canonicalizing):.2f} ms; ours around it "
          f"{max(0.0, check - verifying):.2f} ms")


def per_reply(items: list, work: Callable[[object], object], rounds: int = 5) -> float:
    """The best of ``rounds`` passes over ``items``, in milliseconds an item."""
    best = float("inf")
    for _ in range(rounds):
        began = time.process_time()
        for item in items:
            work(item)
        best = min(best, time.process_time() - began)
    return best / len(items) * 1000
