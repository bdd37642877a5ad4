"""LG-2: each player's private back-rank arrangement."""

import random

import pytest

from app.rules.backrank import check_row, index_of_row, read_setup, row_from_index
from app.rules.base import SetupError
from tests.rules.positions import LG, kinds, play


def test_lg_2_chess960_index_uses_standard_numbering():
    assert row_from_index(518) == "RNBQKBNR"
    assert row_from_index(0) == "BBQNNRKR"
    assert row_from_index(959) == "RKRNNQBB"
    assert all(index_of_row(row_from_index(n)) == n for n in range(0, 960, 37))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("RNBQKBN", "exactly 8 letters"),
        ("RNBQKBNX", "unknown piece letter"),
        ("RNBQKBNN", "exactly the pieces"),
        ("BRBQKNNR", "opposite colour"),
        ("KRBQRBNN", "between the two rooks"),
        ("960", "0 to 959"),
        ("", "8 letters"),
    ],
)
def test_lg_2_invalid_setups_name_the_broken_constraint(text, words):
    with pytest.raises(SetupError, match=words):
        read_setup(text)


def test_lg_2_letters_are_read_a_to_h_for_both_colours_not_mirrored():
    state = LG.new_game({})
    play(state, "white", "setup BBQNNRKR")
    play(state, "black", "setup 0")
    position = LG.position(state)
    assert position["R"] == "8/8/8/8/8/8/PPPPPPPP/BBQNNRKR"
    assert position["M"] == "bbqnnrkr/pppppppp/8/8/8/8/8/8"
    assert state.castling == {"white": ["f1", "g1", "h1"], "black": ["f8", "g8", "h8"]}


def test_lg_2_random_setup_is_valid_and_reproducible_with_a_seed():
    first = read_setup("random", random.Random(7))
    assert first == read_setup("random", random.Random(7))
    assert read_setup(first) == first


def test_lg_2_neither_player_is_told_the_other_arrangement():
    state = LG.new_game({})
    outcome = play(state, "white", "setup RBBQKNNR")
    assert outcome.to["white"][0]["row"] == "RBBQKNNR"
    assert outcome.to["black"] == [{"kind": "setup-done", "color": "white"}]
    outcome = play(state, "black", "setup random")
    assert "row" not in str(outcome.to["white"])
    assert kinds(outcome.to["white"]) == ["setup-done", "start"]
    assert LG.view(state, "white")["notebook"] == "8/8/8/8/8/8/8/8"


def test_lg_2_play_starts_only_when_both_arrangements_are_in():
    state = LG.new_game({})
    play(state, "white", "setup 518")
    outcome = play(state, "white", "R e2-e4")
    assert outcome.result == "rejected"
    assert "setup" in outcome.to["white"][0]["reason"]
    assert play(state, "white", "setup 519").result == "rejected"  # already in
    play(state, "black", "setup 518")
    assert LG.orderer(state) == "white"  # White moves first
    assert play(state, "black", "setup 518").result == "rejected"


def test_lg_2_a_bad_setup_costs_nothing_and_can_be_sent_again():
    """It was read, so it is not accepted (rather than unreadable): the rule it breaks and a row that would do."""
    state = LG.new_game({})
    outcome = play(state, "white", "setup RRBQKBNN")
    assert outcome.result == "rejected"
    reason = outcome.to["white"][0]["reason"]
    assert reason.startswith("the king must stand between the two rooks; for example ")
    assert check_row(reason.split("for example ")[1].split()[0])  # the example obeys LG-2
    assert outcome.to["black"] == []
    assert play(state, "white", "setup 518").result == "setup"
