"""Orders as players write them (the rules, "Orders by email"), read once for every variant by the shared
reading (app/rules/reading.py), each variant's own notation still its own: a piece letter in front of a
coordinate move, checked against the player's own piece only; ``x`` and ``e.p.``; ``I resign.``; and a
line with a square in it that fits no form is an error that names the line."""

import pytest

from app.rules.registry import discover, get_variant
from app.rules.scenario import set_up

VARIANTS = sorted(discover())  # every variant the registry serves


def game(name, *orders):
    """A game of ``name`` from the standard start (518 for both where there is a setup), with ``orders``
    played, each by the player to order; each must be a move."""
    variant = get_variant(name)
    state = set_up({"variant": name, "options": {}}).state
    for order in orders:
        assert variant.play(state, variant.orderer(state), order).result == "moved", order
    return variant, state


def told(outcome, side):
    return outcome.to[side][0] if outcome.to[side] else {}


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("line", ["I resign.", "i resign", "Resign!", "resign."])
def test_orders_by_email_i_resign_is_read_in_every_variant(name, line):
    variant, state = game(name)
    assert variant.is_order(line) and variant.order_kind(line) == "order"
    outcome = variant.play(state, "white", line)
    assert outcome.result == "resigned" and variant.result(state) == ("0-1", "resigned")


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("line", ["Ke2", "Qd8-d5", "Nc6>D", "e5xd6 e.p.", "I resign.", "Nf3", "move the e2 pawn"])
def test_orders_by_email_a_line_with_a_square_or_a_command_is_an_order_never_chatter(name, line):
    assert get_variant(name).is_order(line)


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("line", ["it was 0-0 at half time", "thanks, good game", "see you at 8"])
def test_orders_by_email_chatter_stays_chatter(name, line):
    assert not get_variant(name).is_order(line)


@pytest.mark.parametrize("name", VARIANTS)
def test_orders_by_email_anything_else_with_a_square_is_an_error_that_names_the_line(name):
    variant, state = game(name)
    outcome = variant.play(state, "white", "move the e2 pawn please")
    assert outcome.result == "error"
    assert told(outcome, "white")["reason"].startswith("could not read 'move the e2 pawn please' as an order")


def test_sv_3_ke2_is_an_error_that_names_the_line_and_the_missing_square():
    """Side View reads coordinate moves only (SV-3): a piece and one square is a move missing a square."""
    variant, state = game("side-view", "e2-e4", "e7-e5")
    outcome = variant.play(state, "white", "Ke2")
    assert outcome.result == "error"
    assert "could not read 'Ke2' as an order: a move names two squares" in told(outcome, "white")["reason"]
    assert "names only e2" in told(outcome, "white")["reason"] and outcome.to["black"] == []


def test_sv_3_a_piece_letter_in_front_of_a_coordinate_move_is_read_when_it_names_the_piece_there():
    variant, state = game("side-view", "e2-e4", "e7-e5")
    outcome = variant.play(state, "white", "Ke1-e2")
    assert outcome.result == "moved" and told(outcome, "white")["piece"] == "K"
    outcome = variant.play(state, "black", "Qd8-g5")
    assert outcome.result == "moved" and outcome.order == "d8-g5"


def test_sv_3_a_piece_letter_that_does_not_name_the_players_own_piece_is_refused_saying_so():
    """Judged from the player's own pieces alone, so the reason tells nothing they cannot see (SV-4)."""
    variant, state = game("side-view", "e2-e4", "e7-e5")
    outcome = variant.play(state, "white", "Nd1-h5")
    assert outcome.result == "rejected" and outcome.to["black"] == []
    assert told(outcome, "white")["reason"] == "the order names your knight on d1, but your piece there is a queen"
    outcome = variant.play(state, "white", "Qe5-e6")  # a black pawn stands on e5: to White, no piece of theirs
    assert told(outcome, "white")["reason"] == "the order names your queen on e5, but you have no piece there"


def test_sv_5_x_and_e_p_are_read_on_an_en_passant_capture():
    variant, state = game("side-view", "e2-e4", "a7-a6", "e4-e5", "d7-d5")
    outcome = variant.play(state, "white", "e5xd6 e.p.")
    assert outcome.result == "moved" and told(outcome, "white")["en_passant"] is True
    assert outcome.order == "e5-d6"


def test_pal_6_a_piece_letter_in_front_of_a_coordinate_move_and_en_passant_refused_with_its_reason():
    variant, state = game("palindromic", "e2-e4", "a7-a6", "e4-e5", "d7-d5")
    outcome = variant.play(state, "white", "e5xd6 e.p.")
    assert outcome.result == "rejected" and "en passant" in told(outcome, "white")["reason"]  # PAL-3, read
    assert variant.play(state, "white", "Qg1-f3").to["white"][0]["reason"] == \
        "the order names your queen on g1, but your piece there is a knight"
    assert variant.play(state, "white", "Ng1-f3").result == "moved"


def test_qa4_8_nc6_onto_d_names_one_square_an_error_that_names_the_line():
    variant, state = game("quasi-alice-4d", "A:e2-e4>B")
    outcome = variant.play(state, "black", "Nc6>D")
    assert outcome.result == "error"
    reason = told(outcome, "black")["reason"]
    assert reason.startswith("could not read 'Nc6>D' as an order") and "names only c6" in reason


def test_qa4_8_a_piece_letter_after_the_board_and_before_the_move():
    variant, state = game("quasi-alice-4d")
    assert variant.play(state, "white", "A:Ng1-f3>B").result == "moved"
    assert variant.play(state, "black", "Nb8-c6>C").result == "moved"  # the board left out: the only one
    outcome = variant.play(state, "white", "Qb1-c3>D")
    assert told(outcome, "white")["reason"] == "the order names your queen on b1, but your piece there is a knight"


def test_lg_orders_a_piece_letter_after_the_world_is_checked_against_the_players_own_pieces():
    """Looking-Glass: the world prefix is its own notation (``R``), then the piece letter; own pieces are known
    exactly in both worlds (LG-10), so naming a piece the player knows is not there is refused, not a strike."""
    variant, state = game("looking-glass")
    assert variant.play(state, "white", "R Ng1-f3").result == "moved"
    assert variant.play(state, "black", "M:Pe7-e5").result == "moved"
    outcome = variant.play(state, "white", "Qd4-d5")  # no piece of White's on d4 in either world
    assert outcome.result == "rejected" and variant.strikes(state) == {"white": 0, "black": 0}
    assert told(outcome, "white")["reason"] == "the order names your queen on d4, but you have no piece there"
    assert variant.play(state, "white", "d4-d5").result == "strike"  # without a letter: LG-5a, as before
