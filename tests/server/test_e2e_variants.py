"""Every registered variant, played by mail end to end over real SMTP: the challenge with options, accepting,
confirming it, the setup where the variant has one, moves, an illegal order, and the end.

The orders come from the referee's own list of legal moves in the true position (a test may look), each
sent as a reply to the player's latest mail, in their mail client's style.
"""

import random

import pytest

from app.games.models import Game as GameRow
from app.inbound.clients import fresh
from app.rules.registry import VARIANTS, get_variant
from tests.server.smtp_game import ALICE, BOB, REFEREE

# Per variant: options for the challenge, and an order that is readable but never played from the start.
CASES = {
    "looking-glass": ("strikes=5", "R e2-e5"),
    "side-view": ("physics=1 setup=hidden", "e2-e5"),
    "quasi-alice-4d": ("", "A:e2-e5>B"),
    "palindromic": ("", "e2-e5"),
    "kriegspiel": ("setup=chess960", "a2-a5"),
}


def test_every_variant_has_an_end_to_end_case():
    assert set(VARIANTS) <= set(CASES)


def state_of(game, game_id):
    with game.server.db.sessions() as session:
        row = session.get(GameRow, game_id)
        return row.status, row.state, row.result


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_whole_game_by_mail(game, name):
    options, illegal = CASES[name]
    variant = get_variant(name)
    challenge = f"Hello Bob, a game?\nchallenge {BOB} {name} days=2 {options}".rstrip()
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

    # An order that is not played: the game does not move on, and White is asked again.
    before = state_data
    game.reply(ALICE, illegal)
    assert state_of(game, game_id)[1] == before
    assert "your move again" in game.subject(ALICE)

    rng = random.Random(name)
    players = {"white": ALICE, "black": BOB}
    for _ply in range(12):
        status, state_data, _result = state_of(game, game_id)
        if status != "active":
            break
        state = variant.from_json(state_data)
        side = variant.orderer(state)
        order = rng.choice(variant.legal_orders(state))
        game.reply(players[side], order)
        assert "could not be read" not in game.subject(players[side]), order

    status, state_data, _result = state_of(game, game_id)
    if status == "active":
        side = variant.orderer(variant.from_json(state_data))
        game.reply(players[side], "resign")
    status, _state, result = state_of(game, game_id)
    assert status == "over" and result in ("1-0", "0-1", "1/2-1/2")
    for player in (ALICE, BOB):
        assert "game over" in game.subject(player)
