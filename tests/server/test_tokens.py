"""Signed tokens: itsdangerous's HMAC signature, in lower-case base32, found again in any text."""

import base64
from datetime import timedelta

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


def test_the_key_once_signer_signs_as_itsdangerous_does():
    """History links are signed by itsdangerous's own format, with the key derived once."""
    import hashlib

    from app.tokens import KeyOnceSigner

    ours = KeyOnceSigner("a secret", salt="s", sep=".", digest_method=hashlib.sha256)
    theirs = Signer("a secret", salt="s", sep=".", digest_method=hashlib.sha256)
    assert ours.sign("1.2.3") == theirs.sign("1.2.3")
    assert theirs.unsign(ours.sign("1.2.3")) == b"1.2.3"


def test_a_history_key_carries_its_time_and_any_change_to_it_is_refused(tmp_path):
    from datetime import UTC, datetime

    from app.config import load_settings
    from app.games.mail.links import history_key, read_history_key

    settings = load_settings({"SECRET_KEY": "a secret", "MIRRORPOST_INSTANCE": str(tmp_path)})
    issued = datetime(2026, 5, 1, 12, 0, 0, 123999, tzinfo=UTC)
    key = history_key(settings, 7, 42, issued)
    found = read_history_key(settings, key)
    assert (found.game_id, found.player_id) == (7, 42)
    assert found.issued_at <= issued and issued - found.issued_at < timedelta(milliseconds=1)  # never later
    game, player, when, signature = key.split(".")
    for changed in (f"8.{player}.{when}.{signature}", f"{game}.43.{when}.{signature}",
                    f"{game}.{player}.{when[:-1]}{'1' if when[-1] != '1' else '2'}.{signature}", key + "x",
                    "x" * 300):
        assert read_history_key(settings, changed) is None, changed
    other = load_settings({"SECRET_KEY": "another secret", "MIRRORPOST_INSTANCE": str(tmp_path)})
    assert read_history_key(other, key) is None
