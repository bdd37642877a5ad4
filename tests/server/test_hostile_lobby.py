"""The lobby is no relay and no way to silence anyone: mail to the bare address proves nothing about its From,
so nothing its sender wrote goes back to that address, a From name is adopted only from a reply to a mail of
ours, and forgers, however many, can make an address receive only a bounded number of mails and cannot stop
that address's own answers."""

from email import message_from_bytes
from email.policy import default

import pytest
from sqlalchemy import select

from app.db import utcnow
from app.games.models import Player
from app.inbound.answers import Answers
from app.inbound.clients import fresh, reply
from tests.server.doors import Doors
from tests.server.harness import ALICE, Table

REFEREE = "referee@mirrorpost.test"
CAROL = "carol@players.test"
SPAM = "BUY CHEAP PILLS at pills.example"
FORGERS = [f"forger{n}@evil{n}.test" for n in range(25)]  # one forged mail each: every sender within its own limit


@pytest.fixture
def doors(tmp_path, database_url):
    opened = Doors(tmp_path, database_url)
    yield opened
    opened.close()


def everything_in(raw: bytes) -> str:
    """A mail's headers and every text part, decoded: all that its reader could see."""
    message = message_from_bytes(raw, policy=default)
    parts = [str(value) for _, value in message.items()]
    parts += [part.get_content() for part in message.walk() if part.get_content_maintype() == "text"]
    return "\n".join(parts).lower()


def player_name(server, address: str) -> str | None:
    with server.db.sessions() as session:
        return session.scalar(select(Player.name).where(Player.email == address))


def reply_address(mail) -> str:
    return str(message_from_bytes(mail.raw)["Reply-To"])


def test_nothing_a_stranger_writes_goes_back_to_the_address_it_names(doors):
    """A name, a challenged address, a variant, an option, a line with an order in it: the error notices say what
    was asked in the referee's words only; the confirmation request repeats only checked values (the cleaned name,
    the address challenged), never an option or a line as written."""
    table = Table(doors.server)
    commands = "\n".join([
        f"name {SPAM}",
        "challenge buy-cheap-pills@pills.example looking-glass",
        "challenge dave@players.test looking-glass strikes=pills.example",
        "challenge pills.example",
        "challenge dave@players.test pills.example",
        "rules pills.example",
    ])
    assert doors.deliver("smtp", fresh(f'"{SPAM}" <{CAROL}>', REFEREE, commands), "spammer@evil.test") \
        .startswith("done: ")
    doors.deliver("smtp", fresh(f'"{SPAM}" <{CAROL}>', REFEREE, "R e2-e4 pills.example\naccept pills.example"),
                  "spammer@evil.test")
    kinds = [mail.kind for mail in table.mails(CAROL)]
    assert sorted(kinds) == ["confirm", "error", "help"], kinds
    request = table.text(CAROL, "confirm")
    held = [f"set your display name to: {SPAM}", "invite buy-cheap-pills@pills.example to a game of"]
    assert all(sentence in request for sentence in held) and "a game of Through the Looking-Glass" in request
    for mail in table.mails(CAROL):
        seen = " ".join(everything_in(mail.raw).split())
        for sentence in held if mail.kind == "confirm" else []:
            seen = seen.replace(sentence.lower(), "")
        assert "pills" not in seen, mail.kind
    assert "reply to that game's move request" in table.text(CAROL, "help")  # still says what went wrong


def test_a_confirmed_owner_hears_what_they_asked_in_their_own_words(doors):
    """Once the address has answered the confirmation request, the results may name what its owner wrote."""
    table = Table(doors.server)
    doors.deliver("smtp", fresh(CAROL, REFEREE, "name Carol Liddell\nchallenge dave@players.test"), CAROL)
    assert table.confirm(CAROL) == "done: confirmed: name; challenge: game 1"
    assert "You are now called Carol Liddell" in table.text(CAROL, "notice")
    assert "Your challenge to dave@players.test" in table.text(CAROL, "challenge-sent")


def test_a_name_in_a_forged_from_is_not_taken_until_the_address_answers_a_mail_of_ours(doors):
    server = doors.server
    table = Table(server)
    forged = fresh(f'"{SPAM}" <{CAROL}>', REFEREE, "help")
    assert doors.deliver("smtp", forged, "spammer@evil.test") == "done: help"
    assert player_name(server, CAROL) in (None, "Carol")
    table.new_game(ALICE, CAROL)  # someone invites Carol: nothing of the forger's goes with it
    for mail in table.mails(CAROL) + table.mails(ALICE):
        assert "pills" not in everything_in(mail.raw), mail.kind
    invitation = table.last(CAROL, "invitation")
    accepted = reply(invitation.raw, "accept", "gmail", CAROL).replace(
        f"From: {CAROL}".encode(), f'From: "Carol Liddell" <{CAROL}>'.encode(), 1)
    assert doors.deliver("smtp", accepted, CAROL, reply_address(invitation)) == "done: accepted"
    assert player_name(server, CAROL) == "Carol Liddell"  # her own client's name, from a reply that proves it


def test_rotating_forgers_cannot_use_up_the_refusals_a_player_causes_herself(doors):
    server = doors.server
    table = Table(server)
    table.start()
    request = table.last(ALICE, "request")
    forged_address = reply_address(request).replace("+1w0.", "+1w1.")
    for number, forger in enumerate(FORGERS):  # a damaged reply token in Alice's name, each from another server
        forged = reply(request.raw, "R e2-e4", "gmail", ALICE).replace(b"referee+1w0.", b"referee+1w1.") \
            .replace(b"<1w0.", b"<1w1.").replace(b"Message-ID: <", f"Message-ID: <f{number}".encode(), 1)
        assert doors.deliver("webhook", forged, forger, forged_address) == "rejected: forged or damaged token"
    assert len(table.mails(ALICE, "refused")) == server.settings.answers_per_day  # bounded, however many forgers
    own = table.reply_bytes(ALICE, "R e2-e4\n" + "x" * 1_200_000, "apple", kind="request")
    assert doors.deliver("webhook", own, ALICE, reply_address(request)) == "rejected: too large"
    assert table.last(ALICE).kind == "too-large"  # what Alice causes herself is still answered


def test_rotating_forgers_cannot_stop_a_confirmation_its_owner_replies_to(doors):
    server = doors.server
    table = Table(server)
    doors.deliver("webhook", fresh(CAROL, REFEREE, "name Carol Liddell"), CAROL)
    genuine = table.last(CAROL, "confirm")
    for forger in FORGERS:
        doors.deliver("webhook", fresh(CAROL, REFEREE, f"name {forger}"), forger)
    assert len(table.mails(CAROL)) <= 1 + server.settings.answers_per_day  # her own, and a bounded number more
    confirmed = reply(genuine.raw, "yes", "gmail", CAROL)
    assert doors.deliver("webhook", confirmed, CAROL, reply_address(genuine)) == "done: confirmed: name"
    assert player_name(server, CAROL) == "Carol Liddell"
    assert "You are now called Carol Liddell" in table.text(CAROL, "notice")  # a reply by key is always answered


def test_rotating_forgers_cannot_stop_the_answer_to_the_owners_own_mail(doors):
    server = doors.server
    table = Table(server)
    for forger in FORGERS:
        doors.deliver("webhook", fresh(CAROL, REFEREE, f"name {forger}"), forger)
    assert len(table.mails(CAROL)) == server.settings.answers_per_day  # bounded, however many forgers
    doors.deliver("webhook", fresh(CAROL, REFEREE, "name Carol Liddell"), CAROL)
    assert table.confirm(CAROL) == "done: confirmed: name"
    assert player_name(server, CAROL) == "Carol Liddell"


def test_answers_count_against_their_cause_and_forgers_together_reach_an_address_a_days_worth(server):
    settings = server.settings
    with server.db.engine.begin() as connection:
        answers = Answers(connection, settings, utcnow())

        def answer(recipient: str, cause: str) -> bool:
            if not answers.may_answer(recipient, cause):
                return False
            answers.record(recipient, cause, "answer")
            return True

        assert sum(answer(CAROL, forger) for forger in FORGERS) == settings.answers_per_day
        assert answer(CAROL, CAROL)  # Carol's own mail is answered all the same
        assert not answer(CAROL, "another@evil.test")
        assert answer(ALICE, FORGERS[0])  # each forger is limited on its own ...
        assert sum(answer(f"x{n}@players.test", "robot@robots.test") for n in range(10)) \
            == settings.answers_per_hour  # ... as is a robot writing under many names
