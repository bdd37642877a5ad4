"""``referee perft`` for Kriegspiel counts FIDE moves: the same figures as chess (KS-1)."""

import chess
import pytest

from app.rules.kriegspiel.state import GameState
from app.rules.scenario import run_perft
from tests.rules.kriegspiel_helpers import KS, play_all, position

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
CHESS960_FIRST = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"  # the Chess960 perft list's first


@pytest.mark.parametrize(("depth", "nodes"), [(1, 20), (2, 400), (3, 8902), (4, 197281)])
def test_ks1_perft_from_the_start_gives_the_standard_figures(depth, nodes):
    output = run_perft({"variant": "kriegspiel"}, depth)
    assert output["nodes"] == nodes and output["depth"] == depth
    assert len(output["divide"]) == 20 and "e2-e4" in output["divide"] and "g1-f3" in output["divide"]


@pytest.mark.parametrize(("depth", "nodes"), [(1, 48), (2, 2039), (3, 97862)])
def test_ks1_perft_of_kiwipete_counts_castling_en_passant_and_promotions(depth, nodes):
    divide = KS.perft(position(KIWIPETE), depth)
    assert sum(divide.values()) == nodes
    assert {"O-O", "O-O-O"} <= set(divide)


@pytest.mark.parametrize(("depth", "nodes"), [(1, 21), (2, 528), (3, 12189)])
def test_ks1_perft_of_a_chess960_position(depth, nodes):
    assert sum(KS.perft(position(CHESS960_FIRST, setup="chess960"), depth).values()) == nodes


def count_moves(board: chess.Board, depth: int) -> int:
    """A plain recursive count, written apart from the referee's perft."""
    if depth == 0:
        return 1
    total = 0
    for move in list(board.legal_moves):
        board.push(move)
        total += count_moves(board, depth - 1)
        board.pop()
    return total


@pytest.mark.parametrize("index", [0, 345, 959])
def test_ks1_perft_from_a_chess960_start_matches_a_plain_count(index):
    state = GameState(options={"setup": "chess960"}, start=chess.Board.from_chess960_pos(index).fen())
    assert sum(KS.perft(state, 3).values()) == count_moves(chess.Board.from_chess960_pos(index), 3)


def test_ks1_perft_after_the_scenarios_orders_and_divide_in_canonical_form():
    output = run_perft({"variant": "kriegspiel", "orders": [["white", "e2-e4"], ["black", "d7-d5"]]}, 1)
    assert output["nodes"] == 31 and output["divide"]["e4-d5"] == 1
    promotion = KS.perft(position("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"), 1)
    assert {"b7-b8=Q", "b7-b8=R", "b7-b8=B", "b7-b8=N"} <= set(promotion)


def test_ks1_a_mate_or_a_stalemate_has_no_moves_and_legal_orders_are_each_move_once():
    state = KS.new_game({})
    play_all(state, "f2-f3", "e7-e5", "g2-g4", "d8-h4")
    assert KS.legal_orders(state) == [] and KS.perft(state, 2) == {}
    start = KS.new_game({})
    orders = KS.legal_orders(start)
    assert len(orders) == len(set(orders)) == 20
