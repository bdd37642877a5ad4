"""What the referee says, as players read it: articles and plurals, draws in one sentence, subjects that keep the
game's title, bullet lines wrapped under themselves, the subject of ``digest off``, one mail for a move sent with
``offer draw``, and ``join`` on one's own seek once it was taken."""

from __future__ import annotations

import re
from email import message_from_bytes
from email.policy import default

import pytest

from app.club.seeks import read_seek
from app.games.mail.mailing import SUBJECT_WIDTH, subject_line
from app.present.registry import DECLARATIONS, presenter_for
from app.present.words import Names
from app.rules.registry import VARIANTS
from app.service import Service
from tests.server.harness import ALICE, BOB, Table

# Every end of a drawn game some variant gives (the referees' own reasons).
DRAW_REASONS = ("agreement", "stalemate", "dead position", "threefold repetition", "50-move rule", "75-move rule",
                "fivefold repetition", "insufficient material", "fifty moves")


def test_a_seek_is_a_rated_game_or_an_unrated_one():
    assert read_seek("side-view unrated").described().startswith("an unrated game of Side View Chess (3 days")
    assert read_seek("side-view").described().startswith("a rated game of Side View Chess")


@pytest.mark.parametrize("variant", sorted(DECLARATIONS))
def test_a_draw_is_told_in_one_sentence_that_does_not_say_draw_twice(variant):
    presenter = presenter_for(variant)
    names = Names("white", "Alice", "Bob")
    assert presenter.outcome_for("white", "1/2-1/2", "agreement", names) == "A draw: mutual agreement."
    for reason in DRAW_REASONS:
        said = presenter.outcome_for("black", "1/2-1/2", reason, names)
        assert said.count(":") == 1 and not re.search(r"draw\b.*\bdraw\b", said, re.I), said
        assert presenter.end_words("1/2-1/2", reason).count(":") == 0, reason


def test_a_long_subject_keeps_the_games_title_and_shortens_what_happened():
    long = subject_line("Game 12", "Alice Pleasance Liddell of Christ Church, Oxford offers a draw",
                        "4D Quasi-Alice Chess", move=30)
    assert len(long) <= SUBJECT_WIDTH and long.endswith("... - 4D Quasi-Alice Chess"), long
    assert long.startswith("Game 12: Alice Pleasance Liddell")  # the move number goes first
    assert subject_line("Game 1", "the game has started - your move (White)", "Through the Looking-Glass", 1) \
        == "Game 1: the game has started - your move (White) - Through the Looking-Glass"
    kept = subject_line("Game 1", "your order was not accepted for a reason this long - your move again",
                        "Through the Looking-Glass", 1)
    assert len(kept) <= SUBJECT_WIDTH and kept.endswith("... - your move again - Through the Looking-Glass"), kept
    assert subject_line("Game 12", "your move (White)", "Kriegspiel") == "Game 12: your move (White) - Kriegspiel"
    assert subject_line("Game 12", "your move (White)", "Kriegspiel", 5) == \
        "Game 12, move 5: your move (White) - Kriegspiel"
    in_event = subject_line("Game 12", "the game has started - your move (White)", "4D Quasi-Alice Chess", 1,
                            "Tournament 3, round 2")
    assert in_event.startswith("Game 12 (Tournament 3, round 2): ") and len(in_event) <= SUBJECT_WIDTH, in_event
    longest = max((variant.title for variant in VARIANTS.values()), key=len)
    for tail in ("the game has started - your move (White)", "your order was not accepted - your move again"):
        told = subject_line("Game 123", tail, longest, 30, "Tournament 45, round 12")
        assert len(told) <= SUBJECT_WIDTH and told.startswith("Game 123") and \
            told.endswith(f"{tail.rpartition(' - ')[2]} - {longest}"), told
    unbroken = subject_line("Game 12", "x" * 120, "Kriegspiel")
    assert len(unbroken) <= SUBJECT_WIDTH and unbroken.endswith("x... - Kriegspiel")


def test_a_draw_offer_from_a_player_with_a_long_name_keeps_the_title_in_the_subject(server):
    table = Table(server, "side-view")
    game_id = table.start()
    with server.db.engine.begin() as connection:
        service = Service(connection, server.settings, server.signer)
        game = service.lock(game_id)
        game.white.name = "Alice Pleasance Liddell of Christ Church, Oxford"
        service.flush()
    table.reply(ALICE, "e2-e4\noffer draw", kind="request")
    subject = table.last(BOB, "draw-offer").subject  # Bob's move request, which brings the offer
    assert len(subject) <= SUBJECT_WIDTH and subject.endswith("... - Side View Chess"), subject


def test_a_move_sent_with_offer_draw_gives_the_mover_one_mail_telling_both(server):
    table = Table(server, "side-view")
    table.start()
    for body, side, opponent in (("e2-e4\noffer draw", ALICE, BOB), ("e7-e5", BOB, ALICE),
                                 ("offer draw\ng1-f3", ALICE, BOB)):
        before, theirs = len(table.mails(side)), len(table.mails(opponent))
        table.reply(side, body)
        (mail,) = table.mails(side)[before:]
        text = " ".join(mail.body_text.split())
        assert "your move was made" in mail.subject, mail.subject
        assert ("Your draw offer was passed on." in text) == ("offer draw" in body), text
        told = " ".join(each.subject for each in table.mails(opponent)[theirs:])
        assert ("offers a draw" in told) == ("offer draw" in body), told
    before = len(table.mails(BOB))
    table.reply(BOB, "decline draw")
    (mail,) = table.mails(BOB)[before:]
    assert "You declined Alice's draw offer." in mail.body_text


def test_digest_off_is_answered_under_a_subject_that_says_so(server):
    table = Table(server)
    table.write_confirmed(ALICE, "digest daily 7")
    assert table.last(ALICE, "notice").subject == "Mirrorpost: your daily digest"
    table.write_confirmed(ALICE, "digest off")
    answer = table.last(ALICE, "notice")
    assert answer.subject == "Mirrorpost: no daily digest: a mail for each move", answer.subject
    assert "The daily digest is off" in answer.body_text


def test_bullet_lines_of_a_confirmation_wrap_under_themselves_in_both_parts(server):
    table = Table(server)
    table.write(ALICE, "seek side-view days=5 rating 1400-1800")
    mail = table.last(ALICE, "confirm")
    lines = mail.body_text.splitlines()
    first = next(number for number, line in enumerate(lines) if line.startswith("- post an open seek"))
    assert lines[first + 1].startswith("  ") and lines[first + 1].strip(), lines[first:first + 3]
    html = message_from_bytes(mail.raw, policy=default).get_body(("html",)).get_content()
    assert re.search(r"<ul[^>]*><li[^>]*>post an open seek: a rated game of Side View Chess", html), html


def test_joining_ones_own_seek_once_taken_says_it_was_taken(server):
    table = Table(server)
    with server.db.engine.begin() as connection:
        service = Service(connection, server.settings, server.signer)
        number = service.seeks.post(service.player(ALICE), "side-view")
        game = service.seeks.join(service.player(BOB), number)
    table.write(ALICE, f"join {number}")
    told = table.text(ALICE)
    assert f"your seek {number} was taken (its game is game {game.id})" in told, told
    assert "cancel seek" not in told
