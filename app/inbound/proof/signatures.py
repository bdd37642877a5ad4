"""DKIM signatures checked with dkimpy (RSA, and Ed25519 through PyNaCl), within bounds whatever the mail holds.

dkimpy verifies; what is here decides which signatures it is given and what it is given them with:

- at most ``MOST_CHECKED`` signatures, those whose ``d=`` is aligned with the From domain first (only they
  can prove anything); a signature header longer than ``SIGNATURE_BYTES``, with a long run of spaces, or
  malformed is not handed over at all;
- keys looked up through the mail's ``Lookups`` (its deadline, the cache); a key record larger than the
  resolver keeps, an RSA key over ``KEY_BITS`` bits or with an exponent over 32 bits is no key (a huge
  exponent would cost seconds of arithmetic);
- a signature whose ``h=`` leaves the From field out is no proof (RFC 6376 5.4: From MUST be signed);
- an expired signature (``x=``) and one whose body length (``l=``) leaves part of the body unsigned pass
  for nothing: no command is ever read from text a signature does not cover;
- dkimpy's relaxed body canonicalization takes time growing with the square of each run of spaces, so the
  body is measured first (``relaxed_cost``) and one too costly is not checked; the header is measured the
  same way for dkimpy's unfolding of continuation lines.
"""

from __future__ import annotations

import base64
import hashlib
import logging
import re
import time
from dataclasses import dataclass
from email.utils import getaddresses
from functools import lru_cache

import dkim
from dkim.canonicalization import CanonicalizationPolicy, InvalidCanonicalizationPolicyError
from dkim.crypto import UnparsableKeyError, parse_public_key
from dkim.util import InvalidTagValueList, parse_tag_value

from app.inbound.limits import header_block, split_fields
from app.inbound.proof.domains import aligned
from app.inbound.proof.resolver import DnsTrouble, Lookups, RecordTooLarge
from app.outbound.idn import ascii_name

MOST_CHECKED = 3  # signatures verified in one mail
SIGNATURE_BYTES = 4096  # bytes of one DKIM-Signature field (a real one is under 1.5 KB)
LONGEST_SPACE = 32  # the longest run of spaces and tabs in a DKIM-Signature field handed to dkimpy
KEY_BITS = 4096  # the largest RSA key verified (RFC 8301: 1024 to 4096)
KEY_RECORD_BYTES = 2048  # the largest key record read
EXPIRY_SLOP = 300  # seconds a signature is still taken after its ``x=``, for clocks a little apart
RELAXED_COST = 40_000_000  # the most dkimpy's relaxed body canonicalization may cost (sum of squared space runs)
HEADER_COST = 40_000_000  # the most dkimpy's header parsing may cost (bytes copied for continuation lines)
SPACE_RUNS = re.compile(rb"[ \t]+")
LONG_SPACE_RUNS = re.compile(rb"[ \t]{%d,}" % LONGEST_SPACE)
TABS_AS_SPACES = bytes.maketrans(b"\t", b" ")
BASE64 = re.compile(rb"[A-Za-z0-9+/]*={0,2}")


class Quiet(logging.LoggerAdapter):
    """dkimpy's own messages, at DEBUG: what it found is said once, in the message's result (a hostile mail
    is no error of the server's)."""

    def log(self, level: int, msg: object, *args: object, **kwargs: object) -> None:
        super().log(logging.DEBUG, msg, *args, **kwargs)  # type: ignore[arg-type]


DKIMPY_LOG = Quiet(logging.getLogger(__name__), {})


@dataclass(frozen=True)
class Checked:
    """One signature's result: ``pass``, ``fail``, ``neutral`` (not checked), ``policy`` (verified, but it
    proves nothing: expired, or covering part of the body), ``permerror`` (malformed, no usable key) or
    ``temperror`` (its key could not be looked up in time)."""

    result: str
    domain: str | None
    selector: str | None = None
    algorithm: str | None = None
    reason: str | None = None
    aligned: bool = False
    recipients: tuple[str, ...] | None = None  # the To and Cc addresses a passing signature covers (None: neither)
    key: str | None = None  # what a passing signature pins of the mail (``mail_key``): the same in any copy

    @property
    def proves(self) -> bool:
        return self.result == "pass" and self.aligned


def check_signatures(raw: bytes, from_domain: str, lookups: Lookups, strict: bool = False,
                     at: float | None = None) -> list[Checked]:
    """The DKIM-Signatures of ``raw`` that were looked at, aligned ones first, up to the first that proves the
    mail; at most ``MOST_CHECKED`` verified, a last entry saying how many more were not. The signatures are
    read from dkimpy's own parse of the message, so that what is judged aligned is what it verifies. Expiry
    (``x=``) is judged at ``at``, when the message came (now when None): checked again later, it is the same."""
    fields = split_fields(header_block(raw))
    if not any(name == b"dkim-signature" for name, _lines in fields):
        return []
    if sum(len(lines) * sum(map(len, lines)) for _name, lines in fields) > HEADER_COST:
        return [Checked("neutral", None, reason="header too costly to check")]
    verifier = Verifier(raw, lookups)
    if verifier.message is None:
        return [Checked("permerror", None, reason="the message could not be read for DKIM")]
    read = [read_signature(value, from_domain, strict, at) for name, value in verifier.message.headers
            if name.lower() == b"dkim-signature"]
    order = sorted(range(len(read)), key=lambda index: not read[index].aligned)
    results: list[Checked] = []
    for index in order[:MOST_CHECKED]:
        results.append(read[index] if read[index].result != "pending" else verifier.verify(index, read[index]))
        if results[-1].proves:  # the mail is proven: what the others would say changes nothing
            break
    if len(order) > len(results):
        results.append(Checked("neutral", None, reason=f"{len(order) - len(results)} more signatures not checked"))
    return results


def read_signature(value: bytes, from_domain: str, strict: bool, at: float | None = None) -> Checked:
    """A signature's tags, checked before dkimpy sees them: result "pending" when it is to be verified."""
    value = re.sub(rb"\r?\n", b"", value)
    if len(value) > SIGNATURE_BYTES:
        return Checked("permerror", None, reason="signature field too long")
    if any(len(run) > LONGEST_SPACE for run in SPACE_RUNS.findall(value)):
        return Checked("permerror", None, reason="malformed signature")
    try:
        tags = parse_tag_value(value)
    except InvalidTagValueList:
        return Checked("permerror", None, reason="malformed signature")
    domain = text(tags.get(b"d"))
    checked = Checked("pending", domain, text(tags.get(b"s")), text(tags.get(b"a")),
                      aligned=bool(domain) and aligned(domain, from_domain, strict))
    if not all(tags.get(tag) for tag in (b"v", b"a", b"b", b"bh", b"d", b"h", b"s")):
        return replace(checked, "permerror", "a required tag is missing")
    if not all(BASE64.fullmatch(re.sub(rb"\s+", b"", tags[tag])) for tag in (b"b", b"bh")):
        return replace(checked, "permerror", "malformed signature")
    if b"from" not in {name.strip().lower() for name in tags[b"h"].split(b":")}:  # RFC 6376 5.4: it MUST be
        return replace(checked, "permerror", "the From field is not signed")
    expiry = tags.get(b"x", b"").strip()
    if expiry and (not expiry.isdigit() or int(expiry) + EXPIRY_SLOP < (at or time.time())):
        return replace(checked, "policy", "signature expired")
    if not checked.aligned:
        return replace(checked, "neutral", "not aligned with the From domain: not checked")
    return checked


def replace(checked: Checked, result: str, reason: str) -> Checked:
    return Checked(result, checked.domain, checked.selector, checked.algorithm, reason, checked.aligned)


def text(value: bytes | None) -> str | None:
    return value.decode("ascii", "replace").strip().lower()[:253] if value else None


class Verifier:
    """dkimpy's view of one message, parsed once, verifying its signatures one by one."""

    def __init__(self, raw: bytes, lookups: Lookups) -> None:
        self.lookups = lookups
        self.problem: str | None = None  # why the last key looked up is not usable
        self.trouble = False  # the last key could not be looked up in time
        try:
            self.message: dkim.DKIM | None = dkim.DKIM(raw, logger=DKIMPY_LOG, minkey=1024, timeout=1)
        except Exception:  # dkimpy's reading of a hostile header raises more than its own errors
            self.message = None
        self.costly = self.message is not None and relaxed_cost(self.message.body) > RELAXED_COST

    def verify(self, index: int, found: Checked) -> Checked:
        message = self.message
        if message is None:
            return replace(found, "permerror", "the message could not be read for DKIM")
        if self.costly:
            return replace(found, "neutral", "body too costly to check")
        self.problem, self.trouble = None, False
        try:
            prepared = message.verify_headerprep(index)
            if not prepared:
                return replace(found, "permerror", "malformed signature")
            signature, include_headers, fields = prepared
            if text(signature.get(b"d")) != found.domain:  # never: both read the same field
                return replace(found, "permerror", "malformed signature")
            length = signature.get(b"l")
            if length is not None and int(length) < len(body_of(message, signature)):
                return replace(found, "policy", "its body length (l=) leaves part of the body unsigned")
            verified = message.verify_sig(signature, include_headers, fields[index], self.key)
        except dkim.ValidationError as error:
            if str(error).startswith("body hash mismatch"):  # the body was changed after it was signed
                return replace(found, "fail", "body hash mismatch")
            return replace(found, "permerror", str(error)[:100])
        except (dkim.DKIMException, InvalidCanonicalizationPolicyError, ValueError) as error:
            return replace(found, "permerror", str(error)[:100])
        except Exception:  # whatever else a hostile message makes dkimpy raise: no proof, no crash
            return replace(found, "permerror", "the message could not be read for DKIM")
        if verified:
            return Checked("pass", found.domain, found.selector, found.algorithm, "", found.aligned,
                           signed_recipients(message.signed_headers), mail_key(signature, message.signed_headers))
        if self.trouble:
            return replace(found, "temperror", "its key could not be looked up in time")
        return replace(found, "permerror" if self.problem else "fail", self.problem or "signature did not verify")

    def key(self, name: bytes, timeout: float = 0) -> bytes | None:
        """dkimpy's ``dnsfunc``: the key record, through the mail's look-ups, or None when there is no usable
        one (``problem`` says why)."""
        try:
            texts = self.lookups.txt(name.decode("ascii", "replace").rstrip("."))
        except DnsTrouble as error:
            self.trouble = True
            raise dkim.DnsTimeoutError(str(error)) from error
        except RecordTooLarge:
            self.problem = "key record too large"
            return None
        if not texts:
            self.problem = "no key published"
            return None
        self.problem = usable_key(texts[0])
        return None if self.problem else texts[0]


@lru_cache(maxsize=256)  # of records the resolver kept (at most 4 KB each): bounded; one key serves mail after mail
def usable_key(record: bytes) -> str | None:
    """Why a key record is not verified with, or None: too long, an RSA key too large, a huge exponent. The
    answer depends on the record alone, so it is worked out once a record (dkimpy parses the key again)."""
    if len(record) > KEY_RECORD_BYTES:
        return "key record too large"
    try:
        tags = parse_tag_value(record)
    except InvalidTagValueList:
        return "malformed key record"
    if tags.get(b"k", b"rsa").strip() != b"rsa":
        return None  # Ed25519 keys are of one size; dkimpy refuses other kinds itself
    try:
        key = parse_public_key(base64.b64decode(re.sub(rb"\s+", b"", tags.get(b"p", b"")), validate=True))
    except (UnparsableKeyError, ValueError, IndexError, TypeError):
        return "malformed key"
    if key["modulus"].bit_length() > KEY_BITS or key["publicExponent"].bit_length() > 32:
        return f"RSA key over {KEY_BITS} bits or with an exponent over 32 bits"
    return None


def mail_key(signature: dict[bytes, bytes], signed: list[tuple[bytes, bytes]]) -> str:
    """What identifies the mail a passing signature proves, the same in any copy that still verifies: its body as
    signed (``bh=``, with the body canonicalization and hash it was taken with) and the From, Message-ID and Date
    fields the signature covers, whitespace as relaxed canonicalization reads it. Not the signature's own value,
    which can be written otherwise and still verify (its padding bits, leading zeros), nor which signature proved
    it: another signature of the same mail by its domain, over the same fields, gives the same key."""
    covered = dict.fromkeys((b"from", b"message-id", b"date"), b"")
    for name, value in signed:
        name = name.strip().lower()
        if name in covered:
            covered[name] = b" ".join(value.split())
    body = CanonicalizationPolicy.from_c_value(signature.get(b"c", b"simple/simple")).body_algorithm.name
    digest = hashlib.sha256()
    hashed_with = signature.get(b"a", b"").strip().rpartition(b"-")[2]  # sha256 for RSA and Ed25519 alike
    for part in (body, hashed_with, re.sub(rb"\s+", b"", signature.get(b"bh", b"")), *covered.values()):
        digest.update(len(part).to_bytes(8, "big") + part)
    return "sha256:" + digest.hexdigest()


def signed_recipients(signed: list[tuple[bytes, bytes]]) -> tuple[str, ...] | None:
    """The addresses in the To and Cc fields a signature covers (the very instances it was verified over), lower
    case; None when it covers neither field (some providers sign neither)."""
    values = [value.decode("utf-8", "replace") for name, value in signed if name.strip().lower() in (b"to", b"cc")]
    if not values:
        return None
    found = []
    for _name, address in getaddresses(values):
        local, at, domain = address.strip().rpartition("@")
        if at and local:
            found.append(f"{local.lower()}@{ascii_name(domain) or domain.lower()}")  # domains as A-labels
    return tuple(found)


def body_of(message: dkim.DKIM, signature: dict[bytes, bytes]) -> bytes:
    """The body as the signature's canonicalization makes it: what ``l=`` is compared with."""
    policy = CanonicalizationPolicy.from_c_value(signature.get(b"c", b"simple/simple"))
    return policy.canonicalize_body(message.body)


def relaxed_cost(body: bytes) -> int:
    """What dkimpy's relaxed body canonicalization costs on ``body``, in steps: each run of spaces and tabs
    costs the square of its length (its pattern tries every start in the run). Runs shorter than
    ``LONGEST_SPACE`` cost at most that many steps a byte, so only the longer ones are measured (and only looked
    for when there is one). Linear."""
    short = LONGEST_SPACE * len(body)
    if b" " * LONGEST_SPACE not in body.translate(TABS_AS_SPACES):
        return short
    return sum(len(run) ** 2 for run in LONG_SPACE_RUNS.findall(body)) + short
