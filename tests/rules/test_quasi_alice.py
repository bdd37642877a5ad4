"""4D Quasi-Alice Chess, rule by rule (QA4-1 .. QA4-7), with the cases its author discusses."""

import pytest

from app.rules.base import OptionError
from app.rules.quasi_alice.movegen import checkers
from app.rules.quasi_alice.position import WHITE
from app.rules.quasi_alice.state import GameState
from tests.rules.qa4_positions import (
    EMPTY,
    QA,
    fast_orders,
    moved,
    onto_boards,
    qa_position,
    slow_orders,
    why,
)

START_A = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"

# --------------------------------------------------------------------------- QA4-1


def test_QA4_1_four_boards_the_standard_position_on_A_and_B_to_D_empty():
    state = QA.new_game({})
    assert QA.position(state) == {"A": START_A, "B": EMPTY, "C": EMPTY, "D": EMPTY}
    assert QA.orderer(state) == "white" and QA.move_number(state) == 1


def test_QA4_1_the_variant_takes_no_options():
    with pytest.raises(OptionError):
        QA.new_game({"strikes": 3})


# --------------------------------------------------------------------------- QA4-2


def test_QA4_2_pieces_on_other_boards_neither_block_nor_are_captured():
    state = qa_position(A="4k3/8/8/8/8/8/8/R3K3", B="8/8/8/8/n7/8/n7/8")
    # Movement on A alone: the knights on B:a2 and B:a4 are not in the rook's way ...
    assert why(state, "white", "A:a1-a4>B") == (
        "B:a4 is occupied: only a king may land on an enemy piece and capture it"
    )
    moved(state, "white", "A:a1-a6>C")
    # ... and nothing on B was taken.
    assert QA.position(state) == {"A": "4k3/8/8/8/8/8/8/4K3", "B": "8/8/8/8/n7/8/n7/8", "C": "8/8/R7/8/8/8/8/8",
                                  "D": EMPTY}


def test_QA4_2_checks_exist_only_between_pieces_on_the_same_board():
    state = qa_position(A="4k3/8/8/8/8/8/8/4K3", B="4r3/8/8/8/8/8/8/8")
    assert QA.view(state, "white")["check"] is None  # the rook on B:e8 does not see A:e1
    # Landing on B:e2 would put the king on the rook's board, in its file.
    assert why(state, "white", "A:e1-e2>B") == "your king on B:e2 would be in check from the rook on B:e8"
    moved(state, "white", "A:e1-e2>C")


def test_QA4_2_a_pinned_piece_may_not_leave_its_king_in_check_on_the_board_where_it_moves():
    state = qa_position(A="4r2k/8/8/8/8/8/4B3/4K3")
    assert why(state, "white", "A:e2-d3>B") == "your king on A:e1 would be in check from the rook on A:e8"
    assert not any(order.startswith("A:e2-") for order in QA.legal_orders(state))


def test_QA4_2_a_king_may_not_move_onto_a_square_attacked_on_its_starting_board_judged_with_the_king_lifted():
    """Seed: a king may not move into check on its board to escape check by then transferring."""
    state = qa_position(A="4k3/8/8/8/8/8/8/r3K3")  # the rook on A:a1 checks along the first rank
    assert QA.view(state, "white")["check"] == {"color": "white", "board": "A"}
    # f1 is attacked only through the king's own square: lifted, the king does not shield it.
    assert why(state, "white", "A:e1-f1>B") == (
        "your king may not move onto A:f1, which the rook on A:a1 attacks (a king's move is judged on "
        "the board it is played on)"
    )
    assert why(state, "white", "A:e1-d1>C") == (
        "your king may not move onto A:d1, which the rook on A:a1 attacks (a king's move is judged on "
        "the board it is played on)"
    )
    # B, C and D are empty: the king would be safe there, but the move is judged on A first.
    assert onto_boards(state, "A:e1-") == {"B", "C", "D"}
    assert {order.split(">")[0] for order in QA.legal_orders(state)} == {"A:e1-d2", "A:e1-e2", "A:e1-f2"}
    moved(state, "white", "A:e1-e2>B")


# --------------------------------------------------------------------------- QA4-3


def test_QA4_3_with_both_kings_on_the_starting_board_any_of_the_other_three_boards():
    state = QA.new_game({})
    orders = QA.legal_orders(state)
    assert len(orders) == 60
    assert onto_boards(state, "A:e2-e4") == onto_boards(state, "A:g1-f3") == {"B", "C", "D"}


def test_QA4_3_otherwise_only_the_other_boards_that_hold_a_king():
    state = qa_position(A="8/8/8/8/8/8/8/R3K3", B="4k3/8/8/8/8/8/8/8", C="8/8/8/8/8/8/8/1N6")
    assert onto_boards(state, "C:b1-") == {"A", "B"}  # no king on C: the boards with a king
    assert onto_boards(state, "A:a1-") == {"B"}  # only White's king on A: Black's king's board
    assert onto_boards(state, "A:e1-") == {"B"}
    assert why(state, "white", "C:b1-c3>D") == (
        "a piece moved on C may only transfer to a board with a king: A or B"
    )


def test_QA4_3_the_piece_must_transfer_to_another_board():
    state = QA.new_game({})
    assert why(state, "white", "A:e2-e4>A") == "a piece moved on A must transfer to another board"


def test_QA4_3_a_move_with_no_empty_landing_square_is_illegal():
    state = qa_position(A="8/8/8/8/4P3/8/8/4K3", B="4k3/8/8/8/4p3/8/8/8", C="8/8/8/8/8/6N1/8/8")
    assert why(state, "white", "C:g3-e4") == "there is no empty e4 on a board with a king"
    assert why(state, "white", "C:g3-e4>B") == (
        "B:e4 is occupied: only a king may land on an enemy piece and capture it"
    )
    assert why(state, "white", "C:g3-e4>A") == (
        "A:e4 holds one of your own pieces, so nothing can land there"
    )
    assert not any(order.startswith("C:g3-e4") for order in QA.legal_orders(state))


def test_QA4_3_a_king_may_capture_twice_in_one_move():
    """Seed: a king may capture an enemy piece on the landing square, so a double capture is possible."""
    state = qa_position(A="7k/8/4K3/3p4/8/8/8/8", B="8/8/8/3n4/8/8/8/8")
    outcome = moved(state, "white", "A:e6-d5>B")
    message = outcome.to["white"][0]
    assert message["captured"] == {"piece": "P", "color": "black", "square": "A:d5"}
    assert message["landed_on"] == {"piece": "N", "color": "black", "square": "B:d5"}
    assert outcome.to["black"][0] == message
    assert QA.position(state)["A"] == "7k/8/8/8/8/8/8/8"
    assert QA.position(state)["B"] == "8/8/8/3K4/8/8/8/8"
    assert state.halfmove_clock == 0


def test_QA4_3_a_king_may_land_on_an_enemy_piece_but_never_on_the_enemy_king():
    state = qa_position(A="8/8/8/8/4K3/8/8/8", B="8/8/8/3k4/8/8/8/8")
    assert why(state, "white", "A:e4-d5>B") == "no piece may land on the enemy king (B:d5)"
    assert "A:e4-d5>B" not in QA.legal_orders(state)
    # The king must go to Black's king's board, and not next to it.
    assert why(state, "white", "A:e4-e5>B") == "your king on B:e5 would be in check from the king on B:d5"
    moved(state, "white", "A:e4-e3>B")


def test_QA4_3_a_king_with_nowhere_to_land():
    state = qa_position(A="8/8/8/8/4K3/8/8/8", B="k7/8/8/8/8/4P3/8/8")
    assert why(state, "white", "A:e4-e3") == (
        "there is no e3 on a board with a king that is empty or holds an enemy piece other than the king"
    )
    assert why(state, "white", "A:e4-e4") == "a king cannot move from e4 to e4"


def test_QA4_3_only_a_king_captures_on_landing():
    state = qa_position(A="4k3/8/8/8/8/8/8/4K1N1", B="8/8/8/8/8/5p2/8/8")
    assert why(state, "white", "A:g1-f3>B") == (
        "B:f3 is occupied: only a king may land on an enemy piece and capture it"
    )
    assert onto_boards(state, "A:g1-f3") == {"C", "D"}


# --------------------------------------------------------------------------- QA4-4


CASTLING_A = "r3k2r/8/8/8/8/8/8/R3K2R"


def test_QA4_4_king_and_rook_castle_on_their_board_then_both_transfer_to_one_destination_board():
    state = qa_position(A=CASTLING_A, castling="KQkq")
    outcome = moved(state, "white", "A:O-O>C")
    assert outcome.order == "A:O-O>C"
    message = outcome.to["white"][0]
    assert (message["piece"], message["from"], message["to"], message["onto"], message["castle"]) == (
        "K", "e1", "g1", "C", "O-O"
    )
    assert message["rook"] == {"from": "h1", "to": "f1"}
    assert QA.position(state)["A"] == "r3k2r/8/8/8/8/8/8/R7"
    assert QA.position(state)["C"] == "8/8/8/8/8/8/8/5RK1"
    assert QA.view(state, "black")["castling"] == "kq"


def test_QA4_4_both_landing_squares_must_be_empty_on_the_destination_board():
    state = qa_position(A=CASTLING_A, B="8/8/8/8/8/8/8/5n2", castling="KQkq")
    assert why(state, "white", "A:O-O>B") == (
        "castling needs B:g1 and B:f1 empty for the king and rook to land"
    )
    assert why(state, "white", "O-O") == (
        "A:O-O is legal onto C and D: add the destination board, as in A:O-O>C"
    )
    assert onto_boards(state, "A:O-O-O") == {"B", "C", "D"}


def test_QA4_4_castling_with_no_board_to_land_on_is_illegal():
    blocked = "8/8/8/8/8/8/8/5n2"
    state = qa_position(A=CASTLING_A, B=blocked, C=blocked, D="8/8/8/8/8/8/8/6n1", castling="KQkq")
    assert why(state, "white", "A:O-O") == "there is no other board where g1 and f1 are both empty"
    assert onto_boards(state, "A:O-O-O") == {"B", "C", "D"}


def test_QA4_4_fide_conditions_not_through_check_judged_on_the_board_where_the_king_castles():
    state = qa_position(A="r3k2r/8/8/8/2b5/8/8/R3K2R", castling="KQkq")
    assert why(state, "white", "A:O-O>B") == (
        "you may not castle through or into check: A:f1 is attacked by the bishop on A:c4"
    )
    assert onto_boards(state, "A:O-O-O") == {"B", "C", "D"}
    # The same bishop on B attacks nothing on A: castling is allowed there.
    elsewhere = qa_position(A=CASTLING_A, B="8/8/8/8/2b5/8/8/8", castling="KQkq")
    assert onto_boards(elsewhere, "A:O-O>") == {"B", "C", "D"}


def test_QA4_4_not_out_of_check_and_not_into_check_on_the_destination_board():
    checked = qa_position(A="r3k2r/8/8/4r3/8/8/8/R3K2R", castling="KQkq")
    assert why(checked, "white", "A:O-O>B") == "you may not castle out of check"
    watched = qa_position(A=CASTLING_A, B="6r1/8/8/8/8/8/8/8", castling="KQkq")
    assert why(watched, "white", "A:O-O>B") == "your king on B:g1 would be in check from the rook on B:g8"
    assert onto_boards(watched, "A:O-O>") == {"C", "D"}


def test_QA4_4_a_king_that_moved_has_lost_its_castling_even_back_on_its_square():
    state = qa_position(A="4k3/8/8/8/8/8/8/4K2R", castling="K")
    moved(state, "white", "A:e1-e2>B")
    assert QA.view(state, "white")["castling"] == "-"
    moved(state, "black", "A:e8-e7>B")
    moved(state, "white", "B:e2-e1>A")  # back on A:e1, the rook never moved
    moved(state, "black", "B:e7-e8>A")
    assert QA.position(state)["A"] == "4k3/8/8/8/8/8/8/4K2R"
    assert why(state, "white", "A:O-O>B") == (
        "you can no longer castle on the king's side: your king or that rook has moved, or the rook was taken"
    )


def test_QA4_4_a_rook_captured_on_its_square_takes_its_castling_with_it():
    state = qa_position(A="4k2r/8/8/8/8/8/8/4K2R", castling="Kk", to_move="black")
    moved(state, "black", "A:h8-h1>B")  # takes the unmoved rook; Black's rook has moved too
    assert QA.view(state, "white")["castling"] == "-"


# --------------------------------------------------------------------------- QA4-5


EP_A = "4k3/8/8/8/8/8/4P3/4K3"


def test_QA4_5_en_passant_on_the_landing_board_the_next_move_only():
    state = qa_position(A=EP_A, B="8/8/8/8/3p4/8/8/8")
    moved(state, "white", "A:e2-e4>B")  # lands on B:e4, beside the black pawn on B:d4
    assert QA.view(state, "black")["en_passant"] == "B:e3"
    outcome = moved(state, "black", "B:d4-e3")  # only board A has a king: the one destination
    message = outcome.to["black"][0]
    assert outcome.order == "B:d4-e3>A"
    assert message["en_passant"] is True
    assert message["captured"] == {"piece": "P", "color": "white", "square": "B:e4"}
    assert QA.position(state) == {"A": "4k3/8/8/8/8/4p3/8/4K3", "B": EMPTY, "C": EMPTY, "D": EMPTY}


def test_QA4_5_en_passant_is_gone_after_another_move():
    state = qa_position(A=EP_A, B="8/8/8/8/3p4/8/8/8")
    moved(state, "white", "A:e2-e4>B")
    moved(state, "black", "A:e8-d8>B")
    moved(state, "white", "A:e1-d1>B")
    assert why(state, "black", "B:d4-e3>A") == (
        "a pawn moves diagonally only to capture, and B:e3 is empty"
    )


def test_QA4_5_only_on_the_board_where_the_pawn_landed():
    state = qa_position(A="4k3/8/8/8/3p4/8/4P3/4K3")
    moved(state, "white", "A:e2-e4>B")  # passed A:e3 but landed on B
    assert why(state, "black", "A:d4-e3>B") == (
        "a pawn moves diagonally only to capture, and A:e3 is empty"
    )


def test_QA4_5_the_capturing_pawn_needs_an_empty_square_to_transfer_to():
    state = qa_position(
        A="4k3/8/8/8/8/4N3/8/4K3", B="8/8/8/8/3pP3/8/8/8", to_move="black", en_passant="B:e3"
    )
    assert why(state, "black", "B:d4-e3") == "there is no empty e3 on a board with a king"
    assert not any(order.startswith("B:d4-e3") for order in QA.legal_orders(state))


def test_QA4_5_with_the_passed_square_occupied_there_it_is_an_ordinary_capture():
    state = qa_position(A="4k3/8/8/8/8/8/8/4K3", B="8/8/8/8/3pP3/4N3/8/8", to_move="black", en_passant="B:e3")
    outcome = moved(state, "black", "B:d4-e3>A")
    assert outcome.to["black"][0]["en_passant"] is False
    assert outcome.to["black"][0]["captured"] == {"piece": "N", "color": "white", "square": "B:e3"}
    assert QA.position(state)["B"] == "8/8/8/8/4P3/8/8/8"


# --------------------------------------------------------------------------- QA4-6


def test_QA4_6_after_the_transfer_the_king_must_not_be_in_check_on_its_board():
    # The rook on B:e2 still shields its king when it stops on e5, but then it leaves the board.
    state = qa_position(A="k7/8/8/8/8/8/8/8", B="4r3/8/8/8/8/8/4R3/4K3")
    assert why(state, "white", "B:e2-e5>A") == "your king on B:e1 would be in check from the rook on B:e8"
    moved(state, "white", "B:e2-e8>A")  # taking the pinner is fine


def test_QA4_6_taking_the_pinner_uncovers_the_piece_behind_it():
    state = qa_position(A="4q2k/8/8/4r3/8/8/4R3/4K3")
    assert why(state, "white", "A:e2-e5>B") == "your king on A:e1 would be in check from the queen on A:e8"


def test_QA4_6_a_piece_may_block_a_check_by_transferring_onto_the_kings_board():
    """Seed: a piece from another board may block a check; the check on the king's board while the
    piece moves elsewhere does not matter."""
    state = qa_position(A="k7/8/8/8/8/8/8/8", B="4r3/8/8/8/8/8/8/4K3", C="8/8/8/8/8/8/5N2/8")
    assert QA.view(state, "white")["check"] == {"color": "white", "board": "B"}
    assert why(state, "white", "C:f2-e4>A") == "your king on B:e1 would be in check from the rook on B:e8"
    assert "C:f2-e4>B" in QA.legal_orders(state)
    outcome = moved(state, "white", "C:f2-e4")  # the only destination that helps
    assert outcome.order == "C:f2-e4>B"
    assert QA.position(state)["B"] == "4r3/8/8/8/4N3/8/8/4K3"


def test_QA4_6_in_check_every_legal_move_ends_it():
    state = qa_position(A="k7/8/8/8/8/8/8/8", B="4r3/8/8/8/8/8/8/4K3", C="8/8/8/8/8/8/5N2/R7")
    orders = QA.legal_orders(state)
    assert set(orders) == slow_orders(state)
    assert "C:f2-e4>B" in orders and "C:a1-e1>B" not in orders
    for order in orders:
        child = GameState.from_json(QA.to_json(state))
        moved(child, "white", order)
        assert not checkers(child.position, WHITE), order


# --------------------------------------------------------------------------- QA4-7


MATE_BOARDS = {"A": "8/8/8/8/8/8/8/4K3", "B": "7k/6pp/8/8/8/8/8/8", "C": "8/8/8/8/8/8/8/R7"}


def test_QA4_7_checkmate_wins():
    state = qa_position(**MATE_BOARDS)
    outcome = moved(state, "white", "C:a1-a8>B")
    kinds = [message["kind"] for message in outcome.to["black"]]
    assert kinds == ["moved", "check", "end"]
    assert outcome.to["white"][1] == {"kind": "check", "color": "black", "board": "B"}
    assert outcome.to["white"][2] == {"kind": "end", "result": "1-0", "reason": "checkmate"}
    assert QA.result(state) == ("1-0", "checkmate")
    assert QA.orderer(state) is None
    assert QA.legal_orders(state) == [] and slow_orders(state) == set()


def test_QA4_7_stalemate_draws():
    state = qa_position(A="8/8/8/8/8/8/8/4K3", B="k7/8/8/8/8/8/8/8", C="8/8/8/8/8/8/8/1Q6")
    outcome = moved(state, "white", "C:b1-b6>B")
    assert outcome.to["black"][-1] == {"kind": "end", "result": "1/2-1/2", "reason": "stalemate"}
    assert [message["kind"] for message in outcome.to["white"]] == ["moved", "end"]


def test_QA4_7_threefold_repetition_draws():
    state = QA.new_game({})
    dance = ["A:g1-f3>B", "A:g8-f6>B", "B:f3-g1>A", "B:f6-g8>A"]
    for order in dance + dance[:3]:
        moved(state, QA.orderer(state), order)
        assert QA.result(state) == (None, None)
    outcome = moved(state, "black", dance[3])  # the start position stands for the third time
    assert outcome.to["white"][-1] == {"kind": "end", "result": "1/2-1/2", "reason": "threefold repetition"}


def test_QA4_7_the_50_move_rule_draws_and_a_capture_resets_the_count():
    quiet = qa_position(A="4k3/8/8/8/8/8/8/R3K3", halfmove_clock=99)
    outcome = moved(quiet, "white", "A:a1-a2>B")
    assert outcome.to["black"][-1] == {"kind": "end", "result": "1/2-1/2", "reason": "50-move rule"}
    capture = qa_position(A="4k3/8/8/8/8/8/n7/R3K3", halfmove_clock=99)
    moved(capture, "white", "A:a1-a2>B")
    assert QA.result(capture) == (None, None) and capture.halfmove_clock == 0


def test_QA4_7_checkmate_on_the_hundredth_half_move_still_wins():
    state = qa_position(**MATE_BOARDS, halfmove_clock=99)
    moved(state, "white", "C:a1-a8>B")
    assert QA.result(state) == ("1-0", "checkmate")


# --------------------------------------------------------------------------- its author's opening note


def test_QA4_seed_opening_note_the_rooks_pawn_and_the_rook_that_must_come_back_to_the_kings_board():
    """Seed: after a rook's pawn goes, the rook can take Black's rook's pawn; a knight sent to the rook's
    board attacks it, and the rook must transfer to the kings' board, where Black's rook retakes."""
    state = QA.new_game({})
    moved(state, "white", "A:a2-a4>B")
    moved(state, "black", "A:e7-e5>C")
    capture = moved(state, "white", "A:a1-a7>D")
    assert capture.to["black"][0]["captured"] == {"piece": "P", "color": "black", "square": "A:a7"}
    moved(state, "black", "A:b8-c6>D")  # attacks the rook on D:a7: were it Black's move, D:c6-a7>A
    assert "D:c6-a7>A" in fast_orders(GameState.from_json({**QA.to_json(state), "to_move": "black"}))
    assert onto_boards(state, "D:a7-") == {"A"}  # no king on D: the rook can only go back to A
    moved(state, "white", "D:a7-a3>A")
    retake = moved(state, "black", "A:a8-a3>B")
    assert retake.to["white"][0]["captured"] == {"piece": "R", "color": "white", "square": "A:a3"}
