"""4D Quasi-Alice orders and what players are told (QA4-8, QA4-9, "Orders by email")."""

import pytest

from app.rules.base import OrderError
from tests.rules.qa4_positions import EMPTY, QA, moved, play, qa_position, why

# --------------------------------------------------------------------------- QA4-8: forms


@pytest.mark.parametrize(
    "text",
    ["A:e2-e4>B", "A e2-e4 > B", "a:e2e4>b", "A:e2\u2013e4>B", "A:e2\u2014e4>B", "a e2 e4 >b", "Ae2-e4>B", "e2-e4>B"],
)
def test_QA4_8_move_forms_are_read_alike_and_written_canonically(text):
    state = QA.new_game({})
    outcome = play(state, "white", text)
    assert outcome.result == "moved"
    assert outcome.order == "A:e2-e4>B"
    assert QA.position(state)["B"] == "8/8/8/8/4P3/8/8/8"


@pytest.mark.parametrize("text", ["A:O-O>C", "a:o-o>c", "O-O>C", "0-0>C", "A 0-0 > c"])
def test_QA4_8_castling_forms(text):
    state = qa_position(A="r3k2r/8/8/8/8/8/8/R3K2R", castling="KQkq")
    outcome = play(state, "white", text)
    assert (outcome.result, outcome.order) == ("moved", "A:O-O>C")


def test_QA4_8_castling_is_ordered_as_castling_not_as_a_king_move():
    state = qa_position(A="r3k2r/8/8/8/8/8/8/R3K2R", castling="KQkq")
    assert why(state, "white", "A:e1-g1>B") == "a king cannot move from e1 to g1 (castling is written O-O or O-O-O)"


def test_QA4_8_long_castling_is_written_O_O_O():
    state = qa_position(A="r3k2r/8/8/8/8/8/8/R3K2R", castling="KQkq")
    assert moved(state, "white", "0-0-0>D").order == "A:O-O-O>D"
    assert QA.position(state)["D"] == "8/8/8/8/8/8/8/2KR4"


def test_QA4_8_promotion_names_its_piece_and_without_a_letter_is_a_queen():
    board = "4k3/P7/8/8/8/8/8/4K3"
    assert moved(qa_position(A=board), "white", "A:a7-a8=N>B").order == "A:a7-a8=N>B"
    state = qa_position(A=board)
    outcome = moved(state, "white", "A:a7-a8>C")
    assert outcome.order == "A:a7-a8=Q>C"
    assert outcome.to["black"][0]["promotion"] == "Q"
    assert QA.position(state)["C"] == "Q7/8/8/8/8/8/8/8"


def test_QA4_8_each_promotion_piece_and_destination_is_a_move_of_its_own():
    orders = QA.legal_orders(qa_position(A="4k3/P7/8/8/8/8/8/4K3"))
    promotions = sorted(order for order in orders if order.startswith("A:a7-a8"))
    assert promotions == sorted(f"A:a7-a8={piece}>{board}" for piece in "QRBN" for board in "BCD")


def test_QA4_8_a_promotion_suffix_off_the_last_rank_is_an_error():
    state = QA.new_game({})
    outcome = play(state, "white", "A:e2-e4=Q>B")
    assert outcome.result == "error"
    assert outcome.to["white"][0]["reason"] == "a promotion suffix belongs only on a move to the last rank, not to e4"


def test_QA4_8_the_board_may_be_left_out_when_one_board_has_your_piece_there():
    state = qa_position(A="4k3/8/8/8/8/8/8/4K3", C="8/8/8/8/8/8/8/1N6")
    assert moved(state, "white", "b1-c3>A").order == "C:b1-c3>A"


def test_QA4_8_a_piece_on_the_square_on_two_boards_needs_the_board_named():
    state = qa_position(A="4k3/8/8/8/8/8/8/1N2K3", C="8/8/8/8/8/8/8/1N6")
    outcome = play(state, "white", "b1-c3>B")
    assert outcome.result == "error"
    assert outcome.to["white"] == [{
        "kind": "error", "reason": "you have pieces on b1 on A and C: name the board, as in A:b1-c3>B or C:b1-c3>B",
    }]
    assert outcome.to["black"] == []


def test_QA4_8_no_piece_of_yours_on_the_square_on_any_board_is_rejected():
    state = QA.new_game({})
    assert why(state, "white", "e3-e4>B") == "there is no piece of yours on e3 on any board"
    assert why(state, "white", "e7-e5>B") == "there is no piece of yours on e7 on any board"
    assert why(state, "white", "B:e2-e4>C") == "there is no piece of yours on B:e2"


def test_QA4_8_the_destination_may_be_left_out_when_the_move_is_legal_onto_one_board():
    state = qa_position(A="4k3/8/8/8/8/8/8/4K3", C="8/8/8/8/8/8/8/1N6")
    assert moved(state, "white", "C:b1-a3").order == "C:b1-a3>A"


def test_QA4_8_legal_onto_several_boards_the_destination_must_be_named():
    state = QA.new_game({})
    outcome = play(state, "white", "e2-e4")
    assert outcome.result == "error"
    assert outcome.to["white"][0]["reason"] == (
        "A:e2-e4 is legal onto B, C and D: add the destination board, as in A:e2-e4>B"
    )
    assert QA.position(state)["A"].endswith("PPPPPPPP/RNBQKBNR")  # nothing was played


def test_QA4_8_an_unreadable_line_is_an_error_showing_the_accepted_forms():
    state = QA.new_game({})
    outcome = play(state, "white", "A:e2-e9>B")
    assert outcome.result == "error"
    assert outcome.to["white"][0]["reason"].startswith(
        "could not read 'A:e2-e9>B' as an order: e9 is not a square (files run a to h, ranks 1 to 8). Accepted forms: ")
    assert "A:e2-e4>B" in outcome.to["white"][0]["reason"]


def test_QA4_8_illegal_orders_are_rejected_with_the_reason_to_the_orderer_alone():
    state = QA.new_game({})
    outcome = play(state, "white", "A:g1-g3>B")
    assert outcome.result == "rejected"
    assert outcome.to == {"white": [{"kind": "rejected", "reason": "a knight cannot move from g1 to g3"}], "black": []}
    assert why(state, "white", "A:f1-c4>B") == "the bishop's way to c4 is blocked on A:e2"
    assert why(state, "white", "A:e1-e3>B") == "a king cannot move from e1 to e3"
    assert why(state, "white", "A:e2-e5>B") == "a pawn cannot move from e2 to e5"
    assert why(state, "white", "A:d1-d2>B") == "A:d2 holds one of your own pieces"


def test_QA4_8_lines_with_no_square_or_command_are_chatter():
    assert not QA.is_order("thanks, good game")
    assert not QA.is_order("")
    for text in ("A:e2-e4>B", "e2e4", "O-O>C", "A:O-O>C", "resign", "offer draw", "ae2e4"):
        assert QA.is_order(text), text


def test_QA4_8_order_kind_moves_and_other_orders():
    assert QA.order_kind("A:e2-e4>B") == "move"
    assert QA.order_kind("a o-o-o > d") == "move"
    assert QA.order_kind("resign") == "order"
    assert QA.order_kind("accept draw") == "order"
    with pytest.raises(OrderError):
        QA.order_kind("A:e2-e4>E")


def test_QA4_8_an_order_out_of_turn_or_after_the_end_is_rejected():
    state = QA.new_game({})
    assert why(state, "black", "A:e7-e5>B") == "it is not your turn: White is to move"
    QA.play(state, "white", "resign")
    assert why(state, "black", "A:e7-e5>B") == "the game is over (0-1, resigned)"


# --------------------------------------------------------------------------- QA4-9: what both are told


def test_QA4_9_a_move_is_told_to_both_in_full():
    state = QA.new_game({})
    outcome = moved(state, "white", "A:e2-e4>B")
    expected = {
        "kind": "moved", "board": "A", "from": "e2", "to": "e4", "piece": "P", "color": "white", "captured": None,
        "onto": "B", "landed_on": None, "castle": None, "promotion": None, "en_passant": False, "order": "A:e2-e4>B",
    }
    assert outcome.to == {"white": [expected], "black": [expected]}


def test_QA4_9_a_capture_names_the_piece_and_the_square_on_the_board_where_it_moved():
    state = qa_position(A="4k3/8/8/3p4/4P3/8/8/4K3")
    outcome = moved(state, "white", "A:e4-d5>C")
    assert outcome.to["black"][0]["captured"] == {"piece": "P", "color": "black", "square": "A:d5"}
    assert outcome.to["black"][0]["onto"] == "C"


def test_QA4_9_check_is_told_to_both_with_the_board():
    state = qa_position(A="4k3/8/8/8/8/8/8/4K3", C="8/8/8/8/8/8/8/R7")
    outcome = moved(state, "white", "C:a1-a8>A")
    assert outcome.to["white"][1] == outcome.to["black"][1] == {"kind": "check", "color": "black", "board": "A"}
    assert QA.view(state, "black")["check"] == {"color": "black", "board": "A"}


def test_QA4_9_the_view_is_the_same_for_both_and_shows_all_four_boards():
    state = QA.new_game({})
    moved(state, "white", "A:g1-f3>D")
    white, black = QA.view(state, "white"), QA.view(state, "black")
    assert white == black
    assert white["boards"] == {
        "A": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKB1R", "B": EMPTY, "C": EMPTY, "D": "8/8/8/8/8/5N2/8/8",
    }
    assert white["to_move"] == "black" and white["last_move"] == "A:g1-f3>D" and white["castling"] == "KQkq"
    assert QA.position(state) == white["boards"]


def test_QA4_9_resign_and_draw_offers_are_the_common_commands():
    state = QA.new_game({})
    offer = play(state, "white", "offer draw")
    assert offer.result == "offered" and offer.to["black"] == [{"kind": "draw-offered", "color": "white"}]
    accepted = play(state, "black", "accept draw")
    assert accepted.result == "drawn"
    assert accepted.to["white"][-1] == {"kind": "end", "result": "1/2-1/2", "reason": "agreement"}
    resigning = QA.new_game({})
    assert play(resigning, "black", "resign").result == "resigned"  # at any time, not only on one's move
    assert QA.result(resigning) == ("1-0", "resigned")


def test_QA4_9_a_move_answers_the_opponents_draw_offer():
    state = QA.new_game({})
    play(state, "black", "offer draw")
    moved(state, "white", "A:e2-e4>B")
    assert play(state, "white", "accept draw").result == "rejected"


def test_QA4_9_forfeit_on_time():
    state = QA.new_game({})
    outcome = QA.forfeit(state, "white", "time")
    assert outcome.to["black"][-1] == {"kind": "end", "result": "0-1", "reason": "time"}
    assert QA.result(state) == ("0-1", "time") and QA.orderer(state) is None


def test_QA4_9_example_orders_are_legal_moves_worked_out_from_the_view():
    state = qa_position(A="r3k2r/8/8/8/8/8/8/R3K2R", castling="KQkq")
    view = QA.view(state, "white")
    examples = QA.example_orders(view, "white")
    assert 2 <= len(examples) <= 3
    assert set(examples) <= set(QA.legal_orders(state))
    assert QA.example_orders(view, "black") == []  # not Black's move


def test_QA4_8_a_promotion_to_a_king_or_a_pawn_is_read_and_refused_with_its_own_reason():
    """``=K`` is an order a player may well write: it is refused with why, not met with a guess at another
    letter."""
    state = qa_position(A="4k3/8/8/8/8/8/8/4K3", C="8/2P5/8/8/8/8/8/8")
    outcome = play(state, "white", "C:c7-c8=K>D")
    assert outcome.result == "rejected"
    assert outcome.to["white"] == [{"kind": "rejected", "reason": "a pawn cannot promote to a king: only to a "
                                                                  "queen, rook, bishop or knight"}]
    assert why(state, "white", "C:c7-c8=P>D").startswith("a pawn cannot promote to a pawn")
    assert why(state, "white", "A:e1-e2=K>B") == "a promotion suffix belongs only on a move to the last rank, not to e2"


def test_QA4_2_an_order_no_queen_can_make_says_the_queen_cannot_move_that_way():
    """The way a piece moves is told before what stands on the square: an own piece on f7 is not why a queen
    cannot go d8-f7."""
    state = qa_position(A="3qk3/5p2/8/8/8/8/8/4K3", to_move="black")
    assert why(state, "black", "A:d8-f7>B") == "a queen cannot move from d8 to f7"
    assert why(state, "black", "A:e8-f7>B") == "A:f7 holds one of your own pieces"
    pawns = qa_position(A="4k3/8/8/8/8/3P4/3PP3/4K3")
    assert why(pawns, "white", "A:d2-d3>B") == "A:d3 holds one of your own pieces"
    assert why(pawns, "white", "A:e2-d3>B") == "A:d3 holds one of your own pieces"


def test_QA4_2_and_QA4_6_a_king_refused_for_check_is_told_the_square_and_board_it_would_stand_on():
    after_transfer = qa_position(A="4k3/8/8/8/8/8/8/4K3", B="3r4/8/8/8/8/8/8/8")
    assert why(after_transfer, "white", "A:e1-d1>B") == "your king on B:d1 would be in check from the rook on B:d8"
    on_its_board = qa_position(A="3rk3/8/8/8/8/8/8/4K3")
    assert why(on_its_board, "white", "A:e1-d2>B") == (
        "your king may not move onto A:d2, which the rook on A:d8 attacks (a king's move is judged on the board "
        "it is played on)")
