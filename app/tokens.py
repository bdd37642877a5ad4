"""Signed tokens that survive mail systems: reply addresses, Message-IDs, bounce addresses.

A token goes into the local part of an address, where some mail systems change
the case of letters, so the signature is lower-case base32 rather than base64.
Signing itself is itsdangerous's HMAC with a derived key, one salt per purpose.
"""

from __future__ import annotations

import base64
import hmac
import re
from dataclasses import dataclass
from functools import cached_property

from itsdangerous import Signer

SIGNATURE_LENGTH = 20  # 100 bits of base32


class KeyOnceSigner(Signer):
    """itsdangerous's signer with its derived key worked out once, and the HMAC made by the standard library.

    itsdangerous derives the key again for every signature, and every mail and every reply is signed or
    checked. The HMAC is the standard library's one-shot ``hmac.digest`` with the digest's name: given a
    hash constructor, as itsdangerous gives it, ``hmac`` builds the HMAC in Python, twice as slowly.
    The signature is itsdangerous's own (URL-safe base64).
    """

    @cached_property
    def key(self) -> bytes:
        return self.derive_key()

    @cached_property
    def digest_name(self) -> str:
        return self.digest_method().name

    def mac(self, value: str | bytes) -> bytes:
        return hmac.digest(self.key, value.encode() if isinstance(value, str) else value, self.digest_name)

    def get_signature(self, value: str | bytes) -> bytes:
        return base64.urlsafe_b64encode(self.mac(value)).rstrip(b"=")

    def verify_signature(self, value: str | bytes, sig: str | bytes) -> bool:
        return hmac.compare_digest(self.get_signature(value), sig.encode() if isinstance(sig, str) else sig)


class Base32Signer(KeyOnceSigner):
    """A signer whose signature is lower-case, padding-free base32, cut to ``SIGNATURE_LENGTH``: it survives
    mail systems that change the case of an address's local part."""

    def get_signature(self, value: str | bytes) -> bytes:
        return base64.b32encode(self.mac(value)).decode().lower().rstrip("=")[:SIGNATURE_LENGTH].encode()

    def verify_signature(self, value: str | bytes, sig: str | bytes) -> bool:
        sig = sig.encode() if isinstance(sig, str) else sig
        return hmac.compare_digest(self.get_signature(value), sig.lower())


@dataclass(frozen=True)
class ReplyToken:
    """Names the game, the player (by side) and the ply a mail was sent at."""

    game_id: int
    side: str
    ply: int

    @property
    def payload(self) -> str:
        return f"{self.game_id}{self.side[0]}{self.ply}"


SIGNATURE = f"[a-z2-7]{{{SIGNATURE_LENGTH}}}"
REPLY_PATTERN = re.compile(rf"(?<![0-9a-z])(\d{{1,12}})([wb])(\d{{1,6}})\.({SIGNATURE})(?![a-z2-7])", re.I)
BOUNCE_PATTERN = re.compile(rf"bounce\.(\d{{1,15}})\.({SIGNATURE})", re.I)


class TokenSigner:
    """Makes and checks every token of the server from one secret key."""

    def __init__(self, secret_key: str) -> None:
        self.reply = Base32Signer(secret_key, salt="mirrorpost.reply", sep=".")
        self.bounce = Base32Signer(secret_key, salt="mirrorpost.bounce", sep=".")

    def reply_token(self, token: ReplyToken) -> str:
        return self.reply.sign(token.payload).decode()

    def find_reply_tokens(self, text: str) -> tuple[list[ReplyToken], int]:
        """Valid reply tokens in ``text`` (in order), and how many look like tokens but are forged."""
        found, forged = [], 0
        for match in REPLY_PATTERN.finditer(text):
            game_id, side, ply, signature = match.groups()
            payload = f"{game_id}{side.lower()}{ply}"
            if self.reply.verify_signature(payload, signature):
                found.append(ReplyToken(int(game_id), "white" if side.lower() == "w" else "black", int(ply)))
            else:
                forged += 1
        return found, forged

    def bounce_token(self, outbound_id: int) -> str:
        return f"bounce.{self.bounce.sign(str(outbound_id)).decode()}"

    def find_bounce(self, address: str) -> int | None:
        match = BOUNCE_PATTERN.search(address)
        if match and self.bounce.verify_signature(match.group(1), match.group(2)):
            return int(match.group(1))
        return None
