"""A digest of ten games of any mix of variants stays under 100 KB as sent, and names the games it leaves to the web."""

import random

import pytest

from app.games.digest import mail as digest_mail
from app.present.registry import DECLARATIONS
from tests.conftest import make_server
from tests.server.digest_helpers import digest_on, move, send_digests, start_game
from tests.server.harness import ALICE, Table

NAMES = sorted(DECLARATIONS)
MIXES = {**{name: [name] * 10 for name in NAMES},
         "every variant twice": [NAMES[number % len(NAMES)] for number in range(10)],
         "a random mix": random.Random(2026).choices(NAMES, k=10)}


def digest_of(tmp_path, variants: list[str]):
    """Alice, on the digest, to move in a game of each variant (each of its sample's options), then her digest."""
    server = make_server(tmp_path, f"sqlite:///{tmp_path / 'digest.sqlite3'}")
    digest_on(server, ALICE)
    games = []
    for number, name in enumerate(variants):
        opponent = f"opponent{number}@players.test"
        games.append(start_game(server, name, opponent, ALICE, **dict(DECLARATIONS[name].sample.options)))
        move(server, games[-1], opponent)
    assert send_digests(server) == 1
    mail = Table(server).last(ALICE, "digest")
    server.db.engine.dispose()
    return games, mail


@pytest.mark.parametrize("mix", sorted(MIXES))
def test_ten_games_of_any_mix_fit_in_100_kb(tmp_path, mix):
    games, mail = digest_of(tmp_path, MIXES[mix])
    assert len(mail.raw) < 100_000, len(mail.raw)
    for game_id in games:  # every game listed, and each with its section here
        assert mail.body_text.count(f"Game {game_id}, ") == 2, game_id
    assert "no room" not in mail.body_text
    assert mail.body_html.count("<table role=\"img\"") + mail.body_html.count("<pre") >= len(games)


def test_what_does_not_fit_is_left_to_the_web_with_its_link(tmp_path, monkeypatch):
    monkeypatch.setattr(digest_mail, "MAIL_LIMIT", 40_000)
    games, mail = digest_of(tmp_path, ["quasi-alice-4d"] * 8)
    assert len(mail.raw) < 40_000
    shown = [game_id for game_id in games if f"\nGame {game_id}, 4D Quasi-Alice Chess. You are" in mail.body_text]
    left = [game_id for game_id in games if game_id not in shown]
    assert shown and left and shown == games[:len(shown)]  # the first games in full, the last left out whole
    assert f"This mail has no room for games {', '.join(map(str, left))}" in " ".join(mail.body_text.split())
    for game_id in left:
        assert f" - Game {game_id}: http://mirrorpost.test/games/{game_id}?key=" in mail.body_text
        assert f'href="http://mirrorpost.test/games/{game_id}?key=' in mail.body_html
