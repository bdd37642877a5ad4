"""Kriegspiel as a player reads it (KS-1 .. KS-5): the announcements in plain words, the board of one's own men,
the order forms with examples from one's own view, and the whole board at the end."""

import random

import chess
import pytest

from app.present.base import Standing
from app.present.diagram import squares_of
from app.present.registry import presenter_for
from app.present.words import Names
from tests.rules.kriegspiel_helpers import KS, play_all, position, random_game

PRESENTER = presenter_for("kriegspiel")
WHITE = Names("white", "Alice", "Bob")
BLACK = Names("black", "Alice", "Bob")


def standing(state) -> Standing:
    return Standing(KS.move_number(state), KS.orderer(state), KS.orderer(state), KS.public(state), {})


def test_ks3_a_move_and_its_announcements_read_as_one_line():
    messages = [
        {"kind": "opponent-moved", "color": "black"},
        {"kind": "captured", "color": "white", "man": "piece", "square": "e4"},
        {"kind": "check", "color": "white", "directions": ["long-diagonal"]},
        {"kind": "pawn-tries", "color": "white", "count": 1},
    ]
    assert PRESENTER.lines(messages, WHITE) == [
        "Bob moved. A piece of yours was captured on e4. You are in check on the long diagonal. You have 1 pawn try."]


@pytest.mark.parametrize(("message", "names", "words"), [
    ({"kind": "moved", "color": "white", "from": "e2", "to": "e4", "piece": "P", "promotion": None, "castle": None,
      "en_passant": False}, WHITE, "You moved your pawn e2-e4."),
    ({"kind": "moved", "color": "white", "from": "e5", "to": "d6", "piece": "P", "promotion": None, "castle": None,
      "en_passant": True}, WHITE, "You moved your pawn e5-d6, taking en passant."),
    ({"kind": "moved", "color": "black", "from": "b2", "to": "a1", "piece": "P", "promotion": "N", "castle": None,
      "en_passant": False}, BLACK, "You moved your pawn b2-a1, promoting it to a knight."),
    ({"kind": "moved", "color": "white", "from": "e1", "to": "g1", "piece": "K", "promotion": None, "castle": "O-O",
      "en_passant": False}, WHITE, "You castled O-O: your king went to g1."),
    ({"kind": "captured", "color": "black", "man": "pawn", "square": "d5"}, WHITE, "You captured a pawn on d5."),
    ({"kind": "captured", "color": "black", "man": "pawn", "square": "d5"}, BLACK,
     "A pawn of yours was captured on d5."),
    ({"kind": "check", "color": "black", "directions": ["file", "knight"]}, BLACK,
     "You are in check twice: on the file and by a knight."),
    ({"kind": "check", "color": "black", "directions": ["short-diagonal"]}, WHITE,
     "Bob is in check on the short diagonal."),
    ({"kind": "check", "color": "white", "directions": ["rank"]}, WHITE, "You are in check on the rank."),
    ({"kind": "pawn-tries", "color": "black", "count": 0}, WHITE, "Bob has no pawn tries."),
    ({"kind": "pawn-tries", "color": "black", "count": 3}, BLACK, "You have 3 pawn tries."),
    ({"kind": "rejected", "reason": "illegal"}, WHITE, "Illegal: that move cannot be played."),
    ({"kind": "end", "result": "1/2-1/2", "reason": "insufficient material"}, WHITE,
     "The game is over: Draw (neither side has the men left to checkmate)."),
])
def test_ks3_each_message_in_plain_words(message, names, words):
    assert PRESENTER.describe(message, names) == words


def test_ks3_the_first_request_explains_the_game_and_says_the_pawn_tries_are_none():
    state = KS.new_game({})
    lines = PRESENTER.status(KS.view(state, "white"), "white", WHITE, standing(state))
    assert lines[0].startswith("New to Kriegspiel? You see only your own pieces")
    assert lines[1] == "Pawn tries: you have none."


def test_ks3_after_the_first_move_the_pawn_tries_are_told_once_with_the_move_not_again_in_the_status():
    state = KS.new_game({})
    *_, last = play_all(state, "e2-e4", "d7-d5")
    assert PRESENTER.status(KS.view(state, "white"), "white", WHITE, standing(state)) == []
    assert PRESENTER.lines(last.to["white"], WHITE) == ["Bob moved. You have 1 pawn try."]


def test_ks1_the_figure_is_ones_own_men_with_what_was_lost_and_taken_and_the_capture_marked():
    state = KS.new_game({})
    *_, last = play_all(state, "e2-e4", "d7-d5", "e4-d5")
    figure = PRESENTER.figure(KS.view(state, "black"), "black", BLACK, {}, last.to["black"])
    [board] = figure.grids
    pieces = {cell.piece for row in board.rows for cell in row.cells} - {""}
    assert pieces == set("rnbqkp")  # not a white man on it
    assert board.columns[0] == "h" and board.caption == "Your pieces"  # Black looks from the eighth rank
    marked = {cell.mark for row in board.rows for cell in row.cells if cell.mark}
    assert marked == {"seen"}
    assert figure.notes == ("You have lost a pawn; you have taken nothing.",)
    white = PRESENTER.figure(KS.view(state, "white"), "white", WHITE, {}, last.to["white"])
    assert white.notes == ("You have lost nothing; you have taken 1 pawn.",)


def test_ks4_at_the_end_the_figure_and_the_reveal_show_the_whole_board():
    state = KS.new_game({})
    play_all(state, "f2-f3", "e7-e5", "g2-g4", "d8-h4")
    view = KS.view(state, "white")
    [board] = PRESENTER.figure(view, "white", WHITE, {}, []).grids
    assert "game is over" in board.caption and "q" in {cell.piece for row in board.rows for cell in row.cells}
    reveal = PRESENTER.reveal(KS.position(state), {side: KS.view(state, side) for side in ("white", "black")}, WHITE)
    assert reveal.grids[0].caption == "The true position"
    assert reveal.notes == ("Captured: nothing yet.",)
    assert PRESENTER.status(view, "white", WHITE, standing(state)) == []


def test_ks5_the_order_forms_explain_tries_with_moves_of_ones_own_men():
    state = KS.new_game({})
    forms = PRESENTER.order_forms(KS.view(state, "white"), "white", WHITE, standing(state))
    first, second = forms[0], forms[1]
    assert "illegal" in first[1] and "on the next line" in second[1] and "up to 8" in second[1]
    assert {first[0], second[0]} <= set(KS.legal_orders(state))
    assert any(example == "O-O" for example, _meaning in forms)


@pytest.mark.parametrize("seed", range(6))
def test_ks1_examples_are_moves_of_ones_own_men_from_ones_own_view(seed):
    for side, _order, _outcome, state in random_game(seed, 60):
        view = KS.view(state, side)
        own = squares_of(view["own"])
        for example in KS.example_orders(view, side):
            if not example.startswith("O"):
                assert example[:2] in own
        for example in KS.plausible_orders(view, side):
            assert example[:2] in own and example[3:5] not in own


def test_ks2_an_illegal_move_is_told_to_the_orderer_alone_and_the_opponent_hears_nothing():
    state = position("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    outcome = KS.play(state, "white", "e1-e3")
    tidings = PRESENTER.tell(outcome.result, outcome.to["white"], True, outcome.order, WHITE, standing(state))
    assert tidings.lines == ["Your move e1-e3 is illegal. Bob is told nothing of it."]
    assert PRESENTER.tell(outcome.result, outcome.to["black"], False, outcome.order, BLACK, standing(state)) is None


def test_ks1_the_options_and_the_help_in_words():
    assert PRESENTER.option_lines({"setup": "chess960"}) == ["a Chess960 start, the same for both"]
    assert PRESENTER.option_lines({"setup": "standard"}) == ["the standard start"]
    help_text = " ".join(PRESENTER.help())
    assert "up to 8 moves" in help_text and "long or the short diagonal" in help_text


def test_ks3_the_words_of_a_game_never_name_an_enemy_man_the_rules_did_not_show():
    rng = random.Random(3)
    state = KS.new_game({}, rng)
    for _ in range(80):
        side = KS.orderer(state)
        if side is None:
            break
        outcome = KS.play(state, side, KS.random_order(state, side, rng))
        for viewer, names in (("white", WHITE), ("black", BLACK)):
            words = " ".join(PRESENTER.lines(outcome.to[viewer], names))
            for name in chess.PIECE_NAMES[2:6]:  # knight .. queen: the capturer is told only "piece"
                if any(m["kind"] == "captured" and m["color"] != viewer for m in outcome.to[viewer]):
                    assert f"captured a {name}" not in words
