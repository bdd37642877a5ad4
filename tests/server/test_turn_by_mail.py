"""The turn over real SMTP: whatever mails go with it, the player it passes to gets their full time."""

import json
from datetime import timedelta

from app.db import utcnow
from app.games.models import Game as GameRow
from app.games.play.clock import describe_deadline
from app.service import Service
from tests.rules.palindromic_helpers import ONE_KNIGHT_AWAY, REVERSED_HANDS
from tests.server.smtp_game import ALICE, BOB
from tests.web_helpers import client_for

DAYS = timedelta(days=2)


def started(game, variant: str = "side-view", **options: str) -> int:
    """A game created for Alice (White) and Bob, both invitations accepted by mail: Alice to move."""
    server = game.server
    with server.db.engine.begin() as connection:
        service = Service(connection, server.settings, server.signer)
        game_id = service.create_game(variant, service.player(ALICE, "Alice"), service.player(BOB, "Bob"),
                                      options, None).id
    game.worker.run_once()
    game.reply(ALICE, "accept")
    game.reply(BOB, "accept")
    assert row(game, game_id).status == "active"
    return game_id


def row(game, game_id: int) -> GameRow:
    with game.server.db.sessions() as session:
        return session.get(GameRow, game_id)


def nearly_out_of_time(game, game_id: int) -> None:
    """The player to move has two minutes left."""
    with game.server.db.transaction() as session:
        session.get(GameRow, game_id).deadline = utcnow() + timedelta(minutes=2)


def assert_full_time_for_alice(game, game_id: int, sent_at) -> None:
    deadline = row(game, game_id).deadline
    assert sent_at + DAYS <= deadline <= utcnow() + DAYS, deadline
    assert f"Reply by {describe_deadline(deadline)} (2 days a move)" in game.text(ALICE)


def test_a_move_sent_with_a_draw_offer_gives_the_opponent_their_full_time(game):
    game_id = started(game, days="2")
    game.reply(ALICE, "e2-e4")
    nearly_out_of_time(game, game_id)  # Bob takes nearly all his time
    sent_at = utcnow()
    game.reply(BOB, "e7-e5\noffer draw")
    assert "Bob offers a draw" in game.subject(ALICE)
    assert_full_time_for_alice(game, game_id, sent_at)


def test_a_move_after_a_vacation_gives_the_opponent_their_own_time_not_the_extended_deadline(game):
    game_id = started(game, days="2")
    game.reply(ALICE, "e2-e4")
    game.reply(BOB, "vacation 3")
    assert row(game, game_id).deadline > utcnow() + timedelta(days=3)  # Bob's deadline moved by his vacation
    sent_at = utcnow()
    game.reply(BOB, "e7-e5\noffer draw")
    assert_full_time_for_alice(game, game_id, sent_at)


def test_a_move_sent_with_a_refused_draw_claim_gives_the_opponent_their_full_time(game):
    game_id = started(game, days="2")
    game.reply(ALICE, "e2-e4")
    nearly_out_of_time(game, game_id)
    sent_at = utcnow()
    game.reply(BOB, "e7-e5\nclaim draw")
    assert_full_time_for_alice(game, game_id, sent_at)


def test_a_move_followed_by_the_referees_pass_gives_the_mover_their_full_time_again(game):
    """PAL-4: Black is home, so after White's move the referee passes for Black and the turn comes back to White:
    handed over again, with the full time of a move."""
    start = {"board": ONE_KNIGHT_AWAY, "handed": REVERSED_HANDS, "to_move": "white"}
    game_id = started(game, "palindromic", days="2", start=json.dumps(start))
    nearly_out_of_time(game, game_id)
    sent_at = utcnow()
    game.reply(ALICE, "Nf6")
    assert "passed" in game.text(ALICE)
    assert_full_time_for_alice(game, game_id, sent_at)


def test_with_a_day_a_move_the_reminder_comes_at_half_time_and_once_a_turn(game):
    game_id = started(game, days="1")
    game.reply(ALICE, "e2-e4")  # the worker's round that sends Bob's request finds no reminder due
    assert "your move (Black)" in game.subject(BOB)
    deadline = row(game, game_id).deadline
    mails = len(game.sink.to(BOB))
    assert game.worker.clocks(deadline - timedelta(hours=12, minutes=1)) == 0
    assert game.worker.clocks(deadline - timedelta(hours=12)) == 1
    game.worker.run_once()  # the reminder goes out by SMTP
    assert len(game.sink.to(BOB)) == mails + 1
    assert "reminder: your move is due within 12 hours" in game.subject(BOB)
    assert "less than 12 hours from now" in game.text(BOB)
    game.reply(BOB, "vacation 1")  # his deadline moves a day on; the reminder of this turn was sent
    later = row(game, game_id).deadline
    assert later == deadline + timedelta(days=1)
    assert game.worker.clocks(later - timedelta(hours=11)) == 0
    assert game.worker.clocks(later + timedelta(seconds=1)) == 1
    assert row(game, game_id).reason == "time"


def mails_to(game, player: str) -> int:
    return len(game.sink.to(player))


def test_a_move_sent_with_say_gives_each_player_one_mail_and_the_words_once(game):
    started(game)
    alice, bob = mails_to(game, ALICE), mails_to(game, BOB)
    game.reply(ALICE, "e2-e4\nsay Good luck, Bob!")
    assert (mails_to(game, ALICE), mails_to(game, BOB)) == (alice + 1, bob + 1)
    assert "your move (Black)" in game.subject(BOB)
    assert game.text(BOB).count("Good luck, Bob!") == 1
    assert "Alice says: Good luck, Bob!" in game.text(BOB)  # among what happened since his last move
    assert "Your message was passed on to Bob." in game.text(ALICE)
    assert "your move was made" in game.subject(ALICE)


def test_say_with_a_resignation_goes_inside_the_game_over_mail(game):
    started(game)
    alice, bob = mails_to(game, ALICE), mails_to(game, BOB)
    game.reply(ALICE, "say Well played.\nresign")
    assert (mails_to(game, ALICE), mails_to(game, BOB)) == (alice + 1, bob + 1)
    assert "game over" in game.subject(BOB) and game.text(BOB).count("Well played.") == 1
    assert "Alice says: Well played." in game.text(BOB)
    assert "Your message was passed on to Bob." in game.text(ALICE)


def test_say_alone_is_still_a_mail_to_each(game):
    started(game)
    game.reply(ALICE, "say Hello")
    assert "a message from Alice" in game.subject(BOB) and "Alice says: Hello" in game.text(BOB)
    assert "your message was passed on" in game.subject(ALICE)


def test_a_second_public_on_says_the_reveal_is_public(game):
    game_id = started(game)
    game.reply(ALICE, "public on")
    assert "it is public only if both players agree" in game.text(ALICE)
    game.reply(BOB, "public on")
    assert "You both agree: the reveal of this game is public, for anyone with the link once the game is over." \
        in game.text(BOB)
    game.reply(ALICE, "resign")
    game.reply(ALICE, "public on")
    assert f"the reveal of this game is public, for anyone with the link: http://mirrorpost.test/games/{game_id}" \
           "/reveal." in game.text(ALICE)


def test_the_web_history_writes_what_a_player_said_as_a_sentence(game):
    game_id = started(game)
    game.reply(ALICE, "e2-e4\nsay Good luck, Bob!")
    page = client_for(game.server, game_id, row(game, game_id).white_id).get(f"/games/{game_id}").data.decode()
    assert ": You said: Good luck, Bob!</li>" in page and ": said</li>" not in page
