"""Every declared variant, played by mail end to end over real SMTP: the challenge with its sample game's
options, accepting, confirming it, the setup where the variant has one, the sample opening, the order it
refuses, moves, and the end.

The orders after the opening come from the referee's own list of legal moves in the true position (a test
may look), each sent as a reply to the player's latest mail, in their mail client's style.
"""

import random
import shutil
import sys
from pathlib import Path

import pytest

from app.games.models import Game as GameRow
from app.inbound.clients import fresh
from app.present import registry
from app.present.registry import DECLARATIONS
from tests.server.smtp_game import ALICE, BOB, REFEREE
from tests.web_helpers import client_for

PLAYERS = {"white": ALICE, "black": BOB}
TOY = Path(__file__).parent.parent / "variants" / "toy"
DECLARATIONS_AT_START = frozenset(DECLARATIONS)


def state_of(game, game_id):
    with game.server.db.sessions() as session:
        row = session.get(GameRow, game_id)
        return row.status, row.state, row.result


def play_a_whole_game(game, declaration) -> None:
    """Challenge, accept, set up, the opening, the refused order, random legal moves, the end."""
    variant, sample = declaration.rules, declaration.sample
    name = declaration.name
    challenge = f"Hello Bob, a game?\nchallenge {BOB} {name} days=2 {declaration.option_words()}".rstrip()
    game.send(ALICE, fresh(ALICE, REFEREE, challenge, subject="a game"), REFEREE)
    assert "please confirm" in game.subject(ALICE)
    game.reply(ALICE, "")  # the challenger confirms their own address
    assert variant.title in game.text(BOB) and "invites you" in game.text(BOB)
    game.reply(BOB, "accept")
    game_id = 1
    status, _state, _result = state_of(game, game_id)
    if status == "setup":
        assert "choose your setup" in game.subject(ALICE) and "choose your setup" in game.subject(BOB)
        game.reply(ALICE, "setup 518", style="thunderbird")
        game.reply(BOB, "setup random", style="apple")
    status, state_data, _result = state_of(game, game_id)
    assert status == "active"
    assert "your move (White)" in game.subject(ALICE)

    # The order the variant refuses from the start: the game does not move on, and White is asked again.
    game.reply(ALICE, sample.refused)
    assert state_of(game, game_id)[1] == state_data
    assert "your move again" in game.subject(ALICE)

    for order in sample.opening:
        side = variant.orderer(variant.from_json(state_of(game, game_id)[1]))
        before = state_of(game, game_id)[1]
        game.reply(PLAYERS[side], order)
        assert state_of(game, game_id)[1] != before, order

    rng = random.Random(name)
    for _ply in range(12):
        status, state_data, _result = state_of(game, game_id)
        if status != "active":
            break
        state = variant.from_json(state_data)
        side = variant.orderer(state)
        order = rng.choice(variant.legal_orders(state))
        game.reply(PLAYERS[side], order)
        assert "could not be read" not in game.subject(PLAYERS[side]), order

    status, state_data, _result = state_of(game, game_id)
    if status == "active":
        side = variant.orderer(variant.from_json(state_data))
        game.reply(PLAYERS[side], "I resign.")
    status, _state, result = state_of(game, game_id)
    assert status == "over" and result in ("1-0", "0-1", "1/2-1/2")
    for player in (ALICE, BOB):
        assert "game over" in game.subject(player)


@pytest.mark.parametrize("name", sorted(DECLARATIONS_AT_START))
def test_a_whole_game_by_mail(game, name):
    play_a_whole_game(game, DECLARATIONS[name])


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """Toy Chess copied into a package of its own outside the application, and served from there."""
    package = f"toy_variant_{tmp_path.name.replace('-', '_')}"
    shutil.copytree(TOY, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.syspath_prepend(str(tmp_path))
    declaration = registry.add_package(package)
    yield declaration
    registry.unregister(declaration.name)
    for module in [name for name in sys.modules if name.startswith(package)]:
        del sys.modules[module]


def test_a_variant_from_a_package_of_its_own_is_served_by_mail_and_on_the_web(game, toy):
    """Nothing outside its package names Toy Chess: declared there, it is challenged, played and ended by mail
    over real SMTP, and its game, its record and its rules page are on the web."""
    assert toy.name not in DECLARATIONS_AT_START and toy.rules_page.parent.name.startswith("toy_variant_")
    play_a_whole_game(game, toy)
    assert "Toy Chess" in game.text(ALICE) and "How to play: " in game.text(ALICE)
    client = client_for(game.server)
    assert f'href="/rules/{toy.name}"' in client.get("/rules").data.decode()
    page = client.get(f"/rules/{toy.name}").data.decode()
    assert "How to play Toy Chess" in page and "both players see the whole board" in page
    with game.server.db.sessions() as session:
        white_id = session.get(GameRow, 1).white_id
    history = client_for(game.server, 1, white_id).get("/games/1").data.decode()
    assert "The board" in history and "<svg" in history
    data = client_for(game.server, 1, white_id).get("/games/1.json").json
    assert data["game"]["variant"] == toy.name and data["game"]["status"] == "over"
    assert any(message["kind"] == "moved" for event in data["events"] for message in event["to"])
    reveal = client_for(game.server, 1, white_id).get("/games/1/reveal").data.decode()
    assert "The final position" in reveal and "1. e2-e4 e7-e5" in reveal


def test_orders_by_email_as_players_write_them_by_mail(server):
    """SV-3: 'Ke2' is answered with what is wrong in it, not 'no order found'; a piece letter that fits and
    'I resign.' are carried out (the rules, "Orders by email")."""
    from tests.server.harness import Table

    table = Table(server, "side-view")
    game_id = table.start()
    table.reply(ALICE, "Thanks!\nKe2", kind="request")
    text = " ".join(table.text(ALICE).split())
    assert "Could not read 'Ke2' as an order" in text and "names only e2" in text and "no order" not in text
    table.reply(ALICE, "Pe2-e4", kind="request")
    table.reply(BOB, "I resign.", kind="request")
    assert table.game(game_id).result == "1-0" and table.game(game_id).reason == "resigned"


def test_every_list_of_the_variants_comes_from_the_registry(server, toy):
    """A variant declared in a package of its own is in every list of the games, as nothing else lists them by
    hand: the answers to an unknown game by mail (rules, challenge, seek), the home page, the rules index, the
    referee's and the benchmark's unknown-variant errors."""
    from app.rules.registry import get_variant
    from benchmarks.referee import main as bench_referee
    from tests.server.harness import Table

    games = ", ".join(sorted(DECLARATIONS))
    assert toy.name in games
    table = Table(server, toy.name)
    for line in ("rules tiddlywinks", "seek tiddlywinks", f"challenge {BOB} tiddlywinks"):
        table.write(ALICE, line)
        assert games in " ".join(table.text(ALICE).split()), line
    client = client_for(server)
    for page in ("/", "/rules"):
        assert toy.title in client.get(page).data.decode(), page
    with pytest.raises(KeyError, match=f"known variants: {games}"):
        get_variant("tiddlywinks")
    with pytest.raises(SystemExit, match=f"known variants: {games}"):
        bench_referee(["tiddlywinks"])
