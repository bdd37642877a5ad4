"""Mail providers as the tests need them: a domain's DKIM keys (RSA and Ed25519, made by openssl and PyNaCl),
its DMARC policy and its SPF record published in the loopback DNS server's zone, and mail signed with dkimpy
as the provider's outgoing server signs it, sent to the listener from a loopback address of its own."""

from __future__ import annotations

import base64
import smtplib
import subprocess
from functools import cache

import dkim
import nacl.encoding
import nacl.signing

from tests.dns_server import Zone

SENDING_HOST = "127.0.0.2"  # the provider's outgoing server, as SPF names it
OTHER_HOST = "127.0.0.3"  # any other host
HEADERS = [b"from", b"to", b"subject", b"date", b"message-id", b"in-reply-to", b"references", b"content-type"]


@cache
def rsa_key(bits: int = 2048) -> bytes:
    """A PEM RSA private key (one a process: openssl takes a moment)."""
    return subprocess.run(["openssl", "genrsa", str(bits)], capture_output=True, check=True).stdout


def rsa_public(key: bytes) -> bytes:
    """The key's public half, DER SubjectPublicKeyInfo, as a DKIM record's p= holds it."""
    return subprocess.run(["openssl", "rsa", "-pubout", "-outform", "DER"], input=key, capture_output=True,
                          check=True).stdout


@cache
def ed25519_key() -> nacl.signing.SigningKey:
    return nacl.signing.SigningKey.generate()


class Provider:
    """One mail domain: its key under ``selector`` (``rsa`` or ``ed25519``), DMARC ``policy`` (None: no
    record) and SPF record, published in ``zone``."""

    def __init__(self, zone: Zone, domain: str, kind: str = "rsa", selector: str = "s1",
                 policy: str | None = "none", spf: str | None = f"v=spf1 ip4:{SENDING_HOST} -all") -> None:
        self.zone, self.domain, self.kind, self.selector = zone, domain, kind, selector
        if kind == "rsa":
            self.private = rsa_key()
            zone.txt(f"{selector}._domainkey.{domain}", b"v=DKIM1; k=rsa; p=" + base64.b64encode(rsa_public(
                self.private)))
        else:
            key = ed25519_key()
            self.private = key.encode(encoder=nacl.encoding.Base64Encoder)
            zone.txt(f"{selector}._domainkey.{domain}", b"v=DKIM1; k=ed25519; p=" + base64.b64encode(
                bytes(key.verify_key)))
        if policy is not None:
            zone.txt(f"_dmarc.{domain}", f"v=DMARC1; p={policy}; rua=mailto:dmarc@{domain}")
        if spf is not None:
            zone.txt(domain, spf)

    def sign(self, raw: bytes, domain: str | None = None, **options: object) -> bytes:
        """``raw`` signed as this provider's server signs (relaxed/relaxed), by ``domain`` (default its own)."""
        algorithm = b"rsa-sha256" if self.kind == "rsa" else b"ed25519-sha256"
        signature = dkim.sign(raw, self.selector.encode(), (domain or self.domain).encode(), self.private,
                              canonicalize=(b"relaxed", b"relaxed"), signature_algorithm=algorithm,
                              include_headers=HEADERS, **options)
        return signature + raw


def send(port: int, raw: bytes, envelope_from: str, recipient: str, host: str = SENDING_HOST) -> None:
    """Hand ``raw`` to the listener on ``port`` from the loopback address ``host``, as that server would."""
    with smtplib.SMTP("127.0.0.1", port, source_address=(host, 0)) as client:
        client.sendmail(envelope_from, [recipient], raw)
