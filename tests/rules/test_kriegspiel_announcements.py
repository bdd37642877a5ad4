"""Kriegspiel announcements (KS-3): what the mover and the opponent are told after every move.

Captures as pawn or piece and the square; check by direction as seen from the checked king, from both colours'
kings, double check; the pawn tries of the side to move, pinned pawns and en passant included.
"""

import chess
import pytest

from app.rules.kriegspiel.announcements import DIRECTIONS, diagonal_lengths, direction, pawn_tries
from tests.rules.kriegspiel_helpers import KS, kinds, play_all, position

MESSAGE_KEYS = {
    "opponent-moved": {"kind", "color"},
    "captured": {"kind", "color", "man", "square"},
    "check": {"kind", "color", "directions"},
    "pawn-tries": {"kind", "color", "count"},
}


def announced(outcome, kind):
    """The messages of one kind, the same to both players (KS-3 tells both)."""
    white = [message for message in outcome.to["white"] if message["kind"] == kind]
    black = [message for message in outcome.to["black"] if message["kind"] == kind]
    assert white == black
    return white


# --------------------------------------------------------------------------- the move itself


def test_ks3_the_mover_hears_the_move_and_the_opponent_only_that_a_move_was_made():
    state = KS.new_game({})
    [outcome] = play_all(state, "g1-f3")
    assert outcome.to["white"][0] == {"kind": "moved", "color": "white", "from": "g1", "to": "f3", "piece": "N",
                                      "promotion": None, "castle": None, "en_passant": False}
    assert outcome.to["black"] == [{"kind": "opponent-moved", "color": "white"},
                                   {"kind": "pawn-tries", "color": "black", "count": 0}]
    assert outcome.to["white"][1:] == outcome.to["black"][1:]


# --------------------------------------------------------------------------- captures


def test_ks3_a_capture_is_told_to_both_as_pawn_or_piece_and_the_square_and_nothing_more():
    state = KS.new_game({})
    play_all(state, "e2-e4", "d7-d5")
    [pawn] = play_all(state, "e4-d5")
    assert announced(pawn, "captured") == [{"kind": "captured", "color": "black", "man": "pawn", "square": "d5"}]
    [queen] = play_all(state, "d8-d5")
    assert announced(queen, "captured") == [{"kind": "captured", "color": "white", "man": "pawn", "square": "d5"}]
    play_all(state, "b1-c3")
    [second_pawn] = play_all(state, "d5-g2")
    assert announced(second_pawn, "captured") == [{"kind": "captured", "color": "white", "man": "pawn",
                                                   "square": "g2"}]
    [knight] = play_all(state, "c3-b5")
    [taken] = play_all(state, "g2-h1")
    assert announced(taken, "captured") == [{"kind": "captured", "color": "white", "man": "piece", "square": "h1"}]
    assert "R" not in str(taken.to)  # the capturer is not told it was a rook
    assert KS.view(state, "white")["lost"] == "PPR" and KS.view(state, "black")["taken"] == {"pawns": 2, "pieces": 1}
    assert KS.view(state, "black")["lost"] == "p" and KS.view(state, "white")["taken"] == {"pawns": 1, "pieces": 0}
    assert knight.to["white"][0]["piece"] == "N" and announced(knight, "captured") == []


def test_ks3_en_passant_names_the_square_where_the_taken_pawn_stood():
    state = KS.new_game({})
    play_all(state, "e2-e4", "a7-a6", "e4-e5", "d7-d5")
    [outcome] = play_all(state, "e5-d6")
    assert outcome.to["white"][0]["en_passant"] is True and outcome.to["white"][0]["to"] == "d6"
    assert announced(outcome, "captured") == [{"kind": "captured", "color": "black", "man": "pawn", "square": "d5"}]
    assert outcome.to["black"][0] == {"kind": "opponent-moved", "color": "white"}


# --------------------------------------------------------------------------- check directions


def count_on_line(square: chess.Square, files: int, ranks: int) -> int:
    """Squares on the whole line through ``square`` going (files, ranks) both ways, walked on the board."""
    count = 1
    for sign in (1, -1):
        file, rank = chess.square_file(square), chess.square_rank(square)
        while 0 <= file + sign * files < 8 and 0 <= rank + sign * ranks < 8:
            file, rank = file + sign * files, rank + sign * ranks
            count += 1
    return count


@pytest.mark.parametrize("square", chess.SQUARES, ids=chess.SQUARE_NAMES)
def test_ks3_every_square_has_one_diagonal_longer_than_the_other_and_that_one_is_the_long_diagonal(square):
    rising, falling = count_on_line(square, 1, 1), count_on_line(square, 1, -1)
    assert rising != falling  # so "the longer of the two" is never in doubt on an 8x8 board
    assert diagonal_lengths(square) == (rising, falling)
    long_way, short_way = ((1, 1), (1, -1)) if rising > falling else ((1, -1), (1, 1))
    for (files, ranks), name in ((long_way, "long-diagonal"), (short_way, "short-diagonal")):
        for sign in (1, -1):
            file, rank = chess.square_file(square) + sign * files, chess.square_rank(square) + sign * ranks
            if 0 <= file < 8 and 0 <= rank < 8:
                assert direction(square, chess.square(file, rank)) == name


CHECKS = [  # (position, move, checked side, directions)
    ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1-a8", "black", ["rank"]),
    ("4k3/8/8/8/8/8/8/R5K1 w - - 0 1", "a1-e1", "black", ["file"]),
    ("4k3/8/8/8/8/8/8/4KB2 w - - 0 1", "f1-b5", "black", ["long-diagonal"]),  # e8: a4-e8 has 5 squares
    ("4k3/8/8/8/8/8/4B3/4K3 w - - 0 1", "e2-h5", "black", ["short-diagonal"]),  # e8-h5 has 4
    ("4k3/8/3P4/8/8/8/8/4K3 w - - 0 1", "d6-d7", "black", ["long-diagonal"]),  # a pawn's check
    ("4k3/8/8/8/4N3/8/8/4K3 w - - 0 1", "e4-f6", "black", ["knight"]),
    ("4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1", "e4-f6", "black", ["file", "knight"]),  # double check
    ("r3k3/8/8/8/8/8/8/4K3 b - - 0 1", "a8-a1", "white", ["rank"]),
    ("r6k/8/8/8/8/8/8/4K3 b - - 0 1", "a8-e8", "white", ["file"]),
    ("4kb2/8/8/8/8/8/8/4K3 b - - 0 1", "f8-b4", "white", ["long-diagonal"]),  # e1: a5-e1 has 5 squares
    ("4k3/4b3/8/8/8/8/8/4K3 b - - 0 1", "e7-h4", "white", ["short-diagonal"]),  # e1-h4 has 4
    ("4k3/8/8/8/8/5p2/8/4K3 b - - 0 1", "f3-f2", "white", ["short-diagonal"]),  # a pawn's check
    ("4k3/8/8/4n3/8/8/8/4K3 b - - 0 1", "e5-d3", "white", ["knight"]),
    ("4k3/8/8/8/8/8/8/r1b1K3 b - - 0 1", "c1-d2", "white", ["rank", "long-diagonal"]),  # the bishop uncovers a1
    ("7k/8/8/8/8/8/1K6/8 b - - 0 1", "h8-h7", None, []),
    ("7k/8/8/8/8/8/K7/8 w - - 0 1", "a2-b2", None, []),
    ("8/8/8/2k5/8/8/8/K7 b - - 0 1", "c5-c4", None, []),
]


@pytest.mark.parametrize(("fen", "move", "checked", "directions"), CHECKS)
def test_ks3_check_is_told_to_both_by_its_direction_from_the_checked_king(fen, move, checked, directions):
    state = position(fen)
    [outcome] = play_all(state, move)
    expected = [{"kind": "check", "color": checked, "directions": directions}] if checked else []
    assert announced(outcome, "check") == expected
    assert all(name in DIRECTIONS for name in directions)


def test_ks3_a_discovered_double_check_to_a_king_in_the_corner():
    # The knight leaves d5: the queen on h1 checks along a8-h1 (8 squares, the long diagonal of a8), the knight
    # from b6.
    state = position("k7/8/8/3N4/8/8/8/1K5Q w - - 0 1")
    [outcome] = play_all(state, "d5-b6")
    assert announced(outcome, "check") == [{"kind": "check", "color": "black",
                                            "directions": ["long-diagonal", "knight"]}]


# --------------------------------------------------------------------------- pawn tries


def test_ks3_pawn_tries_are_zero_before_whites_first_move_and_told_to_both_after_every_move():
    state = KS.new_game({})
    assert KS.public(state)["pawn_tries"] == {"color": "white", "count": 0}
    [first] = play_all(state, "e2-e4")
    assert announced(first, "pawn-tries") == [{"kind": "pawn-tries", "color": "black", "count": 0}]
    [second] = play_all(state, "d7-d5")
    assert announced(second, "pawn-tries") == [{"kind": "pawn-tries", "color": "white", "count": 1}]
    assert KS.public(state)["pawn_tries"] == {"color": "white", "count": 1}
    play_all(state, "b1-c3")
    assert KS.public(state)["pawn_tries"] == {"color": "black", "count": 1}  # d5xe4


@pytest.mark.parametrize(("fen", "tries"), [
    ("4k3/8/8/8/8/3p1p2/4P3/4K3 w - - 0 1", 2),
    ("4r1k1/8/8/8/8/3p1p2/4P3/4K3 w - - 0 1", 0),  # the e2 pawn is pinned on the e-file
    ("4k3/8/8/8/8/2b5/3P4/4K3 w - - 0 1", 1),  # pinned on a diagonal, it may take its pinner: a legal capture
    ("4k3/8/8/8/1b6/4p3/3P4/4K3 w - - 0 1", 0),  # pinned on the b4-e1 diagonal, it may not take on e3
    ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", 1),  # en passant
    ("4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 1", 0),  # en passant would uncover the rook on the fifth rank
    ("r1r1k3/1P6/8/8/8/8/8/4K3 w - - 0 1", 2),  # a capture onto the last rank counts once
    ("4k3/8/8/8/8/3n4/3PP3/4K3 w - - 0 1", 1),  # in check: only the pawn capture that ends it
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0),
    ("4k3/8/8/2Pp4/8/8/8/4K3 b - c6 0 1", 0),  # Black to move: only Black's pawns count
])
def test_ks3_pawn_tries_count_the_legal_pawn_captures_of_the_side_to_move(fen, tries):
    assert pawn_tries(chess.Board(fen)) == tries


def test_ks3_pawn_tries_after_a_double_step_include_en_passant_and_leave_out_a_pinned_pawn():
    state = position("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1")
    [outcome] = play_all(state, "d7-d5")
    assert announced(outcome, "pawn-tries")[0]["count"] == 1
    state = position("4k3/3p4/8/K3P2r/8/8/8/8 b - - 0 1")
    [outcome] = play_all(state, "d7-d5")
    assert announced(outcome, "pawn-tries")[0]["count"] == 0


def test_ks3_messages_to_the_opponent_have_only_the_announced_keys():
    state = KS.new_game({})
    for outcome in play_all(state, "e2-e4", "d7-d5", "e4-d5", "d8-d5", "b1-c3", "d5-e5", "f1-e2", "e5-e2"):
        mover = outcome.to["white"][0]["color"] if outcome.to["white"][0]["kind"] == "moved" else "black"
        opponent = "black" if mover == "white" else "white"
        for message in outcome.to[opponent]:
            assert set(message) == MESSAGE_KEYS[message["kind"]]
    assert kinds(outcome.to["white"]) == ["opponent-moved", "captured", "check", "pawn-tries"]
    assert outcome.to["white"][2]["directions"] == ["file"]
