"""A reply to the digest for several games is answered by one mail: each game's part says what a reply to that
game's move request would have been told, in the same words, with the game as its move request shows it where it
is the player's move again; it answers the reply (threaded under it), a reply to it carries orders as a reply to
the digest does, the opponents' mails are as they always were, and it stays within the digest's size."""

from __future__ import annotations

import random
import re
from email import message_from_bytes
from email.policy import default

from app.games.digest import mail as digest_mail
from app.rules.registry import get_variant
from tests.conftest import make_server
from tests.server.digest_helpers import digest_on, move, reply_in_game, send_digests, start_game
from tests.server.harness import ALICE, Table
from tests.server.test_digest import OPPONENTS, game_section, three_games


def legal(server, game_id: int) -> str:
    game = Table(server).game(game_id)
    variant = get_variant(game.variant)
    return random.Random(game_id).choice(sorted(variant.legal_orders(variant.from_json(game.state))))


def digested(tmp_path, variant: str, count: int) -> tuple[object, list[int]]:
    """Alice, on the digest, to move in ``count`` games of ``variant`` against as many players; her digest sent."""
    server = make_server(tmp_path, f"sqlite:///{tmp_path / 'answer.sqlite3'}")
    digest_on(server, ALICE)
    games = []
    for number in range(count):
        opponent = f"opponent{number}@players.test"
        games.append(start_game(server, variant, opponent, ALICE))
        move(server, games[-1], opponent)
    send_digests(server)
    return server, games


def part(text: str, game_id: int) -> str:
    """A game's part of the answer's text, from its title line to its history link, whitespace run together."""
    found = re.search(rf"^(Game {game_id}, [^\n]*, against .*?)^Your history of this game:", text, re.M | re.S)
    assert found, text
    return " ".join(found.group(1).split())


def test_a_reply_for_several_games_is_answered_by_one_mail_telling_each_game(server):
    table = Table(server)
    first, second, third = games = three_games(server)
    send_digests(server)
    opponents = {game_id: len(table.mails(opponent)) for game_id, opponent in zip(games, OPPONENTS, strict=True)}
    before = len(table.mails(ALICE))
    order = legal(server, first)
    raw = table.reply_bytes(ALICE, f"Game {first}: {order}\nGame {second}: e7-e9\nGame {third}\nboard\nsay hi\n"
                                   "Game 999: e7-e5", kind="digest")
    outcome = table.deliver(raw)
    assert outcome.startswith(f"done: game {first}: {order}: moved; game {second}: rejected: unreadable"), outcome
    (answer,) = table.mails(ALICE)[before:]  # one mail for the whole reply
    message = message_from_bytes(answer.raw, policy=default)
    assert answer.kind == "digest-answer" and message["In-Reply-To"] == message_from_bytes(raw)["Message-ID"]
    assert str(message["Reply-To"]).startswith("referee+digest.")
    assert answer.subject == "Mirrorpost digest: your reply, game by game (3 games) - your move in 2"
    text = answer.body_text
    assert "Your move was made - waiting for Bob:" in part(text, first)
    assert "Your order could not be read:" in part(text, second) and "Orders in Side View Chess" in text
    assert "Your move (as asked):" in part(text, third) and "Your message was passed on to Dave." in part(text, third)
    assert "Nothing was carried out for game 999" in text
    assert f"It is your move again in games {second}, {third}." in " ".join(text.split())
    for game_id in (second, third):  # where it is her move again: the game as its move request shows it
        assert game_section(text, game_id) in text
    assert f"Game {first}, Kriegspiel. You are" not in text  # not her move: no request section
    assert len(table.mails(OPPONENTS[0])) == opponents[first] + 1 and "your move" in table.last(OPPONENTS[0]).subject
    assert "Alice says:" in table.text(OPPONENTS[2]) and len(table.mails(OPPONENTS[1])) == opponents[second]

    # The same line in a reply to the game's own mail is told the same words.
    assert reply_in_game(server, second, ALICE, "e7-e9").startswith("rejected: unreadable")
    alone = " ".join(table.last(ALICE, "error").body_text.split())
    told = part(text, second).split("Your order could not be read: ", 1)[1].split(f" Game {second}, ")[0]
    for paragraph in re.split(r" - ", told.strip()):
        assert paragraph.strip() in alone, (paragraph, alone)


def test_a_reply_to_the_answer_carries_orders_as_a_reply_to_the_digest_does(server):
    table = Table(server)
    first, second, _third = three_games(server)
    send_digests(server)
    table.reply(ALICE, f"Game {first}: board\nGame {second}: board", kind="digest")
    plies = table.game(second).ply
    outcome = table.reply(ALICE, f"Game {second}: {legal(server, second)}", kind="digest-answer")
    assert ": moved" in outcome and table.game(second).ply == plies + 1
    assert "Your move was made" in table.text(ALICE, "digest-answer")
    outcome = table.reply(ALICE, f"Game {second}: {legal(server, second)}", kind="digest-answer")
    assert "Nothing was carried out for game" in table.text(ALICE), outcome  # not her move: not listed


def test_the_answer_keeps_every_games_words_within_the_size_and_leaves_positions_to_the_web(tmp_path, monkeypatch):
    monkeypatch.setattr(digest_mail, "MAIL_LIMIT", 30_000)
    server, games = digested(tmp_path, "quasi-alice-4d", 8)
    table = Table(server)
    table.reply(ALICE, "\n".join(f"Game {game_id}: board" for game_id in games), kind="digest")
    answer = table.last(ALICE, "digest-answer")
    assert len(answer.raw) < 30_000, len(answer.raw)
    text = " ".join(answer.body_text.split())
    for game_id in games:  # every game's words, and its link
        assert f"Game {game_id}, 4D Quasi-Alice Chess, against" in text and f"/games/{game_id}?key=" in text
        assert "Your current move request, as asked." in part(answer.body_text, game_id)
    assert "This mail has no room for this game's position" in text
    server.db.engine.dispose()


def test_fifty_games_in_one_reply_are_answered_in_one_mail_within_the_digests_size(tmp_path):
    """The most games a reply carries, each asking for the whole help: every game keeps its part, cut short where
    all would not fit, and the mail stays under the digest's 100 KB as sent."""
    server, games = digested(tmp_path, "side-view", 50)
    table = Table(server)
    assert table.reply(ALICE, "\n".join(f"Game {game_id}: help" for game_id in games), kind="digest").startswith(
        "done: game")
    (answer,) = table.mails(ALICE, "digest-answer")
    assert len(answer.raw) < 100_000, len(answer.raw)
    text = " ".join(answer.body_text.split())
    for game_id in games:
        assert f"Game {game_id}, Side View Chess, against" in text and f"/games/{game_id}?key=" in text
        assert "Mirrorpost referees your game by email" in part(answer.body_text, game_id)
    assert "left out to keep this mail small" in text
    server.db.engine.dispose()
