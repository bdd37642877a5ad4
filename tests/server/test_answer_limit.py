"""The answer limit on mail to the bare address: the sender is told once that it was reached and from when the
referee answers again; never a forger's victim, never twice in a window. Over real SMTP."""

from datetime import timedelta

from sqlalchemy import select

from app.inbound.clients import fresh
from app.inbound.models import Answer
from tests.server.smtp_game import ALICE, MALLORY, REFEREE


def answered_at(server) -> list:
    with server.db.sessions() as session:
        return list(session.scalars(select(Answer.created_at).where(Answer.kind == "answer").order_by(Answer.id)))


def test_the_mail_past_the_hours_answers_is_told_once_when_answers_resume(game):
    hourly = game.server.settings.answers_per_hour
    for number in range(hourly):
        game.send(ALICE, fresh(ALICE, REFEREE, "games", subject=f"my games {number}"), REFEREE)
    assert len(game.sink.to(ALICE)) == hourly
    game.send(ALICE, fresh(ALICE, REFEREE, "games", subject="once more"), REFEREE)
    notice = game.sink.to(ALICE)[-1]
    assert str(notice["Subject"]) == "Mirrorpost: no more answers for now"
    assert notice["Auto-Submitted"] == "auto-replied"
    resumes = answered_at(game.server)[0] + timedelta(hours=1)
    text = game.text(ALICE)
    assert f"at most {hourly} mails an hour" in text and f"again from {resumes:%Y-%m-%d %H:%M} UTC" in text
    for number in range(3):
        game.send(ALICE, fresh(ALICE, REFEREE, "games", subject=f"and again {number}"), REFEREE)
    assert len(game.sink.to(ALICE)) == hourly + 1  # told once, then nothing more this hour


def test_a_forgers_mail_past_its_answers_brings_its_victim_no_notice(game):
    """Mail sent by Mallory in Alice's name counts against Mallory; past it, Alice gets nothing at all."""
    hourly = game.server.settings.answers_per_hour
    for number in range(hourly + 3):
        game.send(MALLORY, fresh(ALICE, REFEREE, "games", subject=f"forged {number}"), REFEREE)
    subjects = [str(mail["Subject"]) for mail in game.sink.to(ALICE)]
    assert len(subjects) == hourly and "Mirrorpost: no more answers for now" not in subjects
    assert game.sink.to(MALLORY) == []
