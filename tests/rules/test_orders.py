"""Orders by email: what can be read, and how the world of an order is found."""

import chess
import pytest

from app.rules.base import OrderError
from app.rules.looking_glass.orders import Castle, Command, Move, Setup, mentions_order, read_order
from app.rules.palindromic.orders import read_order as PAL_READ
from app.rules.quasi_alice.orders import read_order as QA_READ
from app.rules.registry import get_variant
from app.rules.side_view.orders import read_order as SV_READ
from tests.rules.positions import kinds, play, position, started

E2, E4, D7, D8 = (chess.parse_square(name) for name in ("e2", "e4", "d7", "d8"))


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("R e2-e4", Move(E2, E4, world="R")),
        ("r:e2-e4", Move(E2, E4, world="R")),
        ("M:e2-e4", Move(E2, E4, world="M")),
        ("real e2 e4", Move(E2, E4, world="R")),
        ("REAL E2E4", Move(E2, E4, world="R")),
        ("mirror d7-d8=N", Move(D7, D8, chess.KNIGHT, world="M")),
        ("m d7d8q", Move(D7, D8, chess.QUEEN, world="M")),
        ("e2\u2013e4", Move(E2, E4)),
        ("e2\u2014e4", Move(E2, E4)),
        ("O-O", Castle(False)),
        ("0-0", Castle(False)),
        ("o-o-o", Castle(True)),
        ("0-0-0", Castle(True)),
        ("ask", Command("ask")),
        ("Resign", Command("resign")),
        ("offer draw", Command("offer-draw")),
        ("accept draw", Command("accept-draw")),
        ("decline  draw", Command("decline-draw")),
        ("setup rnbqkbnr", Setup("RNBQKBNR")),
        ("setup 518", Setup("518")),
        ("setup random", Setup("random")),
    ],
)
def test_orders_accepted_forms(text, order):
    assert read_order(text) == order


@pytest.mark.parametrize("text", ["e2-e9", "R e2", "move my knight", "z e2-e4", "O-O-O-O", "setup"])
def test_orders_unreadable_lines_say_what_is_accepted(text):
    with pytest.raises(OrderError, match=r"R e2-e4|setup"):
        read_order(text)


@pytest.mark.parametrize(
    ("line", "meant"),
    [("Good luck!", False), ("", False), ("thanks, nice game", False), ("I think e4 is strong", True),
     ("resign", True), ("ask", True), ("O-O", True), ("0-0", True), ("12:30 tomorrow", False)],
)
def test_orders_chatter_is_told_apart_from_order_lines(line, meant):
    assert mentions_order(line) is meant


def test_orders_syntax_error_costs_nothing():
    state = started()
    outcome = play(state, "white", "R e2-e9")
    assert outcome.result == "error"
    assert outcome.to["black"] == []
    assert state.strikes == {"white": 0, "black": 0}
    assert state.to_move == "white"


def test_orders_world_inferred_from_the_only_world_with_your_piece():
    state = position("8/8/8/8/8/8/4P3/4K3", "8/8/8/8/8/8/8/8")
    outcome = play(state, "white", "e2-e4")
    assert outcome.result == "moved"
    assert outcome.to["white"][0]["world"] == "R"


def test_orders_world_must_be_named_when_you_have_pieces_on_it_in_both():
    state = position("8/8/8/8/8/8/4P3/8", "8/8/8/8/8/8/4R3/8")
    outcome = play(state, "white", "e2-e3")
    assert outcome.result == "error"
    assert "both worlds" in outcome.to["white"][0]["reason"]


def test_orders_world_with_no_piece_of_yours_means_the_other_world():
    state = position("8/8/8/8/8/8/8/4K3", "8/8/8/8/8/8/8/8")
    outcome = play(state, "white", "d4-d5")
    assert outcome.result == "strike"  # LG-5a.1 applies, as had White named M
    assert outcome.to["black"][0]["order"] == "M:d4-d5"


def test_orders_promotion_suffix_off_the_last_rank_is_an_error():
    state = started()
    outcome = play(state, "white", "R e2-e4=Q")
    assert outcome.result == "error"
    assert "last rank" in outcome.to["white"][0]["reason"]


def test_orders_promotion_to_king_only_with_extinction():
    state = position("8/P7/8/8/8/8/8/K7", "k7/8/8/8/8/8/8/8")
    assert play(state, "white", "R a7-a8=K").result == "error"
    state = position("8/P7/8/8/8/8/8/K7", "k7/8/8/8/8/8/8/8", win="extinction")
    assert play(state, "white", "R a7-a8=K").result == "moved"


def test_orders_suffix_on_a_non_pawn_in_the_other_world_is_ignored():
    state = position("8/8/8/8/8/8/8/K7", "8/R7/8/8/8/8/8/8")
    outcome = play(state, "white", "M a7-a8=N")
    assert outcome.result == "moved"
    assert outcome.to["white"][0]["piece"] == "R"
    assert outcome.to["white"][0]["promotion"] is None


def test_orders_out_of_turn_rejected_and_ask_allowed_any_time():
    state = started()
    outcome = play(state, "black", "M e7-e5")
    assert outcome.result == "rejected"
    assert "not your turn" in outcome.to["black"][0]["reason"]
    assert play(state, "black", "ask").result == "answered"


def test_orders_after_the_end_are_rejected():
    state = started()
    play(state, "white", "resign")
    for text in ("M e7-e5", "ask", "resign"):
        outcome = play(state, "black", text)
        assert outcome.result == "rejected"
        assert "over" in outcome.to["black"][0]["reason"]
    assert kinds(outcome.to["white"]) == []


@pytest.mark.parametrize(("read", "line", "why"), [
    (read_order, "M g8-f66", "f66 is not a square (files run a to h, ranks 1 to 8)"),
    (read_order, "R e4", "a move names two squares, the one it leaves and the one it goes to, and this names only e4"),
    (QA_READ, "A:e2-e9>B", "e9 is not a square"),
    (QA_READ, "e4", "and this names only e4"),
    (SV_READ, "Nf9", "f9 is not a square"),
    (SV_READ, "e2-d9", "d9 is not a square"),
    (SV_READ, "e4", "and this names only e4"),
    (PAL_READ, "Bz4", "z4 is not a square"),
])
def test_orders_by_email_an_unreadable_line_says_what_could_not_be_read(read, line, why):
    """Orders by email: "the reply says what could not be read" -- the square that is none, the missing square."""
    with pytest.raises(OrderError) as error:
        read(line)
    assert error.value.reason.startswith(f"could not read {line!r} as an order: ") and why in error.value.reason


def test_orders_by_email_one_square_is_a_whole_move_where_piece_letters_are_read():
    """Palindromic reads SAN, where one square is a whole move (``e4``): no 'only one square' there."""
    assert PAL_READ("e4") is not None
    with pytest.raises(OrderError) as error:
        PAL_READ("go e4 now")
    assert "names only" not in error.value.reason


@pytest.mark.parametrize(("name", "line", "written"), [
    ("looking-glass", "real e2 e4", "R:e2-e4"), ("looking-glass", "M d7 d8 n", "M:d7-d8=N"),
    ("side-view", "e2e4", "e2-e4"), ("side-view", "0-0-0", "O-O-O"),
    ("quasi-alice-4d", "a e2 e4 > b", "A:e2-e4>B"),
    ("palindromic", "nf3", "Nf3"), ("palindromic", "e7e8q", "e7-e8=Q"),
    ("looking-glass", "hello  there", "hello there"),
])
def test_orders_by_email_an_order_is_written_back_in_the_referees_own_spelling(name, line, written):
    """Orders by email: a notice that echoes an order it did not play writes it as the records do."""
    assert get_variant(name).written(line) == written
