"""The rules, "Orders by email": in every variant played on one FIDE board (Side View, Kriegspiel, Dark Chess,
Palindromic), a king's order onto a rook of its own on its own back rank is castling on that side, exactly as
``O-O`` / ``O-O-O`` would be; in Chess960 it is the usual way to write some castles."""

from __future__ import annotations

import random

import pytest

from app.rules.dark_chess.state import GameState as DarkState
from app.rules.registry import get_variant
from tests.rules.kriegspiel_helpers import KS
from tests.rules.kriegspiel_helpers import position as ks_position
from tests.rules.palindromic_helpers import moves, new_game, play, reason
from tests.rules.side_view_helpers import SV
from tests.rules.side_view_helpers import position as sv_position

DC = get_variant("dark-chess")
OPEN_KINGSIDE = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"
# Chess960 rows: the king on b1 between its rooks on a1 and g1 (castling O-O-O leaves it on c1, O-O on g1).
KING_ON_B = "rk4r1/pppppppp/8/8/8/8/PPPPPPPP/RK4R1 w GAga - 0 1"
# ... and on g1 beside its rook on h1: O-O leaves the king where it is and puts the rook on f1.
KING_ON_G = "r5kr/pppppppp/8/8/8/8/PPPPPPPP/R5KR w HAha - 0 1"


def dc_position(fen: str, setup: str = "standard") -> DarkState:
    return DarkState(options=DC.parse_options({"setup": setup}), start=fen)


def castled(variant, state, order: str) -> dict:
    """Play ``order`` for White: it must be played as castling; the mover's message."""
    outcome = variant.play(state, "white", order)
    assert outcome.result == "moved", outcome.to
    (told, *_rest) = outcome.to["white"]
    assert outcome.order == told["castle"] in ("O-O", "O-O-O")
    return told


@pytest.mark.parametrize(("name", "make"), [("side-view", sv_position), ("kriegspiel", ks_position),
                                            ("dark-chess", dc_position)])
@pytest.mark.parametrize(("order", "castle", "king", "rook"), [("e1-h1", "O-O", "g1", "f1"),
                                                               ("e1-a1", "O-O-O", "c1", "d1")])
def test_orders_by_email_the_king_onto_its_own_rook_castles_on_that_side(name, make, order, castle, king, rook):
    variant = get_variant(name)
    state = make(OPEN_KINGSIDE)
    told = castled(variant, state, order)
    assert (told["castle"], told["to"]) == (castle, king)
    assert variant.position(state)["board"].split("/")[-1] == ("2KR3R" if castle == "O-O-O" else "R4RK1")


@pytest.mark.parametrize(("name", "make"), [("side-view", sv_position), ("kriegspiel", ks_position),
                                            ("dark-chess", dc_position)])
@pytest.mark.parametrize(("fen", "order", "castle", "board"), [
    (KING_ON_B, "b1-a1", "O-O-O", "2KR2R1"),  # the king steps right, onto c1
    (KING_ON_B, "b1-g1", "O-O", "R4RK1"),  # onto the rook's square, which is also the king's destination
    (KING_ON_G, "g1-h1", "O-O", "R4RK1"),  # the king stays on g1: only the rook moves
    (KING_ON_G, "g1-a1", "O-O-O", "2KR3R"),
])
def test_orders_by_email_chess960_castles_written_as_the_king_onto_its_rook(name, make, fen, order, castle, board):
    variant = get_variant(name)
    state = make(fen, setup="chess960")
    assert castled(variant, state, order)["castle"] == castle
    assert variant.position(state)["board"].split("/")[-1] == board


def test_ks2_e1_h1_is_castling_where_castling_is_legal_not_illegal():
    """Answering "illegal" to e1-h1 while O-O is legal would be false information in Kriegspiel (KS-2)."""
    state = ks_position(OPEN_KINGSIDE)
    assert "O-O" in KS.legal_orders(state)
    told = castled(KS, state, "e1-h1")
    assert told == {"kind": "moved", "color": "white", "from": "e1", "to": "g1", "piece": "K", "promotion": None,
                    "castle": "O-O", "en_passant": False}


def test_ks2_the_king_onto_its_rook_where_castling_is_not_legal_is_illegal_as_o_o_would_be():
    state = ks_position("r3k2r/pppppppp/8/8/8/5n2/PPPPP1PP/R3K2R w KQkq - 0 1")  # the knight on f3 checks e1
    for order in ("e1-h1", "O-O"):
        outcome = KS.play(state, "white", order)
        assert (outcome.result, outcome.to) == ("rejected", {"white": [{"kind": "rejected", "reason": "illegal"}],
                                                             "black": []}), order


def test_sv3_the_king_onto_its_rook_after_the_rook_has_moved_is_illegal_as_o_o_is():
    state = sv_position("r3k2r/ppppppp1/8/8/8/8/PPPPPPP1/R3K2R w KQkq - 0 1")
    for order in ("h1-h2", "h8-h7", "h2-h1", "h7-h8"):
        assert SV.play(state, SV.orderer(state), order).result == "moved"
    for order in ("e1-h1", "O-O"):
        assert SV.play(state, "white", order).to["white"] == [{"kind": "rejected", "reason": "illegal"}]


def test_dc1_the_king_onto_its_rook_castles_through_attacked_squares_and_is_refused_as_castling():
    """DC-1: attacks do not matter; a lost right or a man in the way is the castling's own refusal (DC-2)."""
    state = dc_position("r3k2r/pppppppp/8/8/8/5n2/PPPPP1PP/R3K2R w KQkq - 0 1")
    assert castled(DC, state, "e1-h1")["castle"] == "O-O"
    state = dc_position("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/RN2K2R w KQkq - 0 1")
    assert DC.play(state, "white", "e1-a1").to["white"] == [
        {"kind": "rejected", "reason": "O-O-O needs the squares your king and that rook cross or land on to be empty"}]
    assert DC.play(state, "white", "O-O-O").to["white"] == DC.play(state, "white", "e1-a1").to["white"]


def test_pal3_the_king_onto_its_rook_is_castling_even_once_the_right_is_lost():
    """Read as O-O, it is refused as O-O is, not as a move onto one's own rook."""
    state = new_game()
    moves(state, "Nf3", "Nf6", "g3", "g6", "Bg2", "Bg7", "Rg1", "Rg8", "Rh1", "Rh8")
    lost = "O-O is no longer possible: your king or the rook on that side has moved"
    assert reason(play(state, "white", "e1-h1"), "white") == reason(play(state, "white", "O-O"), "white") == lost


def test_pal3_the_king_onto_its_rook_castles_where_o_o_does():
    state = new_game()
    moves(state, "Nf3", "Nf6", "g3", "g6", "Bg2", "Bg7")
    outcome = play(state, "white", "e1-h1")
    assert (outcome.result, outcome.order) == ("moved", "O-O")


@pytest.mark.parametrize("name", ["side-view", "kriegspiel", "dark-chess"])
def test_orders_by_email_a_king_onto_its_rook_off_the_back_rank_is_no_castling(name):
    """Only a rook on the king's own back rank makes castling: a king on e2 stepping onto its rook on f3 is a
    plain move onto its own man, refused."""
    variant = get_variant(name)
    state = variant.new_game({}, random.Random(0))
    for order in ("e2-e4", "e7-e5", "e1-e2", "e8-e7", "h2-h4", "h7-h5", "h1-h3", "h8-h6", "h3-f3", "h6-f6"):
        assert variant.play(state, variant.orderer(state), order).result == "moved", order
    outcome = variant.play(state, "white", "e2-f3")
    assert outcome.result == "rejected" and "O-O" not in str(outcome.to)
