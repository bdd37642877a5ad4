"""The fast 4D Quasi-Alice generator against the rule-by-rule checker (QA4-2 .. QA4-6), perft, storage
and ``referee play``."""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules.quasi_alice.movegen import (
    CASTLE,
    EN_PASSANT,
    en_passant_possible,
    has_legal_move,
    legal_moves,
    make,
)
from app.rules.quasi_alice.orders import written
from app.rules.quasi_alice.position import START, Position, castling_from_text
from app.rules.quasi_alice.state import GameState
from app.rules.scenario import run_scenario
from tests.rules.qa4_positions import QA, fast_orders, moved, qa_position, slow_orders

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def agree(position: Position) -> list:
    """Assert the fast generator and the checker give the same moves; return the fast ones."""
    state = GameState(position)
    moves = legal_moves(position)
    assert {written(move) for move in moves} == slow_orders(state), position.placements()
    assert len(moves) == len(fast_orders(state))
    assert has_legal_move(position) == bool(moves)
    assert en_passant_possible(position) == any(move[5] == EN_PASSANT for move in moves)
    by_piece = {}
    for move in moves:
        by_piece.setdefault(move[0] * 64 + move[1], []).append(move)
    for cell, mine in by_piece.items():
        assert legal_moves(position, cell) == mine
    return moves


def lively(position: Position, moves: list, rng: random.Random):
    """A random move, half the time one of the kinds where the rules are subtle: captures, king moves,
    castling, en passant, and moves landing on a king's board."""
    if rng.random() < 0.5:
        kings = {position.kings[0] >> 6, position.kings[1] >> 6}
        subtle = [
            move for move in moves
            if move[5] in (CASTLE, EN_PASSANT)
            or position.at(move[0], move[2])
            or position.at(move[3], move[2])
            or position.at(move[0], move[1]) & 7 == 6
            or move[3] in kings
        ]
        if subtle:
            return rng.choice(subtle)
    return rng.choice(moves)


# --------------------------------------------------------------------------- fast and slow agree


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(8, 60))
def test_QA4_2_to_QA4_6_the_fast_generator_agrees_with_the_rule_by_rule_checker_in_random_games(seed, plies):
    rng = random.Random(seed)
    position = Position.from_placements(START, castling=castling_from_text("KQkq"))
    for _ in range(plies):
        moves = agree(position)
        if not moves:
            break
        make(position, lively(position, moves, rng))


TRICKY = {
    "castling through attacked squares, both sides": dict(
        A="r3k2r/8/8/8/2b5/5N2/8/R3K2R", B="8/8/8/8/8/8/8/5n2", castling="KQkq"),
    "black castling with a bishop on f8's diagonal": dict(
        A="r3k2r/8/8/2B5/8/8/8/R3K2R", C="2n5/8/8/8/8/8/8/8", castling="KQkq", to_move="black"),
    "castling landing in check on the destination board": dict(
        A="r3k2r/8/8/8/8/8/8/R3K2R", B="6r1/8/8/8/8/8/8/8", D="3r4/8/8/8/8/8/8/8", castling="KQ"),
    "a pinned piece must not leave its king's board": dict(A="4r2k/8/8/8/8/8/4B3/4K3", C="8/8/8/4n3/8/8/8/8"),
    "taking a pinner uncovers a queen": dict(A="4q2k/8/8/4r3/8/8/4R3/4K3"),
    "en passant landing": dict(
        A="4k3/8/8/8/8/8/8/4K3", B="8/8/8/8/3pP3/8/8/8", to_move="black", en_passant="B:e3"),
    "en passant with nowhere to land": dict(
        A="4k3/8/8/8/8/4N3/8/4K3", B="8/8/8/8/3pP3/8/8/8", to_move="black", en_passant="B:e3"),
    "en passant uncovering a rook along the rank": dict(B="8/8/8/K2Pp2r/8/8/8/7k", en_passant="B:e6"),
    "a king's double capture": dict(A="7k/8/4K3/3p4/8/8/8/8", B="8/8/8/3n4/8/8/8/8"),
    "a check blocked by a transfer": dict(
        A="k7/8/8/8/8/8/8/8", B="4r3/8/8/8/8/8/8/4K3", C="8/8/8/8/8/8/5N2/R7", D="8/8/8/8/1B6/8/8/8"),
    "a double check": dict(A="k7/8/8/8/8/8/8/8", B="4r3/8/8/8/8/3n4/8/4K3", C="8/8/8/8/4N3/8/8/8"),
    "kings on different boards": dict(A="8/8/8/8/4K3/8/8/8", B="8/8/8/3k4/8/8/8/8", C="8/1P6/8/8/8/8/8/q7"),
    "a king that may land on pieces but not beside the enemy king": dict(
        A="8/8/8/8/8/3K4/8/8", B="8/8/3k4/8/2pnp3/8/8/8", to_move="white"),
    "promotions capturing and transferring": dict(A="1n2k3/P7/8/8/8/8/8/4K3", B="nn6/8/8/8/8/8/8/8"),
}


@pytest.mark.parametrize("name", sorted(TRICKY))
def test_QA4_2_to_QA4_6_the_fast_generator_agrees_with_the_checker_on_hand_made_positions(name):
    agree(qa_position(**TRICKY[name]).position)


def test_QA4_5_en_passant_may_not_uncover_a_check_along_the_rank():
    state = qa_position(**TRICKY["en passant uncovering a rook along the rank"])
    assert not any(order.startswith("B:d5-e6") for order in QA.legal_orders(state))
    assert QA.view(state, "white")["check"] is None


def test_QA4_6_in_double_check_only_the_king_moves():
    state = qa_position(**TRICKY["a double check"])
    assert {order[:4] for order in QA.legal_orders(state)} == {"B:e1"}


# --------------------------------------------------------------------------- perft


def test_perft_from_the_start_60_then_3600():
    state = QA.new_game({})
    one = QA.perft(state, 1)
    assert len(one) == 60 and set(one.values()) == {1}
    assert sorted(one) == sorted(QA.legal_orders(state))
    two = QA.perft(state, 2)
    assert set(two) == set(one) and set(two.values()) == {60}
    assert sum(two.values()) == 3600


def test_perft_depth_3_from_the_start():
    """247,284: the same figure the rule-by-rule checker reaches by trying every candidate of the 3,600
    positions after two moves (too slow to repeat here)."""
    assert sum(QA.perft(QA.new_game({}), 3).values()) == 247_284


def test_perft_counts_nothing_after_checkmate():
    state = qa_position(A="8/8/8/8/8/8/8/4K3", B="7k/6pp/8/8/8/8/8/8", C="8/8/8/8/8/8/8/R7")
    moved(state, "white", "C:a1-a8>B")
    assert QA.perft(state, 2) == {} and QA.legal_orders(state) == []


# --------------------------------------------------------------------------- storage, random orders, scenarios


def random_game(seed: int, plies: int):
    """Yield ``(side, order, outcome, state)`` for each order of a game of random orders."""
    rng = random.Random(seed)
    state = QA.new_game({})
    for _ in range(plies):
        side = QA.orderer(state)
        if side is None:
            return
        order = QA.random_order(state, side, rng)
        yield side, order, QA.play(state, side, order), state


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_QA4_9_the_state_round_trips_through_json_exactly_and_plays_on_identically(seed):
    replayed = None
    for side, order, outcome, state in random_game(seed, 80):
        data = QA.to_json(state)
        assert json.loads(json.dumps(data)) == data
        copy = QA.from_json(data)
        assert QA.to_json(copy) == data
        if replayed is not None:
            again = QA.play(replayed, side, order)
            assert (again.result, again.to, again.order) == (outcome.result, outcome.to, outcome.order)
            assert QA.to_json(replayed) == data
        replayed = copy


def test_QA4_9_repetitions_are_counted_across_storage():
    state = QA.new_game({})
    dance = ["A:g1-f3>B", "A:g8-f6>B", "B:f3-g1>A", "B:f6-g8>A"]
    for order in dance + dance[:2]:
        moved(state, QA.orderer(state), order)
    state = QA.from_json(json.loads(json.dumps(QA.to_json(state))))
    moved(state, "white", dance[2])
    moved(state, "black", dance[3])
    assert QA.result(state) == ("1/2-1/2", "threefold repetition")


def test_random_orders_give_moves_rejections_and_errors():
    results = set()
    for seed in range(6):
        results |= {outcome.result for _side, _order, outcome, _state in random_game(seed, 120)}
    assert {"moved", "rejected", "error"} <= results


def test_example_orders_are_legal_in_random_positions():
    for _side, _order, _outcome, state in random_game(3, 60):
        side = QA.orderer(state)
        if side is None:
            break
        examples = QA.example_orders(QA.view(state, side), side)
        assert examples and set(examples) <= set(QA.legal_orders(state))


def test_referee_play_runs_a_quasi_alice_scenario():
    """Its author's opening note played through ``referee play``: the rook takes the rook's pawn, is chased
    by a knight, must come back to the kings' board, and is taken there."""
    output = run_scenario({
        "variant": "quasi-alice-4d",
        "orders": [
            ["white", "A:a2-a4>B"], ["black", "e7-e5"], ["black", "A:e7-e5>C"], ["white", "A:a1-a7>D"],
            ["black", "A:b8-c6>D"], ["white", "D:a7-a3"], ["black", "A:a8xa3>B"], ["white", "resign"],
        ],
    })
    assert set(output) == {"events", "position", "strikes", "to_move", "result", "reason"}
    events = output["events"]
    assert [event["result"] for event in events] == ["moved", "error", "moved", "moved", "moved", "moved", "moved",
                                                     "resigned"]
    assert events[5]["to"]["white"][0]["order"] == "D:a7-a3>A"  # the one board it could go to
    assert events[6]["to"]["white"][0]["captured"] == {"piece": "R", "color": "white", "square": "A:a3"}
    assert events[6]["views"]["white"] == events[6]["views"]["black"]
    assert output["position"] == {
        "A": "2bqkbnr/1ppp1ppp/8/8/8/8/1PPPPPPP/1NBQKBNR",
        "B": "8/8/8/8/P7/r7/8/8",
        "C": "8/8/8/4p3/8/8/8/8",
        "D": "8/8/2n5/8/8/8/8/8",
    }
    assert (output["to_move"], output["result"], output["reason"]) == (None, "0-1", "resigned")
