"""Impersonation: a forged From changes nothing outside a game without its owner's reply, From is read
strictly, Authentication-Results must pass for the From domain, refusals count against whoever caused them,
and a reused Message-ID is not someone else's message."""

from email import message_from_bytes

import pytest
from sqlalchemy import select

from app.games.models import Game, Player
from app.inbound.clients import fresh, reply
from tests.conftest import make_server
from tests.server.doors import DOORS, Doors
from tests.server.harness import ALICE, BOB, Table

REFEREE = "referee@mirrorpost.test"
MALLORY = "mallory@evil.test"
CAROL = "carol@players.test"


@pytest.fixture
def doors(tmp_path, database_url):
    opened = Doors(tmp_path, database_url)
    yield opened
    opened.close()


def player(server, address: str) -> Player:
    with server.db.sessions() as session:
        return session.scalar(select(Player).where(Player.email == address))


def games(server) -> int:
    with server.db.sessions() as session:
        return len(session.scalars(select(Game)).all())


def reply_address(mail) -> str:
    return str(message_from_bytes(mail.raw)["Reply-To"])


@pytest.mark.parametrize("door", DOORS)
def test_forged_commands_outside_a_game_change_nothing_until_the_owner_confirms(doors, door):
    server = doors.server
    table = Table(server)
    game_id = table.start()
    deadline = table.game(game_id).deadline
    forged = fresh(BOB, REFEREE, "name Mallory's puppet\nvacation 21\nchallenge carol@players.test")
    outcome = doors.deliver(door, forged, MALLORY)
    assert outcome == "done: held for confirmation: name Mallory's puppet; vacation 21; " \
                      "challenge carol@players.test looking-glass days=3 color=white impossible=strike strikes=3 " \
                      "win=king"
    assert player(server, BOB).name == "Bob" and player(server, BOB).vacation_days_used == 0
    assert games(server) == 1 and table.mails(CAROL) == [] and table.game(game_id).deadline == deadline
    request = table.last(BOB, "confirm")  # only the owner of the address hears of it
    assert "If you did not ask for this, ignore this mail" in table.text(BOB, "confirm")
    stolen = reply(request.raw, "yes", "apple", MALLORY)  # someone else replying cannot confirm it
    assert doors.deliver(door, stolen, MALLORY, reply_address(request)) == "rejected: confirmation not valid"
    guessed = fresh(BOB, "referee+confirm.abcdefghijklmnopqrstuvwxyz@mirrorpost.test", "yes")
    assert doors.deliver(door, guessed, MALLORY, "referee+confirm.abcdefghijklmnopqrstuvwxyz@mirrorpost.test") \
        == "rejected: confirmation not valid"
    assert games(server) == 1 and player(server, BOB).vacation_days_used == 0
    confirmed = reply(request.raw, "yes", "gmail", BOB)
    outcome = doors.deliver(door, confirmed, BOB, reply_address(request))
    assert outcome == "done: confirmed: name; vacation; challenge: game 2"
    assert player(server, BOB).name == "Mallory's puppet" and player(server, BOB).vacation_days_used == 21
    assert games(server) == 2 and "bob@players.test invites you" in table.text(CAROL, "invitation")
    again = reply(request.raw, "yes again", "outlook", BOB)
    assert doors.deliver(door, again, BOB, reply_address(request)) == "rejected: confirmation not valid"
    assert games(server) == 2 and player(server, BOB).vacation_days_used == 21


def with_from(raw: bytes, *values: bytes) -> bytes:
    lines = [line for line in raw.split(b"\r\n\r\n", 1)[0].split(b"\r\n") if not line.lower().startswith(b"from:")]
    head = b"\r\n".join([*(b"From: " + value for value in values), *lines])
    return head + b"\r\n\r\n" + raw.split(b"\r\n\r\n", 1)[1]


@pytest.mark.parametrize("values", [
    [b"alice@players.test <evil@evil.test>"],
    [b"<alice@players.test>evil@evil.test"],
    [b"alice@players.test (c) <evil@evil.test>"],
    [b"alice@players.test, evil@evil.test"],
    [b"Alice <alice@players.test>", b"Eve <evil@evil.test>"],
    [b"Alice <alice@players.test>", b"Alice <alice@players.test>"],
    [b"(" * 2000 + b"alice@players.test"],
    [b"undisclosed-recipients:;"],
])
def test_a_from_not_exactly_one_address_is_refused_and_moves_nothing(doors, values):
    table = Table(doors.server)
    game_id = table.start()
    request = table.last(ALICE, "request")
    raw = with_from(reply(request.raw, "R e2-e4", "gmail", ALICE), *values)
    outcome = doors.deliver("webhook", raw, MALLORY, reply_address(request))
    assert outcome.startswith("rejected: From refused: "), outcome
    assert table.game(game_id).ply == 0
    assert table.mails(MALLORY)[-1].kind == "refused"  # the envelope sender is told why, nobody named in From


def test_a_strict_from_still_reads_what_clients_write(doors):
    table = Table(doors.server)
    game_id = table.start()
    request = table.last(ALICE, "request")
    raw = with_from(reply(request.raw, "R e2-e4", "gmail", ALICE), b'"Liddell, Alice (Oxford)" <Alice@Players.test>')
    assert doors.deliver("smtp", raw, ALICE, reply_address(request)) == "done: R e2-e4: moved"
    assert table.game(game_id).ply == 1


AUTH = "mx.mirrorpost.test"


@pytest.mark.parametrize(("results", "accepted"), [
    (f"{AUTH}; spf=pass smtp.mailfrom=evil.org; dkim=fail header.d=players.test; dmarc=fail", False),
    (f"{AUTH}; spf=fail (spf=pass) smtp.mailfrom=players.test; dkim=none", False),
    (f"{AUTH}; dkim=pass header.d=evil.org; dmarc=fail header.from=players.test", False),
    ("mx.evil.test; dmarc=pass header.from=players.test", False),
    (f"{AUTH}; dmarc=pass (p=reject) header.from=players.test", True),
    (f"{AUTH}; spf=pass smtp.mailfrom=alice@players.test", True),
    (f"{AUTH}; dkim=pass header.d=players.test header.s=s1; spf=fail smtp.mailfrom=evil.org", True),
])
def test_authentication_results_must_pass_for_the_from_domain_from_our_border(tmp_path, database_url, results,
                                                                              accepted):
    doors = Doors(tmp_path, database_url, REQUIRE_AUTH_RESULTS="1", AUTHSERV_ID=AUTH)
    try:
        table = Table(doors.server)
        game_id = table.new_game()
        invitation = table.last(ALICE, "invitation")
        raw = b"Authentication-Results: " + results.encode() + b"\r\n" + reply(invitation.raw, "accept", "apple",
                                                                              ALICE)
        outcome = doors.deliver("ingest", raw)
        assert outcome.startswith("done") if accepted else outcome.startswith("rejected: not verified")
        assert table.game(game_id).white_accepted is accepted
    finally:
        doors.close()


def test_require_auth_results_needs_the_border_servers_id(tmp_path, database_url):
    with pytest.raises(ValueError, match="AUTHSERV_ID"):
        make_server(tmp_path, database_url, REQUIRE_AUTH_RESULTS="1")


def test_refusals_of_forged_mail_count_against_the_forger_never_the_player_named(doors):
    server = doors.server
    table = Table(server)
    game_id = table.start()
    request = table.last(ALICE, "request")
    for attempt in range(8):  # a forged reply token in Alice's name, sent by Mallory's server
        forged = reply(request.raw, "R e2-e4", "gmail", ALICE).replace(b"referee+1w0.", b"referee+1w1.") \
            .replace(b"<1w0.", b"<1w1.").replace(b"Message-ID: <", f"Message-ID: <f{attempt}".encode(), 1)
        assert doors.deliver("smtp", forged, MALLORY, reply_address(request).replace("+1w0.", "+1w1.")) \
            == "rejected: forged or damaged token"
    refusals = table.mails(ALICE, "refused")
    assert len(refusals) == server.settings.answers_per_hour  # Mallory's allowance, used up
    for _ in range(server.settings.error_notices_per_hour):  # Alice's own allowance is whole
        table.reply(ALICE, "R e2-e9 what", kind="request")
    assert len(table.mails(ALICE, "error")) == server.settings.error_notices_per_hour
    own = table.reply_bytes(ALICE, "R e2-e4\n" + "x" * 1_200_000, "apple", kind="request")
    assert doors.deliver("webhook", own, ALICE, reply_address(request)) == "rejected: too large"
    assert table.last(ALICE).kind == "too-large"  # a refusal Alice caused herself is still answered
    assert table.game(game_id).ply == 0


def test_a_strangers_mail_with_a_players_message_id_does_not_swallow_the_players_mail(doors):
    table = Table(doors.server)
    game_id = table.start()
    request = table.last(ALICE, "request")
    genuine = reply(request.raw, "R e2-e4", "gmail", ALICE)
    message_id = message_from_bytes(genuine)["Message-ID"]
    stranger = fresh(MALLORY, REFEREE, "hello").replace(b"Message-ID: <", b"X-Old: <", 1)
    stranger = stranger.replace(b"\r\n\r\n", f"\r\nMessage-ID: {message_id}\r\n\r\n".encode(), 1)
    assert doors.deliver("smtp", stranger, MALLORY).startswith("done: not understood")
    assert doors.deliver("smtp", genuine, ALICE, reply_address(request)) == "done: R e2-e4: moved"
    assert table.game(game_id).ply == 1
    assert table.deliver(genuine) == "duplicate"  # the same message again is still one message
    assert table.game(game_id).ply == 1
    assert len(table.mails(BOB, "request")) == 1
