"""Loops and abuse: robots get a few answers at most, a conversation that keeps coming back is cut, automatic
mail is never answered, and the referee is no relay for anyone's text to strangers."""

from datetime import timedelta
from email import message_from_bytes

import pytest
from sqlalchemy import select, update

from app.inbound.clients import fresh, reply
from app.inbound.models import Answer
from tests.server.doors import Doors
from tests.server.harness import Table

REFEREE = "referee@mirrorpost.test"
ROBOT = "echo@robots.test"


@pytest.fixture
def doors(tmp_path, database_url):
    opened = Doors(tmp_path, database_url)
    yield opened
    opened.close()


def echo(answer_raw: bytes, keep_threading: bool = True) -> bytes:
    """An echo robot's answer, without any header saying it is automatic: our mail's text sent back."""
    sent = message_from_bytes(answer_raw)
    text = reply(answer_raw, "", "no-markers", ROBOT)
    if not keep_threading:
        text = b"\r\n".join(line for line in text.split(b"\r\n") if not line.startswith((b"In-Reply-To",
                                                                                         b"References")))
    assert b"Auto-Submitted" not in text and sent["Subject"]
    return text


def test_an_echo_robot_gets_one_answer_and_the_loop_ends(doors):
    table = Table(doors.server)
    assert doors.deliver("smtp", fresh(ROBOT, REFEREE, "help"), ROBOT) == "done: help"
    for _ in range(6):
        outcome = doors.deliver("smtp", echo(table.last(ROBOT).raw), ROBOT)
        assert outcome == "ignored: not answered: a reply to an answer of ours with no command in it"
    assert len(table.mails(ROBOT)) == 1


def test_two_servers_whose_relay_strips_the_automatic_headers_stop_at_once(doors):
    """The other server answers every mail, threading lost and its robot headers stripped by a relay: our
    subject in its answer is enough to see it is a reply to us."""
    table = Table(doors.server)
    doors.deliver("webhook", fresh(ROBOT, REFEREE, "what is this?"), ROBOT)
    for _ in range(4):
        doors.deliver("webhook", echo(table.last(ROBOT).raw, keep_threading=False), ROBOT)
    assert len(table.mails(ROBOT)) == 1


def test_answers_outside_games_are_limited_per_address_an_hour_and_a_day(doors):
    """A sender that keeps writing gets its allowance, the last answer saying that it is used up, then nothing
    more in that window: each hour's allowance until the day's is spent, the last saying so for the day."""
    server = doors.server
    table = Table(server)
    for number in range(server.settings.answers_per_hour + 3):  # a robot asking the same, fresh each time
        doors.deliver("webhook", fresh(ROBOT, REFEREE, "games", subject=f"request {number}"), ROBOT)
    assert len(table.mails(ROBOT)) == server.settings.answers_per_hour
    said = [LAST in " ".join(mail.body_text.split()) for mail in table.mails(ROBOT, "games")]
    assert said == [False] * (server.settings.answers_per_hour - 1) + [True]
    hourly, daily = server.settings.answers_per_hour, server.settings.answers_per_day
    for turn in range(daily // hourly + 1):  # every two hours a fresh hourly allowance, until the day's is spent
        two_hours_ago(server)
        for number in range(hourly + 1):
            doors.deliver("webhook", fresh(ROBOT, REFEREE, "games", subject=f"later {turn} {number}"), ROBOT)
    assert len(table.mails(ROBOT)) == daily  # a day's worth, then none however long it keeps asking
    notices = [text for text in (" ".join(mail.body_text.split()) for mail in table.mails(ROBOT)) if LAST in text]
    assert len(notices) == daily // hourly  # one for each hour whose allowance ran out before the day's did...
    assert f"at most {daily} mails a day" in notices[-1]  # ... and one for the day, once
    assert all(f"at most {hourly} mails an hour" in notice for notice in notices[:-1])


LAST = "This is the last answer for now"


def two_hours_ago(server) -> None:
    """Every answer sent so far, as if sent two hours earlier."""
    with server.db.engine.begin() as connection:
        for row in connection.execute(select(Answer.id, Answer.created_at)).all():
            connection.execute(update(Answer).where(Answer.id == row.id)
                               .values(created_at=row.created_at - timedelta(hours=2)))


@pytest.mark.parametrize(("subject", "sender", "headers"), [
    ("AW: Abwesenheitsnotiz", "alice@players.test", {}),
    ("Automatische Antwort: Game 1", "alice@players.test", {}),
    ("Resposta automática: Game 1", "alice@players.test", {}),
    ("I am out of the office", "alice@players.test", {}),
    ("Re: Out of office", "alice@players.test", {}),
    ("[Auto-Reply] Game 1", "alice@players.test", {}),
    ("Delivery Status Notification (Failure)", "Mail Delivery Subsystem <mailer@googlemail.com>", {}),
    ("hello", "alice@players.test", {"X-Loop": REFEREE}),
    ("hello", "alice@players.test", {"X-Loop": f"Mirrorpost <{REFEREE}>"}),
])
def test_automatic_mail_is_never_answered(doors, subject, sender, headers):
    table = Table(doors.server)
    outcome = doors.deliver("webhook", fresh(sender, REFEREE, "help", subject=subject, **headers), "x@players.test")
    assert outcome.startswith("ignored: "), outcome
    assert table.mails("alice@players.test") == [] and table.mails("mailer@googlemail.com") == []


def test_our_own_mail_says_x_loop_and_comes_back_unanswered(doors):
    table = Table(doors.server)
    doors.deliver("smtp", fresh(ROBOT, REFEREE, "help"), ROBOT)
    ours = table.last(ROBOT).raw
    assert message_from_bytes(ours)["X-Loop"] == REFEREE
    bounced_back = ours.replace(b"Auto-Submitted: auto-replied\r\n", b"").replace(
        b"From: Mirrorpost referee <referee@mirrorpost.test>", f"From: {ROBOT}".encode())
    assert doors.deliver("smtp", bounced_back, ROBOT) == "ignored: not answered: X-Loop names the referee: " \
                                                         "our own mail came back"


def test_thirty_challenges_in_one_unconfirmed_mail_invite_nobody(doors):
    server = doors.server
    table = Table(server)
    spammer = "spammer@players.test"
    lines = "\n".join(f"challenge victim{n}@players.test looking-glass Buy cheap pills now" for n in range(30))
    outcome = doors.deliver("smtp", fresh(spammer, REFEREE, lines), spammer)
    assert outcome.startswith("rejected: not understood")
    assert "30 commands in one message" in table.text(spammer)
    assert all(not table.mails(f"victim{n}@players.test") for n in range(30))


def test_challenges_need_the_challengers_reply_are_limited_a_day_and_carry_none_of_their_text(doors):
    server = doors.server
    table = Table(server)
    spammer = "spammer@players.test"
    doors.deliver("smtp", fresh(spammer, REFEREE, "name BUY CHEAP PILLS at pills.example"), spammer)
    table.confirm(spammer)
    limit = server.settings.challenges_per_day
    lines = "\n".join(f"challenge victim{n}@players.test looking-glass days=3" for n in range(limit + 1))
    outcome = doors.deliver("smtp", fresh(spammer, REFEREE, "challenge referee@mirrorpost.test\n" + lines), spammer)
    assert outcome.startswith("done: refused: ") and f"at most {limit} challenges at once" in outcome
    assert "the referee does not play" in outcome
    assert all(not table.mails(f"victim{n}@players.test") for n in range(limit + 1))  # nothing before the reply
    assert table.confirm(spammer).startswith("done: confirmed: challenge: game")
    invited = [n for n in range(limit + 1) if table.mails(f"victim{n}@players.test")]
    assert invited == list(range(limit))
    for n in invited:
        text = table.text(f"victim{n}@players.test", "invitation")
        assert "spammer@players.test invites you" in text and "PILLS" not in text and "pills" not in text
    doors.deliver("smtp", fresh(spammer, REFEREE, "challenge another@players.test"), spammer)
    assert "proposed 5 games in the last 24 hours" in table.confirm(spammer)
    assert not table.mails("another@players.test")
