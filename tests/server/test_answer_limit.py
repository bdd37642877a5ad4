"""The answer limit on mail to the bare address counts only what a forged sender could cause: the answer that
reaches it says so, once, and from when the referee answers again; a confirmed request, and every answer about
a game or a digest, are never silenced by it; never a forger's victim, never twice in a window. Over real SMTP,
and in-process for the digest."""

from datetime import timedelta

from sqlalchemy import select

from app.inbound.clients import fresh
from app.inbound.models import Answer
from tests.server.digest_helpers import digest_on, move, send_digests, start_game
from tests.server.harness import Table
from tests.server.smtp_game import ALICE, BOB, MALLORY, REFEREE

LAST = "This is the last answer for now"


def answered_at(server) -> list:
    with server.db.sessions() as session:
        return list(session.scalars(select(Answer.created_at).where(Answer.kind == "answer").order_by(Answer.id)))


def test_the_answer_that_reaches_the_hours_limit_says_so_and_when_answers_resume_and_then_nothing(game):
    hourly = game.server.settings.answers_per_hour
    for number in range(hourly):
        game.send(ALICE, fresh(ALICE, REFEREE, "games", subject=f"my games {number}"), REFEREE)
    answers = game.sink.to(ALICE)
    assert len(answers) == hourly and all(str(mail["Subject"]) == "Mirrorpost: your games" for mail in answers)
    assert not any(LAST in " ".join(game.sink.to(ALICE)[n].get_body(("plain",)).get_content().split())
                   for n in range(hourly - 1))
    resumes = answered_at(game.server)[0] + timedelta(hours=1)
    text = game.text(ALICE)  # the answer that reached the limit
    assert LAST in text and f"at most {hourly} mails an hour" in text
    assert f"again from {resumes:%Y-%m-%d %H:%M} UTC" in text
    assert game.sink.to(ALICE)[-1]["Auto-Submitted"] == "auto-replied"
    for number in range(3):
        game.send(ALICE, fresh(ALICE, REFEREE, "games", subject=f"and again {number}"), REFEREE)
    assert len(game.sink.to(ALICE)) == hourly  # said once, in that answer: nothing more this hour


def test_a_forgers_mail_past_its_answers_brings_its_victim_no_word_of_the_limit(game):
    """Mail sent by Mallory in Alice's name counts against Mallory; past it, Alice gets nothing at all."""
    hourly = game.server.settings.answers_per_hour
    for number in range(hourly + 3):
        game.send(MALLORY, fresh(ALICE, REFEREE, "games", subject=f"forged {number}"), REFEREE)
    texts = [" ".join(mail.get_body(("plain",)).get_content().split()) for mail in game.sink.to(ALICE)]
    assert len(texts) == hourly and not any(LAST in text for text in texts)
    assert game.sink.to(MALLORY) == []


def ask(game, player: str, line: str) -> str:
    count = len(game.sink.to(player))
    game.send(player, fresh(player, REFEREE, line, subject="club"), REFEREE)
    assert len(game.sink.to(player)) > count, f"no answer to {line!r}"
    return str(game.sink.to(player)[-1]["Subject"])


def test_ordinary_club_use_never_uses_up_the_answers_to_mail_to_the_bare_address(game):
    """Seeks listed, a seek posted, a mistaken join and the right one, each request confirmed: only the lists and
    the mistake count, so a later seek is still answered."""
    game.send(BOB, fresh(BOB, REFEREE, "seek side-view"), REFEREE)
    game.reply(BOB, "yes")
    assert ask(game, ALICE, "seeks") == "Mirrorpost: open seeks"
    assert ask(game, ALICE, "seek kriegspiel") == "Mirrorpost: please confirm"
    game.reply(ALICE, "yes")
    assert ask(game, ALICE, "join 2") == "Mirrorpost: not carried out"  # her own seek
    assert ask(game, ALICE, "seeks") == "Mirrorpost: open seeks"
    assert ask(game, ALICE, "join 1") == "Mirrorpost: please confirm"
    game.reply(ALICE, "yes")
    assert ask(game, ALICE, "cancel seek 2") == "Mirrorpost: please confirm"
    game.reply(ALICE, "yes")
    assert ask(game, ALICE, "seek looking-glass") == "Mirrorpost: please confirm"
    assert LAST not in game.text(ALICE)


def test_a_reply_to_the_digest_is_answered_whatever_the_bare_address_refused_that_hour(server):
    """Alice's mistakes to the bare address used up its answers and more error notices than a game has an hour;
    her reply to the digest that names no game is still answered."""
    table = Table(server)
    digest_on(server, ALICE)
    game_id = start_game(server, "side-view", BOB, ALICE)
    move(server, game_id, BOB)
    send_digests(server)
    for number in range(server.settings.answers_per_hour + 1):
        assert table.write(ALICE, f"join {number + 40}").startswith("rejected")
    errors = len(table.mails(ALICE, "error"))
    assert errors >= server.settings.error_notices_per_hour
    assert table.reply(ALICE, "e7-e5", kind="digest") == "rejected: a reply to a digest naming no game"
    assert "named no game" in table.text(ALICE, "digest-error")
