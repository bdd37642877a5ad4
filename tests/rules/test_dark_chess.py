"""Dark Chess, rule by rule (DC-1, DC-2, DC-4, DC-5, DC-6; DC-3's sight in test_dark_chess_sight.py, perft in
test_dark_chess_perft.py)."""

from __future__ import annotations

import random

import pytest

from app.rules.base import OptionError
from app.rules.registry import get_variant
from tests.rules.dark_chess_helpers import DC, play_all, position, random_game

# --------------------------------------------------------------------------- DC-1 the board and the moves


def test_dc1_dark_chess_is_registered_under_its_name_and_title_with_its_start_option():
    variant = get_variant("dark-chess")
    assert (variant.name, variant.title, variant.has_check) == ("dark-chess", "Dark Chess", False)
    assert variant.parse_options({}) == {"setup": "standard"}
    assert variant.parse_options({"setup": "chess960"}) == {"setup": "chess960"}
    with pytest.raises(OptionError, match="unknown option 'physics' for dark-chess; known: setup"):
        variant.parse_options({"physics": 1})


def test_dc1_chess960_is_one_random_row_for_both_and_the_seed_repeats_it():
    rows = {DC.position(DC.new_game({"setup": "chess960"}, random.Random(seed)))["board"] for seed in range(8)}
    assert len(rows) > 1
    for row in rows:
        black, *_middle, white = row.split("/")
        assert black == white.lower() and sorted(white) == sorted("RNBQKBNR")
    again = [DC.position(DC.new_game({"setup": "chess960"}, random.Random(3)))["board"] for _ in range(2)]
    assert again[0] == again[1]


def test_dc1_there_is_no_check_a_king_moves_onto_an_attacked_square_and_a_pinned_man_moves():
    state = position("4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1")  # the knight on d2 is pinned by the b4 bishop
    assert {"d2-f3", "e1-f2"} <= set(DC.legal_orders(state))
    play_all(state, "d2-f3")  # the king stands attacked
    assert DC.result(state) == (None, None) and "b4-e1" in DC.legal_orders(state)


def test_dc1_castling_out_of_through_and_into_attack():
    for attacker in ("4r3", "5r2", "6r1"):  # on the e-, f- and g-file: out of, through, into
        state = position(f"4k3/8/8/8/8/{attacker}/8/4K2R w K - 0 1")
        (outcome,) = play_all(state, "O-O")
        assert outcome.to["white"][0]["castle"] == "O-O" and DC.position(state)["board"].endswith("5RK1")


def test_dc1_castling_needs_the_king_and_rook_unmoved_and_the_squares_between_empty():
    state = position("r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1")
    assert "O-O-O" not in DC.legal_orders(state) and "O-O" in DC.legal_orders(state)
    play_all(state, "h1-h2", "a8-b8", "h2-h1", "b8-a8")  # both rooks back where they were, their rights gone
    assert "O-O" not in DC.legal_orders(state)
    assert DC.play(state, "white", "e1-g1").to["white"] == [{"kind": "rejected", "reason": (
        "O-O is no longer possible: your king or the rook on that side has moved, or the rook was taken")}]


def test_dc1_en_passant_and_promotion_as_in_fide_chess():
    state = position("4k3/8/8/8/4p3/8/3P4/4K3 w - - 0 1")
    (_white, black) = play_all(state, "d2-d4", "e4-d3")
    assert black.to["black"][0]["en_passant"] is True
    assert black.to["black"][0]["captured"] == {"piece": "P", "color": "white", "square": "d4"}
    assert black.to["white"] == [{"kind": "opponent-moved", "color": "black",
                                  "lost": {"piece": "P", "color": "white", "square": "d4"}}]
    state = position("4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    assert DC.play(state, "white", "a7-a8=N").to["white"][0]["promotion"] == "N"
    state = position("4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    outcome = DC.play(state, "white", "a7a8")  # no letter: a queen (DC-2)
    assert outcome.order == "a7-a8=Q" and DC.position(state)["board"].startswith("Q3k3")


# --------------------------------------------------------------------------- DC-2 orders and refusals


@pytest.mark.parametrize(("order", "reason"), [
    ("e3-e4", "no piece of yours on e3"),
    ("e7-e6", "no piece of yours on e7"),
    ("f1-f3", "a bishop does not move so"),
    ("e2-e5", "a pawn does not move so"),
    ("d2-d4", "your pawn cannot move to d4"),  # blocked on d3 by a man in the fog
    ("c1-h6", "your bishop cannot move to h6"),  # its own pawn on d2 is in the way
    ("g1-e2", "your own pawn stands on e2"),
    ("Qd1-d3", "the order names your queen on d1, but your piece there is a king"),
    ("d1-d1", "d1-d1 does not move your king"),
])
def test_dc2_a_refused_order_is_told_its_reason_the_opponent_nothing_and_the_game_is_unchanged(order, reason):
    state = position("rnbqkbnr/pppppppp/8/8/8/3n4/PPPPPPPP/RNBKQBNR w - - 0 1")
    before = DC.to_json(state)
    outcome = DC.play(state, "white", order)
    assert outcome.result == "rejected"
    assert outcome.to == {"white": [{"kind": "rejected", "reason": reason}], "black": []}
    assert DC.to_json(state) == before and DC.orderer(state) == "white"


@pytest.mark.parametrize("blocker", ["n", "b", "q", None])
def test_dc2_a_castle_blocked_in_the_fog_is_refused_in_words_that_name_no_square_and_no_man(blocker):
    """Chess960, king b1 and rook a1: the rook lands on d1, which no man of White's sees (DC-3). That the castle
    is refused is what the game itself lets White infer (something stands in the way, as a pawn that cannot
    step is blocked), as DC-2 says; the refusal names neither the square nor what stands there."""
    row = f"RK1{blocker}4" if blocker else "RK6"
    state = position(f"7k/8/8/8/8/8/PPP5/{row} w A - 0 1", setup="chess960")
    assert "d1" not in DC.view(state, "white")["seen"]
    for order in ("O-O-O", "b1-a1"):
        outcome = DC.play(position(f"7k/8/8/8/8/8/PPP5/{row} w A - 0 1", setup="chess960"), "white", order)
        if blocker is None:
            assert outcome.result == "moved"
            continue
        assert outcome.to == {"white": [{"kind": "rejected", "reason": "O-O-O needs the squares your king and that "
                                          "rook cross or land on to be empty"}], "black": []}


def test_dc2_orders_are_written_canonically_and_read_in_every_usual_form():
    for written, canonical in (("e2e4", "e2-e4"), ("E2 E4", "e2-e4"), ("e2-e4", "e2-e4"), ("0-0", "O-O"),
                               ("e7-e8n", "e7-e8=N"), ("Pe2-e4", "e2-e4")):
        assert DC.move_written(written) == canonical
    outcome = DC.play(DC.new_game({}), "white", "e2-e5=Q")
    assert outcome.result == "error" and "promotion" in outcome.to["white"][0]["reason"]


# --------------------------------------------------------------------------- DC-4 what each player is told


def test_dc4_the_mover_hears_the_move_and_what_it_took_the_opponent_only_what_they_lost():
    state = DC.new_game({})
    first, _reply, take = play_all(state, "e2-e4", "d7-d5", "e4-d5")
    assert first.to == {
        "white": [{"kind": "moved", "color": "white", "from": "e2", "to": "e4", "piece": "P", "promotion": None,
                   "castle": None, "en_passant": False, "captured": None}],
        "black": [{"kind": "opponent-moved", "color": "white", "lost": None}],
    }
    assert take.to["white"][0]["captured"] == {"piece": "P", "color": "black", "square": "d5"}
    assert take.to["black"] == [{"kind": "opponent-moved", "color": "white",
                                 "lost": {"piece": "P", "color": "black", "square": "d5"}}]


def test_dc4_a_castle_or_a_promotion_is_not_told_to_the_opponent():
    state = position("2k5/1P6/8/8/8/8/8/4K2R w K - 0 1")
    (castle,) = play_all(state, "O-O")
    assert castle.to["black"] == [{"kind": "opponent-moved", "color": "white", "lost": None}]
    play_all(state, "c8-c7")
    (promotion,) = play_all(state, "b7-b8=R")
    assert promotion.to["white"][0]["promotion"] == "R"
    assert promotion.to["black"] == [{"kind": "opponent-moved", "color": "white", "lost": None}]
    assert DC.view(state, "black")["seen"]["b8"] == "R"  # ... unless their sight shows it: the king beside it


def test_dc4_every_message_of_random_games_tells_the_opponent_only_of_their_own_loss():
    for seed in range(6):
        for side, _order, outcome, state in random_game(seed, 150):
            opponent = "black" if side == "white" else "white"
            for message in outcome.to[opponent]:
                assert message["kind"] in ("opponent-moved", "end", "draw-offered", "draw-declined"), message
                if message["kind"] == "opponent-moved":
                    lost = message["lost"]
                    assert set(message) == {"kind", "color", "lost"} and (lost is None or lost["color"] == opponent)
            if outcome.result == "rejected":
                assert outcome.to[opponent] == []
            if state.result is not None:
                break


# --------------------------------------------------------------------------- DC-5 the end


def test_dc5_capturing_the_king_wins_at_once():
    state = position("4k3/8/8/8/8/8/4q3/4K3 b - - 0 1")
    (outcome,) = play_all(state, "e2-e1")
    assert DC.result(state) == ("0-1", "king captured") and DC.orderer(state) is None
    assert outcome.to["white"][-1] == outcome.to["black"][-1] == {"kind": "end", "result": "0-1",
                                                                  "reason": "king captured"}
    assert DC.legal_orders(state) == [] and DC.perft(state, 1) == {}


def test_dc5_a_player_with_no_move_at_all_draws():
    """Without check a king always has a move unless its own men hem it in, and they theirs: Black's army on
    ranks 1 and 2, each man blocked by its own (no knight, which could jump out), has none."""
    state = position("8/8/8/4K3/8/8/pppppppp/krbqrbrr w - - 0 1")
    (outcome,) = play_all(state, "e5-e4")
    assert DC.result(state) == ("1/2-1/2", "stalemate")
    assert outcome.to["black"][-1] == {"kind": "end", "result": "1/2-1/2", "reason": "stalemate"}


def test_dc5_a_hundred_half_moves_without_a_capture_or_a_pawn_move_draw():
    state = position("4k3/8/8/8/8/8/8/R3K3 w - - 98 80")
    play_all(state, "a1-a2")
    assert DC.result(state) == (None, None)
    (outcome,) = play_all(state, "e8-d8")
    assert DC.result(state) == ("1/2-1/2", "fifty moves")
    assert outcome.to["white"][-1] == {"kind": "end", "result": "1/2-1/2", "reason": "fifty moves"}


def test_dc5_no_draw_by_repetition_nor_for_lack_of_material():
    state = position("4k3/8/8/8/8/8/8/4K3 w - - 0 1")  # two bare kings can still take each other
    for _ in range(4):
        play_all(state, "e1-d1", "e8-d8", "d1-e1", "d8-e8")
    assert DC.result(state) == (None, None)


# --------------------------------------------------------------------------- DC-6 commands beside moves


@pytest.mark.parametrize(("orders", "results", "ending"), [
    ((("white", "resign"),), ["resigned"], ("0-1", "resigned")),
    ((("white", "offer draw"), ("black", "accept draw")), ["offered", "drawn"], ("1/2-1/2", "agreement")),
    ((("white", "offer draw"), ("black", "decline draw")), ["offered", "declined"], (None, None)),
])
def test_dc6_resign_and_the_draw_offer_as_in_every_game(orders, results, ending):
    state = DC.new_game({})
    assert [DC.play(state, side, text).result for side, text in orders] == results
    assert DC.result(state) == ending


def test_dc6_no_command_of_its_own_beside_the_common_ones():
    from app.present.registry import presenter_for

    assert presenter_for("dark-chess").commands() == []
    assert DC.command_words == get_variant("kriegspiel").command_words
