"""Looking-Glass perft (``referee perft``): the moves LG-11's stalemate check counts, made as the referee
makes them. Counts are checked against figures worked out by hand or by python-chess, and against the referee
itself: the generic walk that plays each order's text through ``play``."""

import copy
import random

import chess
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules.base import Variant
from app.rules.looking_glass import LookingGlass
from app.rules.looking_glass.perft import after, legal_moves, order_text
from app.rules.looking_glass.random_orders import random_order
from tests.rules.positions import LG, play, position, started

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class PlayedLookingGlass(LookingGlass):
    """Counts by the base class's generic walk: each order's text played through the referee, at every depth."""

    perft = Variant.perft


PLAYED = PlayedLookingGlass()


def nodes(state, depth, variant=LG):
    return sum(variant.perft(state, depth).values())


def moves_by_order(state):
    return {order_text(move): move for move in legal_moves(state)}


def fide_count(worlds: dict[str, chess.BaseBoard], turn: chess.Color, depth: int) -> int:
    """Looking-Glass perft by another route: python-chess's own pseudo-legal generator in each world (FIDE
    movement without check, LG-3), then the portal (LG-6) and a king capture ending the game (LG-11), written
    out here from the rules. It knows no castling and no en passant, so it serves only where neither can
    arise: the first three moves from the standard setup (castling needs f1 and g1 or b1, c1, d1 emptied by
    two White moves first; a pawn that could take en passant would have to stand on rank 5 of M or 4 of R)."""
    if depth == 0:
        return 1
    total = 0
    for world, other in (("R", "M"), ("M", "R")):
        fide = chess.Board(None)
        fide.set_piece_map(worlds[world].piece_map())
        fide.turn = turn
        for move in fide.generate_pseudo_legal_moves():
            child = {name: board.copy() for name, board in worlds.items()}
            piece = child[world].remove_piece_at(move.from_square)
            captured = child[world].remove_piece_at(move.to_square)
            child[world].set_piece_at(move.to_square, chess.Piece(move.promotion, turn) if move.promotion else piece)
            if child[other].piece_at(move.to_square) is None:
                child[other].set_piece_at(move.to_square, child[world].remove_piece_at(move.to_square))
            if captured is not None and captured.piece_type == chess.KING:
                total += depth == 1
            else:
                total += fide_count(child, not turn, depth - 1)
    return total


# --------------------------------------------------------------------------- the standard setup


def test_lg_3_perft_1_from_the_standard_setup_is_whites_20_fide_moves_in_the_real_world():
    """White's army stands in R and the Mirror world holds only Black's: White's moves are FIDE's twenty
    (sixteen pawn moves, four knight moves), all in R. LG-3 has no check, but nothing is attacked yet."""
    divide = LG.perft(started(), 1)
    board = chess.Board()
    assert divide == {f"R:{move.uci()[:2]}-{move.uci()[2:]}": 1 for move in board.legal_moves}
    assert len(divide) == 20


def test_lg_6_perft_2_from_the_standard_setup_is_400():
    """Every first White move ends on rank 3 or 4 of R, whose squares in M are empty: the piece passes its
    portal (LG-6) and stands in M, two ranks or more from Black's army there, which reaches only ranks 5 and 6
    with its first move. So each of White's 20 moves leaves Black all of its 20 FIDE moves, and only those:
    400, as in chess, for another reason."""
    divide = LG.perft(started(), 2)
    assert set(divide.values()) == {20}
    assert sum(divide.values()) == 400


def test_lg_3_perft_3_from_the_standard_setup_agrees_with_python_chess_in_each_world():
    state = started()
    assert nodes(state, 3) == fide_count(state.worlds, chess.WHITE, 3) == 9918


def test_lg_6_perft_after_e4_d5_counts_whites_moves_in_both_worlds_by_hand():
    """1. R:e2-e4 (the pawn passes to M:e4) d7-d5 (it passes to R:d5). White has, in R: seven pawns with two
    steps each (14), the knights b1-a3, b1-c3, g1-f3, g1-h3, g1-e2 (5), the bishop f1-e2..a6 (5), the queen
    d1-e2..h5 (4), the king e1-e2 (1); in M the pawn e4-e5 (1), nothing to capture on d5 or f5. The black
    pawn made a full double step in M, but no white pawn there attacks d6 (LG-8)."""
    state = started()
    play(state, "white", "R e2-e4")
    play(state, "black", "M d7-d5")
    divide = LG.perft(state, 1)
    assert len(divide) == 30
    assert {"M:e4-e5", "R:g1-e2", "R:f1-a6", "R:d1-h5", "R:e1-e2"} <= set(divide)
    assert not {"M:e4-d5", "M:e4-f5", "M:e4-d6"} & set(divide)


# --------------------------------------------------------------------------- castling, en passant, promotion


def test_lg_7_castling_counts_once_where_its_squares_are_empty():
    """R: king e1, rooks a1 and h1, a knight on b1; all unmoved. King d1, d2, e2, f2, f1 (5); rook a1 up the
    file (7); knight a3, c3, d2 (3); rook h1 up the file, g1, f1 (9); O-O (1). O-O-O needs b1 empty: 25."""
    state = castling_position()
    divide = LG.perft(state, 1)
    assert len(divide) == 25 and "O-O" in divide and "O-O-O" not in divide
    assert divide == {order: 1 for order in LG.legal_orders(state)}
    castled = after(state, moves_by_order(state)["O-O"])
    assert castled.worlds["M"].piece_at(chess.G1) == chess.Piece(chess.KING, chess.WHITE)  # LG-6 for each piece
    assert castled.worlds["M"].piece_at(chess.F1) == chess.Piece(chess.ROOK, chess.WHITE)
    assert castled.castling["white"] == []


def test_lg_8_en_passant_is_a_move_and_takes_the_pawn_in_the_other_world():
    """R:e2-e4 passes to M:e4. Black then has, in R, the pawn d4-d3 and d4xe3 en passant (2), and in M the
    king h1-g1, g2, h2 (3): 5. After the en passant White has only the king a1: a2, b1, b2 (3). After any other
    Black move White has those 3 and the pawn M:e4-e5 (4): 3 + 4 * 4 = 19 at depth 2."""
    state = en_passant_position()
    divide = LG.perft(state, 2)
    assert divide == {"R:d4-d3": 4, "R:d4-e3": 3, "M:h1-g1": 4, "M:h1-g2": 4, "M:h1-h2": 4}
    taken = after(state, moves_by_order(state)["R:d4-e3"])
    assert taken.worlds["M"].piece_at(chess.E4) is None and taken.worlds["M"].piece_at(chess.E3).symbol() == "p"


def test_lg_3_each_promotion_is_its_own_move_and_k_only_under_extinction():
    """A pawn on R:a7 steps to a8 or takes the rook on b8, each as Q, R, B or N (8), and the king a1 has 3: 11.
    Under win=extinction a king may be chosen too (LG-11): 13."""
    setup = ("1r6/P7/8/8/8/8/8/K7", "8/8/8/8/8/8/8/7k")
    divide = LG.perft(position(*setup), 1)
    assert len(divide) == 11
    assert {f"R:a7-{to}={kind}" for to in ("a8", "b8") for kind in "QRBN"} <= set(divide)
    extinction = LG.perft(position(*setup, win="extinction"), 1)
    assert len(extinction) == 13 and {"R:a7-a8=K", "R:a7-b8=K"} <= set(extinction)


def test_lg_5_a_position_waiting_for_a_proxy_order_counts_the_armys_own_moves():
    """Under impossible=forfeit White's impossible order lets Black order one move for White's army; perft
    ignores proxy orders and counts White's moves: king a1-a2, b1, b2, pawn M:d4-d5 and d4xe5 (5)."""
    state = position("8/8/8/8/8/8/8/K7", "8/8/8/4n3/3P4/8/8/7k", impossible="forfeit")
    before = LG.perft(state, 2)
    assert play(state, "white", "M d4-d6").result == "forfeit-order"
    assert LG.orderer(state) == "black" and LG.army_to_move(state) == "white"
    assert LG.perft(state, 2) == before
    assert set(before) == {"R:a1-a2", "R:a1-b1", "R:a1-b2", "M:d4-d5", "M:d4-e5"}


# --------------------------------------------------------------------------- the end of the game on the board


def test_lg_11_a_king_capture_ends_the_game_so_nothing_follows_it():
    """White: king R:a1 (3 moves), rook M:a1 up the file (7) and along rank 1 to e1, taking the king (4).
    Black's king on M:e1 then has 5 moves after each of White's 13 other moves, none after the capture."""
    state = position("8/8/8/8/8/8/8/K7", "8/8/8/8/8/8/8/R3k3")
    divide = LG.perft(state, 2)
    assert len(divide) == 14
    assert divide.pop("M:a1-e1") == 0
    assert set(divide.values()) == {5}
    assert LG.legal_orders(after(state, moves_by_order(state)["M:a1-e1"])) == []


def test_lg_11_stalemate_and_a_decided_game_have_no_moves():
    """White's king steps a1-a2 (stays in R: M:a2 is White's own pawn), a1-b1 (passes to M:b1) or a1-b2
    (passes to M:b2). Black's only pawn, on M:a3, is blocked by M:a2: stalemate, unless the king stands on
    M:b2, which the pawn then takes, ending the game."""
    state = position("8/8/8/8/8/8/8/K7", "8/8/8/8/8/p7/P7/8")
    assert LG.perft(state, 2) == {"R:a1-a2": 0, "R:a1-b1": 0, "R:a1-b2": 1}
    assert LG.perft(state, 3) == {"R:a1-a2": 0, "R:a1-b1": 0, "R:a1-b2": 0}
    play(state, "white", "resign")
    assert LG.legal_orders(state) == [] and LG.perft(state, 1) == {}
    assert LG.legal_orders(LG.new_game({})) == []  # still in setup


# --------------------------------------------------------------------------- the referee itself agrees


def castling_position():
    return position("8/8/8/8/8/8/8/RN2K2R", "8/8/8/8/8/8/8/7k", castling={"white": ["e1", "a1", "h1"], "black": []})


def en_passant_position():
    state = position("8/8/8/8/3p4/8/4P3/K7", "8/8/8/8/8/8/8/7k")
    play(state, "white", "R e2-e4")
    return state


def chess960_castling_position():
    """King g1 between rooks b1 and h1: O-O leaves the king where it stands (LG-7)."""
    return position("8/8/8/8/8/8/8/1R4KR", "8/8/8/8/8/8/8/7k", castling={"white": ["b1", "g1", "h1"], "black": []})


POSITIONS = {
    "castling": castling_position,
    "chess960 castling": chess960_castling_position,
    "en passant": en_passant_position,
    "promotion": lambda: position("1r6/P7/8/8/8/8/8/K7", "8/8/8/8/8/8/8/7k"),
    "promotion to a king": lambda: position("1r6/P7/8/8/8/8/8/KQRBN3", "8/8/8/8/8/8/p7/qrbnk3", win="extinction"),
    "king capture": lambda: position("8/8/8/8/8/8/8/K7", "8/8/8/8/8/8/8/R3k3"),
    "stalemate": lambda: position("8/8/8/8/8/8/8/K7", "8/8/8/8/8/p7/P7/8"),
}


def random_position(seed: int, plies: int, **options) -> object:
    rng = random.Random(seed)
    state = started(str(rng.randrange(960)), str(rng.randrange(960)), strikes=99, **options)
    for _ in range(plies):
        side = LG.orderer(state)
        if side is None:
            break
        play(state, side, random_order(state, side, rng))
    return state


def assert_each_move_plays_in_full_to_the_counted_position(state) -> None:
    """Each counted order, played through the referee by the player to move, is a move (LG-4 accepts it at
    home; elsewhere LG-5c makes it in full, never a strike or a shortened move) and reaches the very position
    the count made it to."""
    for order, move in moves_by_order(state).items():
        played = copy.deepcopy(state)
        outcome = play(played, state.to_move, order)
        assert outcome.result == "moved", (order, outcome.to)
        assert not any(message.get("shortened") for message in outcome.to[state.to_move]), order
        made = after(state, move)
        assert LG.position(played) == LG.position(made), order
        assert (played.phase, played.to_move, played.castling, played.ep, played.result) == (
            made.phase, made.to_move, made.castling, made.ep, made.result,
        ), order


@pytest.mark.parametrize("name", POSITIONS)
def test_lg_5c_each_counted_move_plays_in_full_to_the_counted_position(name):
    assert_each_move_plays_in_full_to_the_counted_position(POSITIONS[name]())


@pytest.mark.parametrize("name", POSITIONS)
def test_lg_11_the_fast_count_and_the_generic_walk_through_play_agree(name):
    state = POSITIONS[name]()
    assert LG.perft(state, 2) == PLAYED.perft(state, 2)


def test_lg_11_the_fast_count_and_the_generic_walk_agree_to_depth_3_from_the_standard_setup():
    assert LG.perft(started(), 3) == PLAYED.perft(started(), 3)


@SETTINGS
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 120), extinction=st.booleans())
def test_lg_5c_in_random_games_each_counted_move_plays_in_full_to_the_counted_position(seed, plies, extinction):
    state = random_position(seed, plies, win="extinction" if extinction else "king")
    assert_each_move_plays_in_full_to_the_counted_position(state)


@SETTINGS
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 120), extinction=st.booleans())
def test_lg_11_in_random_games_the_fast_count_and_the_generic_walk_through_play_agree(seed, plies, extinction):
    state = random_position(seed, plies, win="extinction" if extinction else "king")
    assert LG.perft(state, 2) == PLAYED.perft(state, 2)
