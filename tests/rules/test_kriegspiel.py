"""Kriegspiel referee (KS-1, KS-2, KS-6): options, start positions, reading orders, illegal orders."""

import random

import chess
import pytest

from app.rules.base import OptionError, OrderError
from app.rules.kriegspiel import Kriegspiel
from app.rules.registry import get_variant
from tests.rules.kriegspiel_helpers import KS, kinds, play_all, position


def board(state) -> str:
    return KS.position(state)["board"]


# --------------------------------------------------------------------------- options and the start (KS-1)


def test_ks1_kriegspiel_is_registered_under_its_name_and_title():
    variant = get_variant("kriegspiel")
    assert isinstance(variant, Kriegspiel) and variant.title == "Kriegspiel"
    assert variant.move_lines == 8  # KS-5


def test_ks1_options_default_to_the_standard_start_and_read_their_own_output_again():
    assert KS.parse_options({}) == {"setup": "standard"}
    assert KS.parse_options({"setup": "Chess960"}) == {"setup": "chess960"}
    assert KS.parse_options(KS.parse_options({"setup": "chess960"})) == {"setup": "chess960"}


@pytest.mark.parametrize(("raw", "words"), [
    ({"setup": "hidden"}, "setup must be one of standard, chess960"),
    ({"physics": 1}, "unknown option 'physics' for kriegspiel; known: setup"),
])
def test_ks1_option_errors_say_what_is_wrong_and_what_is_accepted(raw, words):
    with pytest.raises(OptionError, match=words):
        KS.new_game(raw)


def test_ks1_the_standard_start_with_white_to_move_and_no_setup_phase():
    state = KS.new_game({})
    assert board(state) == chess.STARTING_BOARD_FEN
    assert not KS.needs_setup(state, "white") and KS.hidden_setups(state) == {}
    assert KS.orderer(state) == "white" and KS.move_number(state) == 1 and KS.result(state) == (None, None)


def test_ks1_chess960_draws_one_row_for_both_from_the_given_random_source():
    first = KS.new_game({"setup": "chess960"}, random.Random(7))
    assert board(first) == board(KS.new_game({"setup": "chess960"}, random.Random(7)))
    white_row = board(first).split("/")[7]
    assert board(first).split("/")[0] == white_row.lower() and sorted(white_row) == sorted("RNBQKBNR")
    assert len({board(KS.new_game({"setup": "chess960"}, random.Random(seed))) for seed in range(12)}) > 1


def test_ks1_chess960_castling_puts_king_and_rook_on_the_c_and_d_files():
    state = position("1r2k2r/pppppppp/8/8/8/8/PPPPPPPP/1R2K2R w HBhb - 0 1", setup="chess960")
    [outcome] = play_all(state, "O-O-O")
    moved = outcome.to["white"][0]
    assert moved["castle"] == "O-O-O" and (moved["from"], moved["to"]) == ("e1", "c1")
    assert board(state).endswith("/2KR3R")
    assert outcome.to["black"][0] == {"kind": "opponent-moved", "color": "white"}  # castling is not told


def test_ks1_each_player_sees_only_their_own_men():
    state = KS.new_game({})
    play_all(state, "e2-e4", "d7-d5")
    assert KS.view(state, "white") == {"own": "8/8/8/8/4P3/8/PPPP1PPP/RNBQKBNR", "lost": "",
                                       "taken": {"pawns": 0, "pieces": 0}}
    assert KS.view(state, "black") == {"own": "rnbqkbnr/ppp1pppp/8/3p4/8/8/8/8", "lost": "",
                                       "taken": {"pawns": 0, "pieces": 0}}


# --------------------------------------------------------------------------- reading orders (KS-2, KS-6)


@pytest.mark.parametrize(("text", "canonical"), [
    ("e2-e4", "e2-e4"), ("e2e4", "e2-e4"), ("E2 E4", "e2-e4"), ("e2\u2013e4", "e2-e4"), ("e2-e4!?", "e2-e4"),
])
def test_ks2_coordinate_forms_are_read_and_written_canonically(text, canonical):
    state = KS.new_game({})
    outcome = KS.play(state, "white", text)
    assert outcome.result == "moved" and outcome.order == canonical
    assert KS.move_written(text) == canonical and KS.order_kind(text) == "move"


@pytest.mark.parametrize(("text", "canonical", "promoted"), [
    ("b7-a8", "b7-a8=Q", "Q"), ("b7a8n", "b7-a8=N", "N"), ("b7-a8=R", "b7-a8=R", "R"), ("b7-b8=B", "b7-b8=B", "B"),
])
def test_ks2_a_promotion_without_a_letter_is_a_queen(text, canonical, promoted):
    state = position("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
    [outcome] = play_all(state, text)
    assert outcome.order == canonical and outcome.to["white"][0]["promotion"] == promoted
    assert outcome.to["black"][0] == {"kind": "opponent-moved", "color": "white"}  # KS-3: promotion is not told


@pytest.mark.parametrize("text", ["O-O", "0-0", "o-o", "e1-g1"])
def test_ks2_castling_is_written_o_o_and_read_also_as_the_kings_step(text):
    state = position("4k3/8/8/8/8/8/8/4K2R w K - 0 1")
    [outcome] = play_all(state, text)
    assert outcome.order == "O-O" and board(state) == "4k3/8/8/8/8/8/8/5RK1"


@pytest.mark.parametrize(("text", "words"), [
    ("Nf3", "could not read"), ("e2-e9", "e9 is not a square"), ("e7-e8=K", "promoted to Q, R, B or N"),
    ("e2-e4=Q", "only with a move to rank 1 or 8"), ("e4", "names only e4"),
])
def test_ks2_a_line_that_cannot_be_read_is_an_error_that_tells_the_accepted_forms(text, words):
    state = KS.new_game({})
    before = KS.to_json(state)
    outcome = KS.play(state, "white", text)
    assert outcome.result == "error" and words in outcome.to["white"][0]["reason"]
    assert outcome.to["black"] == [] and KS.to_json(state) == before
    with pytest.raises(OrderError):
        KS.order_kind(text)


def test_ks6_chatter_and_common_commands_are_told_apart_from_orders():
    assert not KS.is_order("Good luck, have fun!")
    assert KS.is_order("e2-e4") and KS.is_order("resign") and KS.is_order("offer draw")
    assert KS.order_kind("resign") == "order" and KS.order_kind("O-O-O") == "move"
    assert KS.move_written("resign") is None


# --------------------------------------------------------------------------- illegal orders (KS-2)


ILLEGAL = [  # (why, position, order): each is answered only "illegal"
    ("onto its own man", chess.STARTING_FEN, "d1-d2"),
    ("a pattern the piece cannot move", chess.STARTING_FEN, "g1-g3"),
    ("an empty from-square", chess.STARTING_FEN, "e4-e5"),
    ("the opponent's man", chess.STARTING_FEN, "e7-e5"),
    ("through an enemy man", "4k3/8/8/8/4p3/8/8/4RK2 w - - 0 1", "e1-e8"),
    ("a pawn forward onto an enemy man", "4k3/8/8/8/4p3/4P3/8/4K3 w - - 0 1", "e3-e4"),
    ("a pawn diagonally onto an empty square", chess.STARTING_FEN, "e2-d3"),
    ("into check", "3rk3/8/8/8/8/8/8/4K3 w - - 0 1", "e1-d2"),
    ("staying in check", "4k3/8/8/8/8/8/7P/r3K3 w - - 0 1", "h2-h3"),
    ("exposing the king", "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1", "e2-d3"),
    ("castling out of check", "4k3/8/8/8/8/8/8/r3K2R w K - 0 1", "O-O"),
    ("castling through check", "4k3/8/8/8/8/8/5r2/4K2R w K - 0 1", "O-O"),
    ("castling without the right", "4k3/8/8/8/8/8/8/4K2R w - - 0 1", "O-O"),
    ("a promotion letter on a man that does not promote", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1-a8=Q"),
]


@pytest.mark.parametrize(("why", "fen", "order"), ILLEGAL, ids=[case[0] for case in ILLEGAL])
def test_ks2_every_refused_move_is_only_illegal_to_the_orderer_and_costs_nothing(why, fen, order):
    state = position(fen)
    before = KS.to_json(state)
    views = {side: KS.view(state, side) for side in ("white", "black")}
    outcome = KS.play(state, "white", order)
    assert outcome.result == "rejected"
    assert outcome.to == {"white": [{"kind": "rejected", "reason": "illegal"}], "black": []}
    assert KS.to_json(state) == before and {side: KS.view(state, side) for side in views} == views
    assert KS.orderer(state) == "white"


def test_ks2_orders_out_of_turn_or_after_the_end_are_rejected_to_the_sender_alone():
    state = KS.new_game({})
    outcome = KS.play(state, "black", "e7-e5")
    assert outcome.result == "rejected" and "not your turn" in outcome.to["black"][0]["reason"]
    assert outcome.to["white"] == []
    KS.play(state, "white", "resign")
    outcome = KS.play(state, "black", "e7-e5")
    assert outcome.result == "rejected" and "the game is over" in outcome.to["black"][0]["reason"]


# --------------------------------------------------------------------------- commands (KS-6)


def test_ks6_resigning_ends_the_game_and_shows_both_the_whole_board():
    state = KS.new_game({})
    play_all(state, "e2-e4")
    outcome = KS.play(state, "black", "resign")
    assert outcome.result == "resigned"
    end = {"kind": "end", "result": "1-0", "reason": "resigned"}
    assert outcome.to == {"white": [end], "black": [end]}
    assert KS.orderer(state) is None and KS.result(state) == ("1-0", "resigned")
    for side in ("white", "black"):
        assert KS.view(state, side)["board"] == board(state)


def test_ks6_draw_offer_accepted_declined_and_answered_by_a_move():
    state = KS.new_game({})
    offered = KS.play(state, "white", "offer draw")
    assert offered.result == "offered" and kinds(offered.to["black"]) == ["draw-offered"]
    assert KS.play(state, "black", "decline draw").result == "declined"
    KS.play(state, "white", "offer draw")
    play_all(state, "e2-e4", "e7-e5")  # Black's move answers White's offer
    assert KS.play(state, "white", "accept draw").result == "rejected"
    KS.play(state, "white", "offer draw")
    drawn = KS.play(state, "black", "accept draw")
    assert drawn.result == "drawn" and KS.result(state) == ("1/2-1/2", "agreement")


def test_ks6_a_loss_on_time_is_told_to_both():
    state = KS.new_game({})
    outcome = KS.forfeit(state, "white", "time")
    assert kinds(outcome.to["white"]) == kinds(outcome.to["black"]) == ["timeout", "end"]
    assert KS.result(state) == ("0-1", "time")
