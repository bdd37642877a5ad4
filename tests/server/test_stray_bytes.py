"""One stray byte in a header must not lose a move: a reply with a valid token is played, whatever 8-bit
bytes or NULs its lookup fields hold, and the server answers it. Over real SMTP, on each database."""

import pytest
from sqlalchemy import select

from app.games.models import Player
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


# A From whose address is valid and whose display name is broken, as broken clients write it: the address
# decides who sent the reply, the name is read as well as it can be (then cleaned, as every name is).
BROKEN_NAMES = {
    "base64 without its padding": (b"=?utf-8?b?TGlkZGVsbA?= <alice@players.test>", "Liddell"),
    "unknown-8bit": (b"=?unknown-8bit?q?Lidd=E9ll?= <alice@players.test>", "Lidd\u00e9ll"),
    "an unknown charset, UTF-8 bytes": (b"=?x-no-such-charset?q?Lidd=C3=A9ll?= <alice@players.test>",
                                        "Lidd\u00e9ll"),
    "an unknown charset, Latin-1 bytes": (b"=?x-no-such-charset?q?Lidd=E9ll?= <alice@players.test>",
                                          "Lidd\u00e9ll"),
    "UTF-8 declared, Latin-1 written": (b"=?utf-8?q?Lidd=E9ll?= <alice@players.test>", "Lidd\u00e9ll"),
    "an encoded word quoted": (b'"=?utf-8?b?TGlkZGVsbA==?=" <alice@players.test>', "Liddell"),
    "raw Latin-1": (b"Lidd\xe9ll <alice@players.test>", "Lidd\u00e9ll"),
    "raw UTF-8": (b"Lidd\xc3\xa9ll <alice@players.test>", "Lidd\u00e9ll"),
    "base64 of a length no padding mends": (b"=?utf-8?b?TGlkZGVsb?= <alice@players.test>", "alice"),
}


@pytest.mark.parametrize("case", BROKEN_NAMES)
def test_a_from_name_in_broken_bytes_is_read_as_well_as_it_can_be(case):
    value, name = BROKEN_NAMES[case]
    parsed = parse(b"From: " + value + b"\r\nSubject: Re: Game 1\r\n\r\nR e2-e4\r\n")
    assert (parsed.sender, parsed.sender_name, parsed.sender_problem) == ("alice@players.test", name, None)


@pytest.mark.parametrize("value", [
    b"=?utf-8?q?Al=E9?= <=?utf-8?q?alice?=@players.test>",  # an encoded word in the address itself
    b"=?utf-8?b?TGlkZGVsbA?= <alice@players.test>, bob@players.test",
    b"=?unknown-8bit?q?Al=E9?= <alic\xe9@players.test>",  # a stray byte in the address
])
def test_a_broken_name_excuses_nothing_in_the_address(value):
    parsed = parse(b"From: " + value + b"\r\nSubject: Re: Game 1\r\n\r\nR e2-e4\r\n")
    assert parsed.sender is None and parsed.sender_problem


@pytest.mark.parametrize("case", ["base64 without its padding", "unknown-8bit", "raw Latin-1"])
def test_a_reply_whose_from_name_is_broken_is_carried_out_over_smtp(game, case):
    started(game)
    raw = reply(game.sink.last_raw(ALICE), "R e2-e4", "gmail", ALICE)
    raw = with_field(raw, "From", BROKEN_NAMES[case][0], duplicate=False)
    game.send(ALICE, raw, str(game.sink.to(ALICE)[-1]["Reply-To"]))
    assert "your move (Black)" in game.subject(BOB)
    assert "Your pawn went Real e2 to e4" in game.text(ALICE)
    with game.server.db.sessions() as session:
        assert session.scalar(select(Player.name).where(Player.email == ALICE)) == BROKEN_NAMES[case][1]
