"""Ratings over real SMTP on loopback: a rated challenge confirmed, accepted and played to its end changes both
players' ratings exactly as Glicko-2 computes, and the game-over mail tells each player; a game ended before each
side moved twice, or an unrated one, changes nothing; ``rating`` by mail answers at once."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from app.club.glicko2 import Glicko, rate_game
from app.club.models import Rating, RatingChange
from app.games.models import Game as GameRow
from app.inbound.clients import fresh
from tests.server.smtp_game import ALICE, BOB, REFEREE

FOOLS_MATE = ((ALICE, "f2-f3"), (BOB, "e7-e5"), (ALICE, "g2-g4"), (BOB, "d8-h4"))  # Black mates on his 2nd move
WIDTH = 78


def text_part(message) -> str:
    return message.get_body(("plain",)).get_content().replace("\r\n", "\n")


def received(game, player: str, subject: str):
    found = [message for message in game.sink.to(player) if subject in str(message["Subject"])]
    assert found, f"no mail with {subject!r} to {player}"
    return found[-1]


def said(message) -> str:
    """Both text parts of a mail, whitespace run together."""
    parts = [part.get_content() for part in message.walk() if part.get_content_maintype() == "text"]
    return " ".join(" ".join(parts).split())


def rows(game, model) -> list:
    with game.server.db.sessions() as session:
        return list(session.scalars(select(model)))


def last_game(game) -> GameRow:
    with game.server.db.sessions() as session:
        return session.scalars(select(GameRow).order_by(GameRow.id.desc())).first()


def names(game) -> None:
    """Alice and Bob choose their names (confirmed), so the mails call them so."""
    for player, name in ((ALICE, "Alice Liddell"), (BOB, "Bob Roe")):
        game.send(player, fresh(player, REFEREE, f"name {name}", subject="my name"), REFEREE)
        game.reply(player, "")


def challenged(game, words: str = "rated") -> None:
    """Alice challenges Bob to Side View Chess (she plays White), confirms, and Bob accepts: Alice to move."""
    names(game)
    game.send(ALICE, fresh(ALICE, REFEREE, f"challenge {BOB} side-view {words}".rstrip(), subject="a game"), REFEREE)
    assert "please confirm" in game.subject(ALICE)
    confirm = said(game.sink.to(ALICE)[-1])
    assert ("a rated game of Side View Chess" in confirm) == (words == "rated"), confirm
    game.reply(ALICE, "")
    assert "invites you" in game.text(BOB)
    assert ("The game is rated" in game.text(BOB)) == (words == "rated"), game.text(BOB)
    game.reply(BOB, "accept")
    assert "your move (White)" in game.subject(ALICE)
    assert last_game(game).rated is (words == "rated")


def test_a_rated_challenge_mated_after_each_side_moved_twice_changes_both_ratings_as_glicko2_computes(game):
    challenged(game)
    for player, order in FOOLS_MATE:
        game.reply(player, order)
    game_id = last_game(game).id
    alice, bob = rate_game(Glicko(), Glicko(), 0)  # White (Alice) lost
    ratings = {row.player_id: row for row in rows(game, Rating)}
    white_id, black_id = last_game(game).white_id, last_game(game).black_id
    for player_id, expected in ((white_id, alice), (black_id, bob)):
        row = ratings[player_id]
        assert row.variant == "side-view" and row.games == 1
        assert (row.rating, row.deviation, row.volatility) == pytest.approx(
            (expected.rating, expected.deviation, expected.volatility), abs=1e-9)
    changes = {row.player_id: row for row in rows(game, RatingChange)}
    assert set(changes) == {white_id, black_id} and {row.game_id for row in changes.values()} == {game_id}
    assert changes[white_id].before == 1500 and changes[white_id].rating == pytest.approx(alice.rating)

    lost, won = received(game, ALICE, "game over"), received(game, BOB, "game over")
    assert "Your rating in Side View Chess: 1500? -> 1338? (-162)" in said(lost)
    assert "Bob Roe's rating in Side View Chess: 1500? -> 1662? (+162)" in said(lost)
    assert "Your rating in Side View Chess: 1500? -> 1662? (+162)" in said(won)
    assert "Alice Liddell's rating in Side View Chess: 1500? -> 1338? (-162)" in said(won)
    assert "A ? marks a provisional rating" in said(won)
    for message in (lost, won):
        assert max(len(line) for line in text_part(message).splitlines()) <= WIDTH


def test_a_rated_game_resigned_on_the_first_move_changes_no_rating(game):
    challenged(game)
    game.reply(ALICE, "f2-f3")
    game.reply(BOB, "resign")
    assert last_game(game).status == "over"
    assert rows(game, Rating) == [] and rows(game, RatingChange) == []
    over = said(received(game, ALICE, "game over"))
    assert "ended before each side had made two moves, so it changes no rating" in over
    assert "Your rating" not in over


def test_an_unrated_challenge_played_to_mate_changes_no_rating(game):
    challenged(game, "")
    for player, order in FOOLS_MATE:
        game.reply(player, order)
    assert last_game(game).status == "over" and last_game(game).result == "0-1"
    assert rows(game, Rating) == [] and rows(game, RatingChange) == []
    assert "rating" not in said(received(game, BOB, "game over")).lower()


def test_the_word_unrated_makes_the_challenge_unrated(game):
    challenged(game, "unrated")


def test_rating_by_mail_answers_at_once_before_and_after_a_rated_game_and_in_a_game_reply(game):
    game.send(BOB, fresh(BOB, REFEREE, "rating", subject="my rating"), REFEREE)
    answer = said(game.sink.to(BOB)[-1])
    assert "your ratings" in game.subject(BOB) and "please confirm" not in game.subject(BOB)
    assert "You have no rated games yet: in every game you start at 1500? (deviation 350)" in answer
    assert "rated)" in answer and "challenge friend@example.org" in answer  # how to play a rated game
    assert rows(game, Rating) == []  # asking changes nothing

    challenged(game)
    for player, order in FOOLS_MATE:
        game.reply(player, order)
    game.send(BOB, fresh(BOB, REFEREE, "rating", subject="my rating"), REFEREE)
    answer = said(game.sink.to(BOB)[-1])
    assert "- Side View Chess: 1662?, deviation 290, 1 rated game" in answer
    assert "In any other game you start at 1500? (deviation 350)" in answer

    reply = game.reply(ALICE, "rating")  # to her game-over mail
    assert "Side View Chess: 1338?, deviation 290, 1 rated game" in reply
    assert "your ratings" in game.subject(ALICE)
    for message in game.sink.to(BOB)[-1:] + game.sink.to(ALICE)[-1:]:
        assert max(len(line) for line in text_part(message).splitlines()) <= WIDTH
