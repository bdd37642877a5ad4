"""Signed tokens: itsdangerous's HMAC signature, in lower-case base32, found again in any text."""

import base64

import pytest
from itsdangerous import Signer

from app.tokens import SIGNATURE_LENGTH, ReplyToken, TokenSigner


@pytest.mark.parametrize("payload", ["1w0", "12b7", "999999w123456"])
def test_a_signature_is_itsdangerous_hmac_of_the_derived_key(payload):
    """The one-shot HMAC gives what itsdangerous's own algorithm gives, so tokens already sent stay valid."""
    ours = TokenSigner("a secret").reply
    theirs = Signer("a secret", salt="mirrorpost.reply", sep=".")
    mac = theirs.algorithm.get_signature(theirs.derive_key(), payload.encode())
    expected = base64.b32encode(mac).decode().lower()[:SIGNATURE_LENGTH]
    assert ours.get_signature(payload).decode() == expected


def test_tokens_are_found_again_and_forgeries_counted():
    signer = TokenSigner("a secret")
    token = ReplyToken(12, "black", 7)
    made = signer.reply_token(token)
    forged = made[:-1] + ("a" if made[-1] != "a" else "b")
    found, bad = signer.find_reply_tokens(f"To: referee+{made}@x.test, referee+{forged}@x.test")
    assert found == [token] and bad == 1
    assert TokenSigner("another secret").find_reply_tokens(made) == ([], 1)
