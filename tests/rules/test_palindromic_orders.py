"""Palindromic Chess orders by email (PAL-6, "Orders by email"), common commands and storage."""

import json

import pytest

from app.rules.base import OptionError, OrderError
from tests.rules.palindromic_helpers import PAL, moves, new_game, one_knight_away, play, reason


@pytest.mark.parametrize("text", ["e2e4", "e2-e4", "e2 e4", "E2-E4", "e2\u2013e4", "e4", "e4!", "E4"])
def test_PAL_6_coordinate_and_san_orders_for_one_move(text):
    outcome = play(new_game(), "white", text)
    assert (outcome.result, outcome.order) == ("moved", "e2-e4")
    assert outcome.to["white"][0]["san"] == "e4"


@pytest.mark.parametrize("text", ["Nf3", "nf3", "Ng1f3", "Ng1-f3", "Nf3!?", "g1-f3", "g1f3"])
def test_PAL_6_knight_orders_in_every_form(text):
    outcome = play(new_game(), "white", text)
    assert (outcome.result, outcome.order) == ("moved", "g1-f3")


def test_PAL_6_a_leading_b_is_a_pawn_or_a_bishop_as_the_position_says():
    state = new_game()
    moves(state, "b3", "b6")
    assert play(state, "white", "bb2").order == "c1-b2"  # no b-pawn goes to b2: the bishop
    assert play(state, "black", "Bb7").order == "c8-b7"
    assert play(state, "white", "b4").order == "b3-b4"


@pytest.mark.parametrize("text", ["O-O", "0-0", "o-o", "O-O+"])
def test_PAL_6_castling_orders(text):
    state = new_game()
    moves(state, "Nf3", "Nf6", "g3", "g6", "Bg2", "Bg7")
    assert play(state, "white", text).order == "O-O"


def test_PAL_6_unreadable_lines_are_errors_that_say_what_is_accepted():
    for text in ("e2-e9", "hello e4", "castle please e1", "Nf3 and then e4"):
        outcome = play(new_game(), "white", text)
        assert outcome.result == "error" and outcome.to["black"] == []
        assert "Accepted forms: e2-e4, e2e4 or e2 e4" in reason(outcome, "white"), text
        with pytest.raises(OrderError):
            PAL.order_kind(text)


def test_PAL_6_orders_are_told_apart_from_chatter():
    orders = ["e4", "Nf3", "Bxe5", "nf3", "O-O", "0-0-0", "e2-e4", "resign", "offer draw", "I will play e4", "Rh2"]
    chatter = ["Good game!", "Be right back", "I castled early in my last game", "Oh no", "ok", "Ka-boom",
               "score 0-0 at half time", "Queen to the centre", "Bye, see you at 8", "Na, not today",
               "draw your own conclusions? no", ""]
    assert [text for text in orders if not PAL.is_order(text)] == []
    assert [text for text in chatter if PAL.is_order(text)] == ["draw your own conclusions? no"]
    assert [PAL.order_kind(text) for text in ("e4", "Nf3", "O-O-O", "resign", "offer draw", "accept draw")] == [
        "move", "move", "move", "order", "order", "order"]


def test_PAL_6_common_commands_resign_and_draw_offers():
    state = new_game()
    offered = play(state, "white", "offer draw")
    assert offered.result == "offered" and offered.to["black"] == [{"kind": "draw-offered", "color": "white"}]
    assert play(state, "white", "e4").result == "moved"  # a move does not withdraw one's own offer
    drawn = play(state, "black", "accept draw")
    assert drawn.result == "drawn"
    assert drawn.to["white"][-1] == {"kind": "end", "result": "1/2-1/2", "reason": "agreement"}
    state = new_game()
    play(state, "black", "offer draw")
    moves(state, "e4")  # White's move answers Black's offer
    assert reason(play(state, "white", "accept draw"), "white") == "there is no draw offer from your opponent to answer"
    resigned = play(state, "white", "resign")  # at any time, even out of turn
    assert resigned.result == "resigned" and PAL.result(state) == ("0-1", "resigned")
    assert PAL.orderer(state) is None


def test_PAL_forfeit_on_time():
    state = new_game()
    outcome = PAL.forfeit(state, "black", "time")
    assert outcome.to["white"][0] == {"kind": "timeout", "color": "black"}
    assert PAL.result(state) == ("1-0", "time")


def test_PAL_state_round_trips_through_json_with_hands_history_and_a_pass_due():
    state = new_game()
    moves(state, "Nf3", "Nf6", "g3", "g6", "Bg2", "Bg7", "O-O", "e5", "Nh4", "Ng8", "Nf3", "Nf6")
    data = json.loads(json.dumps(PAL.to_json(state)))
    again = PAL.from_json(data)
    assert PAL.to_json(again) == data
    assert again.left == state.left and again.history == state.history and len(state.history) == 5
    assert PAL.view(again, "white") == PAL.view(state, "white")
    waiting = one_knight_away()
    play(waiting, "white", "Nh6")
    data = json.loads(json.dumps(PAL.to_json(waiting)))
    assert data["pass_due"] == "black"
    restored = PAL.from_json(data)
    assert PAL.automatic(restored)[1].to["white"] == [{"kind": "passed", "color": "black"}]


def test_PAL_start_option_is_checked():
    for bad in ({"board": "8/8/8/8/8/8/8/8"}, {"board": "k7/8/8/8/8/8/8/K6R", "handed": {}},
                {"board": "k7/8/8/8/8/8/8/K7", "to_move": "red"}, {"board": "k7/8/8/8/8/8/8/K7", "colour": "x"},
                "not json", {"board": "k7/8/8/8/8/8/8/K7", "handed": {"a1": "left"}}):
        with pytest.raises(OptionError):
            PAL.new_game({"start": bad})
    with pytest.raises(OptionError):
        PAL.new_game({"strikes": 3})
    with pytest.raises(OptionError):  # already decided: White, to move, is stalemated
        PAL.new_game({"start": {"board": "k7/8/8/8/8/8/nb6/Kn6", "handed": {}}})
    state = PAL.new_game({"start": json.dumps({"board": "k7/8/8/8/8/8/8/K6R", "handed": {"h1": "left"}})})
    assert PAL.view(state, "white")["destinations"]["h1"] == ["a8"]


def test_PAL_4_a_pass_still_owed_is_made_and_told_before_the_next_order():
    """Callers ask ``automatic`` after each order; one that does not still gets the pass, told first."""
    state = one_knight_away()
    play(state, "white", "Nf6")
    outcome = play(state, "white", "Ng8")
    assert [message["kind"] for message in outcome.to["black"]] == ["passed", "moved", "end"]
    assert PAL.result(state) == ("1-0", "reversal")


def test_PAL_6_move_numbers_as_games_are_written_are_read_past():
    state = new_game()
    assert play(state, "white", "1. e4").order == "e2-e4"
    assert play(state, "black", "1... Nf6").order == "g8-f6"
    assert play(state, "white", "2.Bb5").order == "f1-b5"


def test_PAL_6_a_promotion_suffix_short_of_the_last_rank_is_an_error():
    for text in ("e2-e4=Q", "e4=Q"):
        outcome = play(new_game(), "white", text)
        assert outcome.result == "error"
        assert reason(outcome, "white") == "a promotion suffix belongs only on a move to the last rank, not to e4"
