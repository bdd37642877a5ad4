"""DKIM signatures on every mail the server sends (dkimpy), for the domain of ``SERVER_EMAIL``.

With ``DKIM_SELECTOR`` and ``DKIM_PRIVATE_KEY_FILE`` set, each mail is signed as it is sent (the outbox keeps
no MIME bytes; they are assembled then): relaxed/relaxed canonicalization, ``rsa-sha256`` for an RSA key or
``ed25519-sha256`` (RFC 8463) for an Ed25519 one, over the headers a reply depends on, From signed twice so
that no second From can be added. ``records`` writes the DNS records to publish for the key, with the SPF
and DMARC records an operator should add beside it (``manage.py dkim-records``).

The key file is read once, when the worker starts: PEM (``openssl genrsa``, ``openssl genpkey -algorithm
ed25519``, PKCS#1 or PKCS#8), or the base64 Ed25519 seed dkimpy's ``dknewkey`` writes.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass

import dkim
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed25519, rsa

from app.config import ConfigurationError, Settings

SIGNED = (b"from", b"from", b"to", b"subject", b"date", b"message-id", b"reply-to", b"in-reply-to", b"references",
          b"mime-version", b"content-type", b"auto-submitted")
SMALLEST_RSA = 1024  # bits: receivers refuse smaller keys (RFC 8301)
TXT_STRING = 255  # bytes of one string of a TXT record


@dataclass(frozen=True)
class SigningKey:
    """A key to sign with: what dkimpy takes, and the public half for DNS."""

    selector: str
    domain: str
    algorithm: bytes  # b"rsa-sha256" or b"ed25519-sha256"
    private: bytes  # PEM for RSA, the base64 seed for Ed25519
    public: str  # the record's p=, base64

    @property
    def kind(self) -> str:
        return "ed25519" if self.algorithm == b"ed25519-sha256" else "rsa"

    @property
    def name(self) -> str:
        return f"{self.selector}._domainkey.{self.domain}"

    @property
    def record(self) -> str:
        return f"v=DKIM1; k={self.kind}; p={self.public}"

    def sign(self, raw: bytes) -> bytes:
        """``raw`` with a DKIM-Signature field in front."""
        signature = dkim.sign(raw, self.selector.encode(), self.domain.encode(), self.private,
                              canonicalize=(b"relaxed", b"relaxed"), signature_algorithm=self.algorithm,
                              include_headers=list(SIGNED))
        return signature + raw


def load_key(settings: Settings) -> SigningKey | None:
    """The configured signing key, or None when outbound mail is not signed; raises ConfigurationError with the reason
    when the file is missing or holds no key dkimpy can sign with."""
    if not settings.dkim_selector or settings.dkim_private_key_file is None:
        return None
    path = settings.dkim_private_key_file
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ConfigurationError(f"DKIM_PRIVATE_KEY_FILE: cannot read {path}: {error.strerror}") from error
    algorithm, private, public = read_key(data, path.name)
    key = SigningKey(settings.dkim_selector, settings.server_domain, algorithm, private, public)
    try:  # sign once now: a key dkimpy cannot use fails at start, not at the first mail
        key.sign(b"From: a@b.example\r\nSubject: test\r\n\r\ntest\r\n")
    except dkim.DKIMException as error:
        raise ConfigurationError(f"DKIM_PRIVATE_KEY_FILE: {path.name} cannot sign: {error}") from error
    return key


def read_key(data: bytes, name: str) -> tuple[bytes, bytes, str]:
    """(algorithm, private key as dkimpy takes it, public key for DNS) from a key file's bytes."""
    if b"-----BEGIN" not in data:  # dknewkey's Ed25519 key: the 32-byte seed in base64
        try:
            seed = base64.b64decode(data.strip(), validate=True)
            public = ed25519.Ed25519PrivateKey.from_private_bytes(seed).public_key()
        except ValueError as error:
            raise ConfigurationError(f"DKIM_PRIVATE_KEY_FILE: {name} is neither a PEM key nor a base64 Ed25519 key") \
                from error
        return b"ed25519-sha256", base64.b64encode(seed), raw_public(public)
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError) as error:
        raise ConfigurationError(f"DKIM_PRIVATE_KEY_FILE: {name} holds no private key without a passphrase") from error
    if isinstance(key, ed25519.Ed25519PrivateKey):
        seed = key.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                 serialization.NoEncryption())
        return b"ed25519-sha256", base64.b64encode(seed), raw_public(key.public_key())
    if isinstance(key, rsa.RSAPrivateKey):
        if key.key_size < SMALLEST_RSA:
            raise ConfigurationError(f"DKIM_PRIVATE_KEY_FILE: an RSA key of {key.key_size} bits is too small (at least "
                             "1024; 2048 is usual)")
        private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
                                    serialization.NoEncryption())
        public = key.public_key().public_bytes(serialization.Encoding.DER,
                                               serialization.PublicFormat.SubjectPublicKeyInfo)
        return b"rsa-sha256", private, base64.b64encode(public).decode()
    raise ConfigurationError(f"DKIM_PRIVATE_KEY_FILE: {name} is neither an RSA nor an Ed25519 key")


def raw_public(key: ed25519.Ed25519PublicKey) -> str:
    return base64.b64encode(key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)).decode()


def txt_strings(value: str) -> str:
    """A TXT record's value as a zone file writes it: quoted strings of at most 255 bytes."""
    return " ".join(f'"{value[start:start + TXT_STRING]}"' for start in range(0, len(value), TXT_STRING))


def records(settings: Settings, key: SigningKey) -> list[str]:
    """The DNS records to publish for the key, and the SPF and DMARC records to add beside it, with a word
    on each, as zone file lines."""
    domain = settings.server_domain
    relay = f" a:{settings.smtp_host}" if settings.smtp_host else ""
    return [
        f"; DKIM: the public half of {settings.dkim_private_key_file} ({key.kind}), selector {key.selector}",
        f"{key.name}. 3600 IN TXT {txt_strings(key.record)}",
        "",
        f"; SPF: the hosts that send mail for {domain}. Keep the mechanisms of the servers that already do;",
        "; if your relay (SMTP_HOST) is a mail service, use the 'include:' it documents instead of 'a:'.",
        f'{domain}. 3600 IN TXT "v=spf1 mx{relay} ~all"',
        "",
        f"; DMARC: what receivers do with mail in {domain}'s name that neither DKIM nor SPF proves. Start with",
        "; p=none and the reports (rua), then p=quarantine once they show only your own servers.",
        f'_dmarc.{domain}. 3600 IN TXT "v=DMARC1; p=none; adkim=r; aspf=r; rua=mailto:postmaster@{domain}"',
    ]
