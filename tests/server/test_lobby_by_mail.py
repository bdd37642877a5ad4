"""Mail to the bare address and the invitation, over real SMTP: challenges read as written, confirmations that
say what will be done, and replies to an invitation understood."""

import json

import pytest
from sqlalchemy import select

from app.games.models import Game as GameRow
from app.inbound.clients import fresh
from tests.rules.palindromic_helpers import ONE_KNIGHT_AWAY, REVERSED_HANDS
from tests.server.smtp_game import ALICE, BOB, REFEREE
from tests.server.test_cli import manage
from tests.web_helpers import client_for

START = {"board": ONE_KNIGHT_AWAY, "handed": REVERSED_HANDS, "to_move": "white"}


def decoded(mail) -> str:
    """A received mail's subject and every text part, decoded, whitespace run together."""
    parts = [str(mail["Subject"])] + [part.get_content() for part in mail.walk()
                                      if part.get_content_maintype() == "text"]
    return " ".join(" ".join(parts).split())


def games(server) -> list[GameRow]:
    with server.db.sessions() as session:
        return list(session.scalars(select(GameRow).order_by(GameRow.id)))


def challenge(game, line: str) -> None:
    """Alice's challenge to the bare address, and her confirming reply."""
    game.send(ALICE, fresh(ALICE, REFEREE, line, subject="a game"), REFEREE)
    assert "please confirm" in game.subject(ALICE), game.text(ALICE)
    game.reply(ALICE, "")


@pytest.mark.parametrize("separators", [(",", ":"), (", ", ": ")], ids=["compact", "spaced"])
def test_a_challenge_by_mail_keeps_the_case_of_its_options_and_reads_them_as_the_command_line_does(
        game, tmp_path, database_url, separators):
    """A start position's White pieces are upper case: read in lower case, every one became Black's. Its JSON
    may have spaces in it."""
    challenge(game, f"challenge {BOB} palindromic days=2 start={json.dumps(START, separators=separators)}")
    assert "invites you" in game.text(BOB)
    game.reply(BOB, "accept")
    assert "your move (White)" in game.subject(ALICE)
    by_mail = games(game.server)[-1]
    assert by_mail.options["start"]["board"] == ONE_KNIGHT_AWAY and by_mail.days == 2
    done = manage(tmp_path, database_url, "new-game", "--variant", "palindromic", "--white", ALICE,
                  "--black", BOB, "--option", "days=2", "--option", f"start={json.dumps(START)}")
    assert done.returncode == 0, done.stderr
    by_command_line = games(game.server)[-1]
    assert by_command_line.id != by_mail.id and by_command_line.options == by_mail.options


def invited(game) -> int:
    """Alice's confirmed challenge to Bob: his invitation is his latest mail."""
    challenge(game, f"challenge {BOB} side-view")
    assert "invites you" in game.text(BOB)
    return games(game.server)[-1].id


def test_an_invitation_accepted_in_a_sentence_is_accepted(game):
    game_id = invited(game)
    game.reply(BOB, "Accept!  Looking forward to it.")
    assert games(game.server)[-1].status == "active" and games(game.server)[-1].id == game_id
    assert "your move (White)" in game.subject(ALICE)
    assert "the game has started" in game.subject(BOB)


def test_an_invitation_declined_in_a_sentence_is_declined(game):
    invited(game)
    game.reply(BOB, "Decline, sorry - no time this month.")
    assert games(game.server)[-1].status == "declined"
    assert "declined" in game.subject(ALICE)


@pytest.mark.parametrize("words", ["acept", "Sure, why not", "accept\ndecline"])
def test_a_reply_to_an_invitation_that_says_neither_word_is_told_the_two_that_work(game, words):
    invited(game)
    answer = game.reply(BOB, words)
    assert games(game.server)[-1].status == "invited"
    assert "accept or decline first" in game.subject(BOB)
    assert "To play, reply with the one word: accept" in answer
    assert "To refuse, reply with the one word: decline" in answer
    assert "no order found" not in answer and "Send it again" not in answer and "could not be read" not in answer


def test_the_please_confirm_mail_says_exactly_what_will_be_done_and_the_invitation_is_short(game):
    game.send(ALICE, fresh(ALICE, REFEREE, f"name Alice L.\nvacation 2\nchallenge {BOB} looking-glass days=5 "
                                           "STRIKES=2 color=black", subject="hello"), REFEREE)
    request = game.text(ALICE)
    assert "- set your display name to: Alice L. -" in request
    assert "- pause your clock in every game for 2 days (vacation)" in request
    assert (f"- invite {BOB} to a game of Through the Looking-Glass (5 days a move; impossible=strike; strikes=2; "
            "win=king); you play Black") in request
    game.reply(ALICE, "")
    assert any("You are now called Alice L. " in decoded(mail) for mail in game.sink.to(ALICE))
    invitation = game.text(BOB)
    for sentence in (f"{ALICE} invites you to a game of Through the Looking-Glass, played by email.",
                     "You would play White.", "The game: 5 days a move; impossible=strike; strikes=2; win=king.",
                     "To play, reply: accept", "To refuse, reply: decline"):
        assert sentence in invitation, sentence


def test_an_option_the_variant_refuses_is_explained_without_repeating_the_senders_words(game):
    game.send(ALICE, fresh(ALICE, REFEREE, f"challenge {BOB} looking-glass strikes=BUY-PILLS", subject="hi"),
              REFEREE)
    answer = game.text(ALICE)
    assert "not carried out" in game.subject(ALICE) and "please confirm" not in answer
    assert "strikes must be a whole number, not the value given" in answer and "pills" not in answer.lower()
    assert not game.sink.to(BOB)


def test_a_name_ending_in_a_full_stop_gets_one_full_stop_in_every_mail(game):
    game.send(ALICE, fresh(ALICE, REFEREE, f"name Alice L.\nchallenge {BOB} side-view", subject="hi"), REFEREE)
    game.reply(ALICE, "")
    game.reply(BOB, "accept")
    game.reply(ALICE, "e2-e4")
    assert "Opponent: Alice L. Move 1." in game.text(BOB)
    game.reply(BOB, "e7-e5\nsay Good luck")
    assert "Your message was passed on to Alice L. " in game.text(BOB)
    game.reply(ALICE, "resign")
    for player in (ALICE, BOB):
        for mail in game.sink.to(player):
            assert "L.." not in decoded(mail), mail["Subject"]
    with game.server.db.sessions() as session:
        row = session.scalars(select(GameRow)).one()
    page = client_for(game.server, row.id, row.black_id).get(f"/games/{row.id}").get_data(as_text=True)
    assert "your opponent is Alice L. " in page and "L.." not in page
