"""What each player sees, looking from the east (SV-2, the side-view views)."""

import re

import chess
import pytest

from tests.rules.side_view_helpers import SV, play_all, position

# Rank 8: black king e8. Rank 4: black rook b4, white knight e4, black pawn h4 (nearest).
# Rank 3: black knight c3, white bishop g3 (nearest). Rank 2: white pawn a2, white rook h2. Rank 1: white king e1.
SCENE = "4k3/8/8/8/1r2N2p/2n3B1/P6R/4K3 w - - 0 1"


def entry(rank, piece, color, square=None):
    return {"rank": rank, "piece": piece, "color": color, "square": square}


def seen(fen, side, physics):
    return SV.view(position(fen, physics=physics), side)["seen"]


def test_SV_2_own_pieces_are_always_shown_exactly_and_only_they():
    for physics in (1, 2, 3):
        state = position(SCENE, physics=physics)
        assert SV.view(state, "white")["own"] == "8/8/8/8/4N3/6B1/P6R/4K3"
        assert SV.view(state, "black")["own"] == "4k3/8/8/8/1r5p/2n5/8/8"
        assert SV.view(state, "white")["physics"] == physics


def test_SV_2_physics_1_shows_only_the_nearest_piece_of_each_rank_if_enemy_without_its_file():
    assert seen(SCENE, "white", 1) == [entry(8, "K", "black"), entry(4, "P", "black")]
    assert seen(SCENE, "black", 1) == [entry(3, "B", "white"), entry(2, "R", "white"), entry(1, "K", "white")]


def test_SV_2_physics_3_shows_the_nearest_enemy_of_each_rank_with_its_square():
    assert seen(SCENE, "white", 3) == [entry(8, "K", "black", "e8"), entry(4, "P", "black", "h4")]
    assert seen(SCENE, "black", 3) == [
        entry(3, "B", "white", "g3"), entry(2, "R", "white", "h2"), entry(1, "K", "white", "e1")]


def test_SV_2_physics_2_shows_every_piece_east_to_west_own_ones_with_squares_enemies_without():
    assert seen(SCENE, "white", 2) == [
        entry(8, "K", "black"),
        entry(4, "P", "black"), entry(4, "N", "white", "e4"), entry(4, "R", "black"),
        entry(3, "B", "white", "g3"), entry(3, "N", "black"),
        entry(2, "R", "white", "h2"), entry(2, "P", "white", "a2"),
        entry(1, "K", "white", "e1"),
    ]
    assert seen(SCENE, "black", 2) == [
        entry(8, "K", "black", "e8"),
        entry(4, "P", "black", "h4"), entry(4, "N", "white"), entry(4, "R", "black", "b4"),
        entry(3, "B", "white"), entry(3, "N", "black", "c3"),
        entry(2, "R", "white"), entry(2, "P", "white"),
        entry(1, "K", "white"),
    ]


def test_SV_2_an_own_piece_nearest_the_viewer_hides_the_whole_rank():
    """Physics 1 and 3: the white knight h5 covers the black queen a5 from White, and is itself seen by Black."""
    fen = "k7/8/8/q6N/8/8/8/K7 w - - 0 1"
    for physics in (1, 3):
        assert [e["rank"] for e in seen(fen, "white", physics)] == [8]
        assert entry(5, "N", "white", "h5" if physics == 3 else None) in seen(fen, "black", physics)
        assert all(e["piece"] != "Q" for e in seen(fen, "black", physics))  # own pieces are in "own" only


@pytest.mark.parametrize("physics", [1, 3])
def test_SV_2_physics_1_and_3_hide_a_covered_enemy_wherever_it_stands(physics):
    """The black knight behind the black rook h4 may stand on any free square west of it: White sees the same."""
    views = {SV.view(position(f"k7/8/8/8/{row}/8/8/K7 w - - 0 1", physics=physics), "white")["seen"][1]["square"]
             for row in ("n6r", "1n5r", "3n3r", "5n1r")}
    assert views == {"h4" if physics == 3 else None}
    hidden_file = [SV.view(position(f"k7/8/8/8/{row}/8/8/K7 w - - 0 1", physics=physics), "white")
                   for row in ("n6r", "5n1r")]
    assert hidden_file[0] == hidden_file[1]


def test_SV_2_physics_1_hides_the_file_of_the_nearest_enemy_physics_3_shows_it():
    first, second = "k7/8/8/8/7r/8/8/K7 w - - 0 1", "k7/8/8/8/3r4/8/8/K7 w - - 0 1"
    assert SV.view(position(first, physics=1), "white") == SV.view(position(second, physics=1), "white")
    assert SV.view(position(first, physics=3), "white") != SV.view(position(second, physics=3), "white")


def test_SV_2_physics_2_hides_files_but_not_the_order_of_the_pieces():
    """Seed example: a rook on c4 and a knight on d4 look the same as a rook on a4 and a knight on g4, but not as
    a knight on b4 west of the rook."""
    same = [SV.view(position(f"k7/8/8/8/{row}/8/8/K7 b - - 0 1", physics=2), "black") for row in ("2RN4", "R5N1")]
    assert same[0] == same[1]
    assert [e["piece"] for e in same[0]["seen"] if e["rank"] == 4] == ["N", "R"]
    swapped = SV.view(position("k7/8/8/8/1N1R4/8/8/K7 b - - 0 1", physics=2), "black")
    assert swapped != same[0]


def test_SV_2_physics_2_own_pieces_pin_down_the_enemy_between_them():
    """Own pieces carry their squares in ``seen``, so the player knows an enemy lies between them."""
    view = SV.view(position("k7/8/8/8/2R1n1R1/8/8/K7 w - - 0 1", physics=2), "white")
    assert [e for e in view["seen"] if e["rank"] == 4] == [
        entry(4, "R", "white", "g4"), entry(4, "N", "black"), entry(4, "R", "white", "c4")]


def test_SV_2_seen_runs_from_rank_8_to_rank_1_at_the_start():
    view = SV.view(SV.new_game({"physics": 2}), "white")
    assert [e["rank"] for e in view["seen"]] == [8] * 8 + [7] * 8 + [2] * 8 + [1] * 8
    assert "".join(e["piece"] for e in view["seen"] if e["rank"] == 8) == "RNBKQBNR"  # h8 first
    assert all(e["square"] is None for e in view["seen"] if e["color"] == "black")
    assert [e["square"] for e in view["seen"] if e["rank"] == 1] == [f"{f}1" for f in "hgfedcba"]


def test_SV_4_the_tray_holds_every_capture_of_both_colours_in_order_for_both_players():
    state = SV.new_game({"physics": 1})
    play_all(state, "e2-e4", "d7-d5", "e4-d5", "d8-d5", "b1-c3", "d5-a2", "a1-a2")
    assert SV.view(state, "white")["tray"] == SV.view(state, "black")["tray"] == "pPPq"


def test_SV_2_views_before_a_hidden_setup_is_complete_show_no_piece():
    state = SV.new_game({"setup": "hidden", "physics": 2})
    SV.play(state, "white", "setup 518")
    for side in ("white", "black"):
        assert SV.view(state, side) == {"own": "8/8/8/8/8/8/8/8", "seen": [], "tray": "", "physics": 2}


# --------------------------------------------------------------------------- example orders (from the view only)


CANONICAL = re.compile(r"^([a-h][1-8]-[a-h][1-8](=[QRBN])?|O-O|O-O-O)$")


def test_SV_2_example_orders_at_the_start_are_canonical_and_legal_there():
    state = SV.new_game({})
    for side in ("white", "black"):
        examples = SV.example_orders(SV.view(state, side), side)
        assert 2 <= len(examples) <= 3 and len(set(examples)) == len(examples)
        assert all(CANONICAL.match(order) for order in examples)
    examples = SV.example_orders(SV.view(state, "white"), "white")
    assert set(examples) <= set(SV.legal_orders(state))


def test_SV_2_example_orders_capture_an_enemy_seen_exactly_and_never_land_on_own_pieces():
    state = position("4k3/8/8/3p4/8/8/8/3QK2N w - - 0 1", physics=3)
    examples = SV.example_orders(SV.view(state, "white"), "white")
    assert examples[0] == "d1-d5"  # the pawn is the nearest piece of rank 5: its square is known
    own = chess.BaseBoard(SV.view(state, "white")["own"])
    assert all(own.piece_at(chess.parse_square(order[3:5])) is None for order in examples)


def test_SV_2_example_orders_depend_on_the_view_alone():
    """Two positions that look the same to White (physics 1) give the same examples."""
    first = position("4k3/8/8/8/r6p/8/PPPP4/4K3 w - - 0 1", physics=1)
    second = position("4k3/8/8/8/4r2p/8/PPPP4/4K3 w - - 0 1", physics=1)
    assert SV.view(first, "white") == SV.view(second, "white")
    assert SV.example_orders(SV.view(first, "white"), "white") == SV.example_orders(SV.view(second, "white"), "white")
    examples = SV.example_orders(SV.view(first, "white"), "white")
    assert examples[0] in {"b2-b3", "c2-c3", "d2-d3", "a2-a3"}


def test_SV_2_example_orders_in_a_hidden_setup_suggest_a_setup():
    state = SV.new_game({"setup": "hidden"})
    assert all(order.startswith("setup ") for order in SV.example_orders(SV.view(state, "white"), "white"))


def test_SV_2_example_orders_promote_to_a_queen():
    state = position("k7/6P1/8/8/8/8/8/K7 w - - 0 1")
    assert "g7-g8=Q" in SV.example_orders(SV.view(state, "white"), "white")


def test_SV_2_example_orders_for_a_lone_king_are_king_steps():
    state = position("k7/8/8/8/8/8/8/K7 w - - 0 1")
    examples = SV.example_orders(SV.view(state, "white"), "white")
    assert len(examples) >= 2 and set(examples) <= {"a1-a2", "a1-b1", "a1-b2"}
