"""One stray byte in a header must not lose a move: a reply with a valid token is played, whatever 8-bit
bytes or NULs its lookup fields hold, and the server answers it. Over real SMTP, on each database."""

import pytest

from app.inbound.clients import reply
from app.inbound.parse import parse
from tests.server.harness import Table
from tests.server.smtp_game import ALICE, BOB
from tests.server.test_fuzz_headers import original_value, with_field

STRAY = {
    "References": lambda value: value + b" <caf\xe9@x.test>",
    "In-Reply-To": lambda value: b"<caf\xe9@x.test> " + value,
    "Message-ID": lambda value: b"<caf\xe9\x00@players.test>",
    "To": lambda value: value + b", \"Caf\xe9\" <caf\xe9@x.test>, <nul\x00@x.test>",
    "Cc": lambda value: b"caf\xc3\xa9@x.test, \xff\xfe",
    "From": lambda value: b"Alic\xc3\xa9 <alice@players.test>",
    "Subject": lambda value: b"Re: \xe9\x00 " + value,
}


def started(game) -> None:
    """A game started in the database, its mails dispatched to the players' mail server."""
    Table(game.server).start()
    game.worker.run_once()


@pytest.mark.parametrize("field", STRAY)
def test_a_reply_with_a_stray_byte_in_a_lookup_field_is_played_and_answered(game, field):
    started(game)
    request = game.sink.last_raw(ALICE)
    raw = reply(request, "R e2-e4", "gmail", ALICE)
    raw = with_field(raw, field, STRAY[field](original_value(raw, field)), duplicate=False)
    game.send(ALICE, raw, str(game.sink.to(ALICE)[-1]["Reply-To"]))
    assert "your move (Black)" in game.subject(BOB)
    assert "Your pawn went Real e2 to e4" in game.text(ALICE)


def test_every_id_and_address_read_is_printable_text():
    raw = (b"From: Alic\xc3\xa9 <alice@players.test>\r\n"
           b"To: <caf\xe9@x.test>, referee@mirrorpost.test, <a\x00@x.test>\r\n"
           b"Message-ID: <caf\xe9@x.test> <own@players.test>\r\nIn-Reply-To: <\x00@x> <a@b.test>\r\n"
           b"References: <c@d.test> <\xff>\r\nSubject: r\xc3\xa9ponse\x00automatique\r\n\r\nR e2-e4\r\n")
    parsed = parse(raw, ["referee+x@mirrorpost.test", "bad\udce9@mirrorpost.test"])
    assert parsed.message_id == "<own@players.test>"
    assert parsed.references == ["<a@b.test>", "<c@d.test>"]
    assert parsed.recipients == ["referee+x@mirrorpost.test", "caf\u00e9@x.test", "referee@mirrorpost.test", "a@x.test"]
    assert parsed.subject == "réponse automatique"
    assert all(value.isprintable() for values in parsed.headers.values() for value in values)
