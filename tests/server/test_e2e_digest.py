"""The daily digest over real SMTP on loopback: the built-in listener in, an aiosmtpd sink out, `digest --now` run as
the operator runs it."""

import random
from email import message_from_bytes
from email.utils import make_msgid

from app.inbound.clients import fresh, reply
from app.rules.registry import get_variant
from tests.server.harness import Table
from tests.server.smtp_game import ALICE, REFEREE
from tests.server.test_cli import manage

OPPONENTS = {"kriegspiel": "bob@players.test", "side-view": "carol@players.test", "palindromic": "dave@players.test"}


def legal(server, game_id: int) -> str:
    game = Table(server).game(game_id)
    variant = get_variant(game.variant)
    return random.Random(game_id).choice(sorted(variant.legal_orders(variant.from_json(game.state))))


def test_three_games_by_digest_over_smtp(game, tmp_path):
    server, sink = game.server, game.sink
    table = Table(server)
    game.send(ALICE, fresh(ALICE, REFEREE, "digest daily 7", subject="one mail a day"), REFEREE)
    game.reply(ALICE, "")  # the confirmation
    assert "You are on the daily digest" in game.text(ALICE)
    games = {}
    for variant, opponent in OPPONENTS.items():
        game.styles[opponent] = "thunderbird"
        games[variant] = Table(server, variant).new_game(white=opponent, black=ALICE)
        game.worker.run_once()
        game.reply(opponent, "accept")
        game.reply(ALICE, "accept")
    before = len(sink.to(ALICE))
    for variant, opponent in OPPONENTS.items():  # each opponent moves: Alice is sent nothing
        game.reply(opponent, legal(server, games[variant]))
        assert "Alice reads their games once a day, at 07:00 UTC" in game.text(opponent)
    assert len(sink.to(ALICE)) == before

    done = manage(tmp_path, server.settings.database_url, "digest", "--now")
    assert done.returncode == 0 and b"1 digest queued" in done.stdout, done.stderr
    game.worker.run_once()
    assert len(sink.to(ALICE)) == before + 1 and game.subject(ALICE) == "Mirrorpost digest: your move in 3 games"
    digest = sink.last_raw(ALICE)
    reply_to = str(sink.to(ALICE)[-1]["Reply-To"])
    assert reply_to.startswith("referee+digest.")

    first, second, third = games["kriegspiel"], games["side-view"], games["palindromic"]
    plies = {game_id: table.game(game_id).ply for game_id in games.values()}
    body = f"Game {first}: {legal(server, first)}\n\nGame {second}\n{legal(server, second)}\n"
    raw = reply(digest, body, "outlook", ALICE)
    game.send(ALICE, raw, reply_to)
    assert table.game(first).ply == plies[first] + 1 and table.game(second).ply == plies[second] + 1
    assert table.game(third).ply == plies[third]
    assert "your move" in game.subject(OPPONENTS["kriegspiel"]) and "your move" in game.subject(OPPONENTS["side-view"])
    events = {game_id: len(table.events(game_id)) for game_id in games.values()}

    copy = raw.replace(b"Message-ID:", b"X-Was:", 1).replace(b"\r\n\r\n", f"\r\nMessage-ID: {make_msgid()}\r\n\r\n"
                                                                          .encode(), 1)
    count = len(sink.to(ALICE))
    game.send(ALICE, copy, reply_to)
    (answer,) = sink.to(ALICE)[count:]  # one mail answers the copy, a part for each game
    assert str(answer["Subject"]) == "Mirrorpost digest: your reply, game by game (2 games)"
    assert str(answer["In-Reply-To"]) == str(message_from_bytes(copy)["Message-ID"])
    told = " ".join(answer.get_body(("plain",)).get_content().split())
    assert all(f"Your reply to the digest for game {game_id} was not applied" in told for game_id in (first, second))
    assert {game_id: len(table.events(game_id)) for game_id in games.values()} == events  # nothing twice

    count = len(sink.to(ALICE))
    game.reply(OPPONENTS["kriegspiel"], legal(server, first))  # Bob moves again: still nothing for Alice
    assert len(sink.to(ALICE)) == count and table.game(first).deadline is None
    game.send(ALICE, fresh(ALICE, REFEREE, "digest off", subject="back to one mail a move"), REFEREE)
    game.reply(ALICE, "")
    subjects = [str(message["Subject"]) for message in sink.to(ALICE)[count:]]
    assert any(subject.startswith(f"Game {first}, move 2: your move") for subject in subjects), subjects
    assert table.game(first).deadline is not None  # the turn that waited comes at once, with its clock
    game.reply(OPPONENTS["side-view"], legal(server, second))
    assert game.subject(ALICE).startswith(f"Game {second}, move 2: your move")  # immediate mail again
