"""The turn over real SMTP: whatever mails go with it, the player it passes to gets their full time."""

import json
from datetime import timedelta

from app.db import utcnow
from app.games.clock import describe_deadline
from app.games.models import Game as GameRow
from app.games.service import GameService
from tests.rules.palindromic_helpers import ONE_KNIGHT_AWAY, REVERSED_HANDS
from tests.server.smtp_game import ALICE, BOB

DAYS = timedelta(days=2)


def started(game, variant: str = "side-view", **options: str) -> int:
    """A game created for Alice (White) and Bob, both invitations accepted by mail: Alice to move."""
    server = game.server
    with server.db.engine.begin() as connection:
        service = GameService(connection, server.settings, server.signer)
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
