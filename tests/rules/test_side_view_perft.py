"""Move generation of Side View Chess (SV-1: FIDE moves by python-chess), checked by perft (the public interface)."""

import random

import chess
import pytest

from tests.rules.side_view_helpers import SV, count_moves, hidden, play_all, position

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
ENDGAME = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"  # checks, pins and en passant
CHESS960_FIRST = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"


@pytest.mark.parametrize(("depth", "nodes"), [(1, 20), (2, 400), (3, 8902)])
def test_SV_1_perft_from_the_start_matches_the_fide_figures(depth, nodes):
    divide = SV.perft(SV.new_game({}), depth)
    assert len(divide) == 20
    assert sum(divide.values()) == nodes


def test_SV_1_perft_divide_is_keyed_by_canonical_orders():
    divide = SV.perft(SV.new_game({}), 2)
    assert divide["e2-e4"] == 20 and divide["g1-f3"] == 20
    assert set(divide) == set(SV.legal_orders(SV.new_game({})))


@pytest.mark.parametrize(("fen", "figures"), [(KIWIPETE, [48, 2039]), (ENDGAME, [14, 191, 2812])])
def test_SV_1_perft_of_the_well_known_test_positions(fen, figures):
    state = position(fen)
    assert [sum(SV.perft(state, depth).values()) for depth in range(1, len(figures) + 1)] == figures


def test_SV_1_kiwipete_castles_both_ways_by_canonical_orders():
    orders = SV.legal_orders(position(KIWIPETE))
    assert {"O-O", "O-O-O"} <= set(orders) and "e1-g1" not in orders


def test_SV_1_perft_of_a_published_chess960_position():
    """Position 1 of the Chess960 perft suite: 21, 528, 12189."""
    state = position(CHESS960_FIRST, setup="chess960")
    assert [sum(SV.perft(state, depth).values()) for depth in (1, 2, 3)] == [21, 528, 12189]


@pytest.mark.parametrize("seed", [1, 2])
def test_SV_1_perft_of_a_chess960_start_matches_python_chess(seed):
    """The row is the Chess960 position numbered by the first draw from the game's random source."""
    state = SV.new_game({"setup": "chess960"}, random.Random(seed))
    reference = chess.Board.from_chess960_pos(random.Random(seed).randrange(960))
    assert reference.board_fen() == SV.position(state)["board"]
    assert sum(SV.perft(state, 3).values()) == count_moves(reference, 3)


def test_SV_1_perft_after_hidden_setups_matches_python_chess_with_both_rows():
    state = hidden("NRKBBQRN", "RKRBBNNQ")
    play_all(state, "e2-e3", "e7-e6", "d1-g4", "d8-g5")
    reference = chess.Board("rkr1bnnq/pppp1ppp/4p3/6b1/6B1/4P3/PPPP1PPP/NRK1BQRN w GBca - 2 3", chess960=True)
    assert reference.board_fen() == SV.position(state)["board"]
    divide = SV.perft(state, 3)
    assert "O-O-O" in divide
    assert sum(divide.values()) == count_moves(reference, 3)


def test_SV_1_legal_orders_count_each_promotion_once_and_each_move_once():
    orders = SV.legal_orders(position("1n5k/P7/8/8/8/8/8/K7 w - - 0 1"))
    assert sorted(o for o in orders if o.startswith("a7")) == [
        "a7-a8=B", "a7-a8=N", "a7-a8=Q", "a7-a8=R", "a7-b8=B", "a7-b8=N", "a7-b8=Q", "a7-b8=R"]
    assert len(orders) == len(set(orders)) == 8 + 3


def test_SV_1_every_legal_order_is_played_as_a_move():
    state = position(KIWIPETE)
    for order in SV.legal_orders(state):
        child = SV.from_json(SV.to_json(state))
        outcome = SV.play(child, "white", order)
        assert (outcome.result, outcome.order) == ("moved", order)


def test_SV_1_checkmate_and_stalemate_have_no_moves():
    mated = SV.new_game({})
    play_all(mated, "f2-f3", "e7-e5", "g2-g4", "d8-h4")
    stalemated = position("k7/8/1Q6/8/8/8/8/6K1 b - - 0 1")
    for state in (mated, stalemated):
        assert SV.legal_orders(state) == [] and SV.perft(state, 2) == {}
