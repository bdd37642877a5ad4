"""How a game of Kriegspiel ends (KS-4): checkmate wins; stalemate, insufficient material, threefold
repetition and the 50-move rule draw at once; both are told; the whole board is shown at the end."""

import pytest

from tests.rules.kriegspiel_helpers import KS, kinds, play_all, position

KNIGHT_SHUFFLE = ("g1-f3", "g8-f6", "f3-g1", "f6-g8")


def assert_ended(state, outcome, result, reason):
    end = {"kind": "end", "result": result, "reason": reason}
    assert outcome.to["white"][-1] == end and outcome.to["black"][-1] == end
    assert "pawn-tries" not in kinds(outcome.to["white"]) + kinds(outcome.to["black"])  # only while it runs
    assert KS.result(state) == (result, reason) and KS.orderer(state) is None
    assert KS.public(state)["pawn_tries"] is None
    board = KS.position(state)["board"]
    for side in ("white", "black"):
        assert KS.view(state, side)["board"] == board  # the opponent's men are shown at the end


def test_ks4_checkmate_wins_and_both_hear_the_check_then_the_end():
    state = KS.new_game({})
    *_, mate = play_all(state, "f2-f3", "e7-e5", "g2-g4", "d8-h4")
    assert kinds(mate.to["white"]) == ["opponent-moved", "check", "end"]
    assert mate.to["white"][1] == {"kind": "check", "color": "white", "directions": ["short-diagonal"]}
    assert_ended(state, mate, "0-1", "checkmate")


def test_ks4_stalemate_draws():
    state = position("7k/8/6K1/8/8/8/5Q2/8 w - - 0 1")
    [outcome] = play_all(state, "f2-f7")
    assert_ended(state, outcome, "1/2-1/2", "stalemate")


def test_ks4_insufficient_material_draws_as_python_chess_judges_it():
    state = position("4k3/8/8/8/8/8/3n4/4KB2 w - - 0 1")
    [outcome] = play_all(state, "e1-d2")
    assert kinds(outcome.to["black"]) == ["opponent-moved", "captured", "end"]
    assert_ended(state, outcome, "1/2-1/2", "insufficient material")


def test_ks4_threefold_repetition_draws_at_once_on_the_third_time():
    state = KS.new_game({})
    play_all(state, *KNIGHT_SHUFFLE, *KNIGHT_SHUFFLE[:3])
    assert KS.result(state) == (None, None)  # the start stands for the second time after four plies only
    [outcome] = play_all(state, KNIGHT_SHUFFLE[3])
    assert_ended(state, outcome, "1/2-1/2", "threefold repetition")


def test_ks4_the_same_men_on_the_same_squares_with_other_castling_rights_are_another_position():
    state = position("4k3/8/8/8/8/8/8/4K2R w K - 0 1")
    rook_out_and_back = ("h1-h2", "e8-d8", "h2-h1", "d8-e8")
    play_all(state, *rook_out_and_back, *rook_out_and_back)  # the start's men a third time, without the right
    assert KS.result(state) == (None, None)
    [outcome] = play_all(state, "h1-h2")  # the position after h1-h2 is the same each time: now its third
    assert_ended(state, outcome, "1/2-1/2", "threefold repetition")


def test_ks4_fifty_moves_without_capture_or_pawn_move_draw_at_once():
    state = position("4k3/8/8/8/8/8/8/R3K3 w - - 98 80")
    play_all(state, "a1-a2")
    assert KS.result(state) == (None, None)
    [outcome] = play_all(state, "e8-d8")
    assert_ended(state, outcome, "1/2-1/2", "50-move rule")


def test_ks4_checkmate_on_the_hundredth_ply_wins():
    state = position("6k1/5ppp/8/8/8/8/8/R3K3 w - - 99 80")
    [outcome] = play_all(state, "a1-a8")
    assert_ended(state, outcome, "1-0", "checkmate")


@pytest.mark.parametrize("order", ["e2-e4", "offer draw", "resign"])
def test_ks4_nothing_is_played_after_the_end(order):
    state = KS.new_game({})
    KS.play(state, "white", "resign")
    before = KS.to_json(state)
    outcome = KS.play(state, "black", order)
    assert outcome.result == "rejected" and outcome.to["white"] == [] and KS.to_json(state) == before
