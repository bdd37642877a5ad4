"""Palindromic Chess referee: the rules, move by move (PAL-1 .. PAL-5)."""

import random
from collections import Counter

import chess
from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules.palindromic import Palindromic
from app.rules.palindromic.dead import blocked_for_good, is_dead, stuck_pieces
from app.rules.palindromic.state import GameState
from app.rules.palindromic.view import destinations_of
from app.rules.registry import get_variant
from app.rules.scenario import run_scenario
from tests.rules.palindromic_helpers import (
    ONE_KNIGHT_AWAY,
    PAL,
    REVERSED,
    REVERSED_HANDS,
    moves,
    new_game,
    one_knight_away,
    play,
    reason,
)

PAWNS_TO_7 = ["a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7"]
PAWNS_TO_2 = ["a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2"]
CAPTURE = "captures are not allowed: the captured piece could never reach its destination"
PROMOTION = "promotion is not allowed: the new piece would have no destination"


def test_PAL_variant_is_registered_by_name():
    assert isinstance(get_variant("palindromic"), Palindromic)
    assert (PAL.name, PAL.title) == ("palindromic", "Palindromic Chess")


# --------------------------------------------------------------------------- PAL-1 start, PAL-2 destinations


def test_PAL_1_start_position_and_rook_hands():
    state = new_game()
    view = PAL.view(state, "white")
    assert view["board"] == "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
    assert view["handed"] == {"a1": "right", "h1": "left", "a8": "left", "h8": "right"}
    assert PAL.position(state) == {"board": view["board"]}
    assert (PAL.orderer(state), PAL.move_number(state), view["to_move"], view["check"]) == ("white", 1, "white", None)
    assert PAL.view(state, "black") == view  # full information: one view for both


def test_PAL_2_destinations_of_every_piece_type_at_the_start():
    destinations = PAL.view(new_game(), "black")["destinations"]
    assert len(destinations) == 32  # nobody is home
    assert destinations["a1"] == ["h8"] and destinations["h1"] == ["a8"]  # right- and left-handed rooks
    assert destinations["a8"] == ["h1"] and destinations["h8"] == ["a1"]
    assert destinations["d1"] == ["e8"] and destinations["e8"] == ["d1"]  # queens
    assert destinations["e1"] == ["d8"] and destinations["d8"] == ["e1"]  # kings
    assert destinations["c1"] == ["f8"] and destinations["f1"] == ["c8"]  # bishops, by square colour
    assert destinations["c8"] == ["f1"] and destinations["f8"] == ["c1"]
    assert destinations["b1"] == destinations["g1"] == ["b8", "g8"]  # knights: either enemy knight square
    assert destinations["b8"] == destinations["g8"] == ["b1", "g1"]
    assert destinations["e2"] == PAWNS_TO_7 and destinations["e7"] == PAWNS_TO_2  # pawns: the far pawn rank


def test_PAL_2_destinations_follow_the_piece_and_its_square_colour():
    state = new_game()
    moves(state, "e4", "e5", "Bc4", "Nf6", "Qh5", "Qe7")
    destinations = PAL.view(state, "white")["destinations"]
    assert destinations["c4"] == ["c8"]  # the light-squared bishop from f1
    assert destinations["h5"] == ["e8"] and destinations["e7"] == ["d1"]
    assert destinations["f6"] == ["b1", "g1"]
    assert not {"f1", "g8", "e8"} & set(destinations)


def test_PAL_2_home_pieces_are_left_out_and_counted():
    view = PAL.view(one_knight_away(), "white")
    assert view["destinations"] == {"g4": ["b8", "g8"]}
    assert view["home"] == {"white": 15, "black": 16}


def test_PAL_2_where_question_is_answered_from_the_view_alone():
    view = PAL.view(new_game(), "white")
    assert destinations_of(view, "h1") == ["a8"]
    assert destinations_of(view, "c8") == ["f1"]
    assert destinations_of(view, "e4") == []  # an empty square
    near_the_end = PAL.view(one_knight_away(), "white")
    assert destinations_of(near_the_end, "b8") == ["b8", "g8"]  # home: its own square among them
    assert destinations_of(near_the_end, "a8") == ["a8"]  # a home rook, by its hand
    assert destinations_of(near_the_end, "h1") == ["h1"]
    assert destinations_of(near_the_end, "g4") == ["b8", "g8"]


def test_PAL_2_example_orders_are_legal_and_come_from_the_view():
    state = new_game()
    moves(state, "e4", "e5")
    examples = PAL.example_orders(PAL.view(state, "white"), "white")
    assert len(examples) == 3 and set(examples) <= set(PAL.legal_orders(state))
    assert len({order[:2] for order in examples}) == 3  # three different pieces
    assert PAL.example_orders(PAL.view(state, "white"), "black") == []  # not Black's turn
    near_the_end = one_knight_away()
    examples = PAL.example_orders(PAL.view(near_the_end, "white"), "white")
    assert examples[0].startswith("g4-")  # the piece not yet home comes first
    assert set(examples) <= set(PAL.legal_orders(near_the_end))


# --------------------------------------------------------------------------- PAL-1 rook hands


def test_PAL_1_rooks_keep_their_hand_through_short_castling_of_both_colours():
    state = new_game()
    outcomes = moves(state, "Nf3", "Nf6", "g3", "g6", "Bg2", "Bg7", "O-O", "e6", "d4", "Qe7", "Nc3", "O-O")
    white = outcomes[6].to["black"][0]
    assert (white["castle"], white["from"], white["to"], white["san"]) == ("O-O", "e1", "g1", "O-O")
    assert (white["rook_from"], white["rook_to"], white["handed"]) == ("h1", "f1", "left")
    assert outcomes[6].order == "O-O"
    black = outcomes[11].to["white"][0]  # Black's king goes d8 to g8, over e8 and f8
    assert (black["from"], black["to"], black["rook_from"], black["rook_to"], black["handed"]) == (
        "d8", "g8", "h8", "f8", "right")
    view = PAL.view(state, "white")
    assert view["handed"] == {"a1": "right", "f1": "left", "a8": "left", "f8": "right"}
    assert view["destinations"]["f1"] == ["a8"] and view["destinations"]["f8"] == ["a1"]


def test_PAL_1_rooks_keep_their_hand_through_long_castling_and_rook_moves():
    state = new_game()
    outcomes = moves(
        state, "d4", "d6", "Nc3", "Nc6", "Bf4", "Bd7", "Qd3", "e6",
        "O-O-O", "O-O-O", "Rd2", "Qe7", "Rd1", "Rd8-e8",
    )
    white = outcomes[8].to["white"][0]
    assert (white["to"], white["rook_from"], white["rook_to"], white["handed"]) == ("c1", "a1", "d1", "right")
    black = outcomes[9].to["white"][0]  # d8 to c8: one step for the king, and the a8 rook comes to d8
    assert (black["castle"], black["to"], black["rook_from"], black["rook_to"], black["handed"]) == (
        "O-O-O", "c8", "a8", "d8", "left")
    assert [outcomes[n].to["black"][0]["handed"] for n in (10, 12, 13)] == ["right", "right", "left"]
    assert outcomes[13].order == "d8-e8" and outcomes[13].to["white"][0]["san"] == "Re8"
    view = PAL.view(state, "white")
    assert view["handed"] == {"d1": "right", "h1": "left", "e8": "left", "h8": "right"}
    assert view["destinations"]["d1"] == ["h8"] and view["destinations"]["e8"] == ["h1"]


def test_PAL_1_rooks_that_swap_squares_keep_their_hands():
    """Left- and right-handed rooks are different types: after trading places neither is where it began."""
    state = new_game()
    white = ["a4", "b4", "h4", "Rh3", "Rhb3", "Rb2", "Ra3", "Rah3", "Rh1", "Rba2", "Ra1"]
    black = ["Nf6", "Ng8"] * 5 + ["Nf6"]
    moves(state, *[order for pair in zip(white, black, strict=True) for order in pair])
    view = PAL.view(state, "white")
    assert view["board"].endswith("/RNBQKBNR")
    assert (view["handed"]["a1"], view["handed"]["h1"]) == ("left", "right")
    assert view["destinations"]["a1"] == ["a8"] and view["destinations"]["h1"] == ["h8"]


# --------------------------------------------------------------------------- PAL-3 legality


def test_PAL_3_captures_are_refused_with_the_reason_to_the_orderer_alone():
    state = new_game()
    moves(state, "e4", "d5")
    for text in ("exd5", "e4-d5", "e4xd5", "e4 d5"):
        outcome = play(state, "white", text)
        assert outcome.result == "rejected", text
        assert outcome.to == {"white": [{"kind": "rejected", "reason": CAPTURE}], "black": []}
    moves(state, "Bb5", "a6")
    before = PAL.to_json(state)
    assert reason(play(state, "white", "Bxa6"), "white") == CAPTURE
    assert reason(play(state, "white", "b5-e8"), "white") == CAPTURE  # the queen, through the empty d7
    assert PAL.to_json(state) == before  # nothing changes on a rejection
    assert not {"b5-a6", "b5-e8", "e4-d5"} & set(PAL.legal_orders(state))


def test_PAL_3_en_passant_is_a_capture_and_refused():
    state = new_game()
    moves(state, "e4", "a6", "e5", "d5")
    for text in ("exd6", "e5-d6", "exd6 e.p.", "e5xd6"):
        outcome = play(state, "white", text)
        assert outcome.result == "rejected", text
        assert reason(outcome, "white").startswith("captures are not allowed (en passant neither)")
    assert "e5-d6" not in PAL.legal_orders(state) and "e5-e6" in PAL.legal_orders(state)


def test_PAL_3_promotion_is_refused():
    state = new_game(board="k7/3P4/8/8/8/8/8/4K3", handed={})  # the d-pawn's one step would promote
    for text in ("d8=Q", "d8", "d7-d8", "d7-d8=N", "d7d8q"):
        outcome = play(state, "white", text)
        assert outcome.result == "rejected", text
        assert reason(outcome, "white") == PROMOTION, text
    assert not [order for order in PAL.legal_orders(state) if order.startswith("d7")]


def test_PAL_3_a_pinned_piece_may_not_expose_its_king():
    state = new_game()
    moves(state, "c3", "Nf6", "Qa4", "Ng8", "Qa5")  # the queen pins the c7 pawn against the d8 king
    assert reason(play(state, "black", "c6"), "black") == "your king would be in check"
    assert reason(play(state, "black", "c7-c5"), "black") == "your king would be in check"
    assert play(state, "black", "b6").result == "moved"  # blocking the line is fine


def test_PAL_3_a_king_in_check_must_get_out_of_it_without_capturing():
    state = new_game()
    moves(state, "e4", "Nc6", "a3", "Nd4", "a4", "Nf3")
    assert reason(play(state, "white", "a5"), "white") == "your king would be in check"
    assert reason(play(state, "white", "gxf3"), "white") == CAPTURE
    assert PAL.legal_orders(state) == ["e1-e2"]
    assert play(state, "white", "Ke2").result == "moved"


def test_PAL_3_reasons_for_orders_that_are_not_moves():
    state = new_game()
    assert reason(play(state, "white", "e3-e4"), "white") == "there is no piece of yours on e3"
    assert reason(play(state, "white", "e7-e5"), "white") == (
        "there is no piece of yours on e7: the black pawn there is your opponent's")
    assert reason(play(state, "black", "e7-e5"), "black") == "it is not your turn: White is to move"
    assert reason(play(state, "white", "a1-a3"), "white") == "the way from a1 to a3 is blocked by the white pawn on a2"
    assert reason(play(state, "white", "g1-g3"), "white") == "a knight cannot move from g1 to g3"
    assert reason(play(state, "white", "d1-d2"), "white") == "your own pawn stands on d2"
    assert reason(play(state, "white", "e2-e5"), "white") == "a pawn cannot move from e2 to e5"
    assert reason(play(state, "white", "e2-d3"), "white") == "a pawn moves diagonally only to capture, and d3 is empty"
    assert reason(play(state, "white", "O-O"), "white") == "O-O needs f1 and g1 to be empty"
    assert reason(play(state, "white", "Nf6"), "white") == "no knight of yours can move to f6"
    moves(state, "d4", "Nf6", "Nf3", "Ng8")
    assert reason(play(state, "white", "Nd2"), "white") == "Nd2 is ambiguous: write b1-d2 or f3-d2"
    outcome = play(state, "white", "Nbd2")
    assert outcome.order == "b1-d2" and outcome.to["white"][0]["san"] == "Nbd2"


def test_PAL_3_castling_rights_and_attacked_squares():
    state = new_game()
    moves(state, "Nf3", "Nf6", "g3", "g6", "Bg2", "Bg7", "Rg1", "Rg8", "Rh1", "Rh8")
    lost = "O-O is no longer possible: your king or the rook on that side has moved"
    assert reason(play(state, "white", "O-O"), "white") == lost
    assert "O-O" not in PAL.legal_orders(state)
    state = new_game()
    moves(state, "e4", "b6", "Nf3", "Ba6", "g3", "Nf6", "Bh3", "Ng8")  # the a6 bishop watches f1
    assert reason(play(state, "white", "O-O"), "white") == (
        "O-O is not possible: your king would pass through or land on an attacked square")


def test_PAL_3_castling_written_as_a_king_move():
    for text in ("e1-g1", "e1h1", "0-0", "o-o"):
        state = new_game()
        moves(state, "Nf3", "Nf6", "g3", "g6", "Bg2", "Bg7")
        outcome = play(state, "white", text)
        assert (outcome.result, outcome.order) == ("moved", "O-O"), text


# --------------------------------------------------------------------------- PAL-4 results


def test_PAL_4_checkmate_without_any_capture():
    """The knight on c6 could be taken in FIDE chess; here nothing may be captured, so it is mate."""
    state = new_game()
    outcomes = moves(state, "Nf3", "Nh6", "Nd4", "Ng8", "Nc6")
    last = outcomes[-1]
    assert last.to["white"] == last.to["black"] == [
        {"kind": "moved", "from": "d4", "to": "c6", "piece": "N", "color": "white", "san": "Nc6#", "castle": None},
        {"kind": "check", "color": "black"},
        {"kind": "end", "result": "1-0", "reason": "checkmate"},
    ]
    assert PAL.result(state) == ("1-0", "checkmate") and PAL.orderer(state) is None
    assert PAL.legal_orders(state) == [] and PAL.perft(state, 2) == {}
    assert PAL.example_orders(PAL.view(state, "black"), "black") == []
    assert reason(play(state, "black", "e6"), "black") == "the game is over (1-0, checkmate)"


def test_PAL_4_check_is_told_to_both():
    state = new_game()
    outcome = moves(state, "e4", "Nc6", "a3", "Nd4", "a4", "Nf3")[-1]
    assert outcome.to["white"][0]["san"] == "Nf3+"
    assert outcome.to["white"][1] == outcome.to["black"][1] == {"kind": "check", "color": "white"}
    assert PAL.view(state, "white")["check"] == "white" and PAL.result(state) == (None, None)


def test_PAL_4_stalemate_when_only_captures_remain():
    """FIDE would let Black's king take g7 or h7; here it may not, and has no other move."""
    state = new_game(board="6Nk/6NB/8/8/8/8/8/K7", handed={})
    outcome = moves(state, "Ka2")[-1]
    assert outcome.to["black"][-1] == {"kind": "end", "result": "1/2-1/2", "reason": "stalemate"}
    assert PAL.legal_orders(state) == []


def test_PAL_4_threefold_repetition_draws_automatically():
    state = new_game()
    outcomes = moves(state, "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1")
    assert all(outcome.to["white"][-1]["kind"] == "moved" for outcome in outcomes)
    last = moves(state, "Ng8")[-1]  # the start position for the third time
    assert last.to["white"][-1] == {"kind": "end", "result": "1/2-1/2", "reason": "threefold repetition"}


def test_PAL_4_fifty_moves_without_a_pawn_move_draw_automatically():
    """Piece moves only, never the same position a third time: the 100th ply ends the game."""
    state = new_game()
    moves(state, "e4", "e5")

    def key(state: GameState, moved: str) -> tuple[str, str, str]:
        view = PAL.view(state, "white")
        return view["board"], str(view["handed"]), moved

    seen = Counter([key(state, "black")])
    plies = 0
    while PAL.result(state) == (None, None):
        side = PAL.orderer(state)
        for order in PAL.legal_orders(state):
            if order[0] != "O" and state.board.piece_type_at(chess.parse_square(order[:2])) == chess.PAWN:
                continue
            trial = PAL.from_json(PAL.to_json(state))
            play(trial, side, order)
            if seen[key(trial, side)] < 2:
                seen[key(trial, side)] += 1
                assert play(state, side, order).result == "moved"
                plies += 1
                break
    assert PAL.result(state) == ("1/2-1/2", "50-move rule") and plies == 100


# --------------------------------------------------------------------------- PAL-4 passes and the reversal


def test_PAL_4_a_home_player_is_passed_for_and_the_reversal_wins():
    state = one_knight_away()
    assert play(state, "white", "Nf6").result == "moved"
    assert PAL.orderer(state) == "white"  # Black is home: the referee passes for Black at once
    made = PAL.automatic(state)
    assert made is not None
    side, passed = made
    assert (side, passed.result, passed.order) == ("black", "passed", None)
    assert passed.to["white"] == passed.to["black"] == [{"kind": "passed", "color": "black"}]
    assert PAL.automatic(state) is None
    outcome = play(state, "white", "Ng8")
    assert outcome.to["black"][-1] == {"kind": "end", "result": "1-0", "reason": "reversal"}
    assert PAL.view(state, "black")["board"] == REVERSED and PAL.view(state, "black")["destinations"] == {}
    assert PAL.legal_orders(state) == [] and PAL.automatic(state) is None


def test_PAL_4_the_pass_is_an_event_of_its_own_in_referee_play():
    output = run_scenario({
        "variant": "palindromic",
        "options": {"start": {"board": ONE_KNIGHT_AWAY, "handed": REVERSED_HANDS, "to_move": "white"}},
        "orders": [["white", "g4-f6"], ["black", "e1-e2"], ["white", "Ng8"]],
    })
    events = [(event["n"], event["by"], event["order"], event["result"]) for event in output["events"]]
    assert events == [
        (1, "white", "g4-f6", "moved"),
        (2, "black", None, "passed"),
        (3, "black", "e1-e2", "rejected"),
        (4, "white", "Ng8", "moved"),
    ]
    assert output["events"][1]["to"]["black"] == [{"kind": "passed", "color": "black"}]
    assert output["events"][1]["views"]["white"]["to_move"] == "white"
    assert output["events"][2]["to"]["black"][0]["reason"] == "it is not your turn: White is to move"
    assert (output["result"], output["reason"], output["to_move"]) == ("1-0", "reversal", None)
    assert output["position"] == {"board": REVERSED}
    assert output["strikes"] == {"white": 0, "black": 0}


# --------------------------------------------------------------------------- PAL-5 dead position


def test_PAL_5_dead_position_as_soon_as_every_pawn_faces_an_enemy_pawn():
    state = new_game()
    for white, black in [("a4", "a5"), ("b4", "b5"), ("c4", "c5"), ("d4", "d5"), ("e4", "e5"), ("f4", "f5"),
                         ("g4", "g5")]:
        moves(state, white, black)
        assert PAL.result(state) == (None, None)
    moves(state, "h4")
    assert PAL.result(state) == (None, None)  # Black's h-pawn can still step
    outcome = moves(state, "h5")[-1]
    assert outcome.to["white"][-1] == {"kind": "end", "result": "1/2-1/2", "reason": "dead position"}


def test_PAL_5_blocked_for_good_face_to_face_and_behind():
    board = chess.Board("4k3/8/8/4p3/4P3/4P3/8/4K3 w - - 0 1")
    assert blocked_for_good(board) == chess.BB_E5 | chess.BB_E4 | chess.BB_E3
    assert is_dead(board)


def test_PAL_5_a_piece_that_can_leave_does_not_block_for_good():
    board = chess.Board("4k3/8/8/p3p3/P3B3/4P3/8/4K3 w - - 0 1")  # the e4 bishop stands between the e-pawns
    assert blocked_for_good(board) == chess.BB_A4 | chess.BB_A5
    assert not is_dead(board)


def test_PAL_5_a_piece_walled_in_by_stuck_pieces_blocks_for_good():
    """The h2 knight's squares hold stuck pawns and a bishop hemmed in by stuck pawns: the h3 pawn never moves."""
    walled = chess.Board("k7/8/8/6p1/5pP1/4pPpp/4P1PN/K4B2 w - - 0 1")
    assert blocked_for_good(walled) == walled.pawns and is_dead(walled)
    open_corner = chess.Board("k7/8/8/6p1/5pP1/4pPpp/4P1PN/K7 w - - 0 1")  # no bishop: the knight can go to f1
    assert not blocked_for_good(open_corner) & chess.BB_H3
    assert not is_dead(open_corner)


def test_PAL_5_a_king_held_by_squares_attacked_for_good_blocks_for_good():
    """The d4 king's free squares are all attacked by stuck pawns: the d3 and d5 pawns never move."""
    board = chess.Board("7k/8/2p1p3/2PpP3/1p1K1p2/1P1P1P2/8/8 w - - 0 1")
    assert blocked_for_good(board) == board.pawns and is_dead(board)
    released = chess.Board("7k/8/2p1p3/2PpP3/1p1K1p2/3P1P2/8/8 w - - 0 1")  # the b4 pawn may go on: c3 frees
    assert not blocked_for_good(released) & (chess.BB_D3 | chess.BB_D5)


def test_PAL_5_pawns_all_home_or_no_pawns_is_not_dead():
    """A pawn on its far pawn rank can only promote, so it is stuck; but at home it does not bar the reversal."""
    home = chess.Board("k7/P7/8/8/8/8/p7/K7 w - - 0 1")
    assert blocked_for_good(home) == home.pawns and not is_dead(home)
    assert not is_dead(chess.Board("k7/8/8/8/8/8/8/K7 w - - 0 1"))
    assert PAL.result(one_knight_away()) == (None, None)  # every pawn home and stuck: play goes on


def reference_stuck(board: chess.Board) -> int:
    """The PAL-5 stuck set by its definition, one piece at a time, for checking the fast one."""
    steps = {}
    for square in chess.scan_forward(board.occupied):
        piece = board.piece_at(square)
        assert piece is not None
        if piece.piece_type == chess.PAWN:
            ahead = square + (8 if piece.color == chess.WHITE else -8)
            last_step = chess.square_rank(square) == (6 if piece.color == chess.WHITE else 1)
            steps[square] = 0 if last_step else chess.BB_SQUARES[ahead]
        elif piece.piece_type == chess.KNIGHT:
            steps[square] = chess.BB_KNIGHT_ATTACKS[square]
        elif piece.piece_type == chess.KING:
            steps[square] = chess.BB_KING_ATTACKS[square]
        else:
            rays = chess.BaseBoard(None)
            rays.set_piece_at(square, piece)
            steps[square] = rays.attacks_mask(square) & chess.BB_KING_ATTACKS[square]
    castling = board.clean_castling_rights()
    stuck = board.occupied & ~castling
    for color in chess.COLORS:
        if castling & board.occupied_co[color]:
            stuck &= ~(board.kings & board.occupied_co[color])
    while True:
        attacked = {color: 0 for color in chess.COLORS}
        for square in chess.scan_forward(stuck):
            piece = board.piece_at(square)
            assert piece is not None
            pawn = piece.piece_type == chess.PAWN
            attacked[piece.color] |= chess.BB_PAWN_ATTACKS[piece.color][square] if pawn else steps[square]
        freed = 0
        for square in chess.scan_forward(stuck):
            piece = board.piece_at(square)
            assert piece is not None
            free = steps[square] & ~stuck
            if piece.piece_type == chess.KING:
                free &= ~attacked[not piece.color]
            if free:
                freed |= chess.BB_SQUARES[square]
        if not freed:
            return stuck
        stuck &= ~freed


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), density=st.floats(0.3, 0.8))
def test_PAL_5_fast_stuck_set_matches_its_definition(seed, density):
    rng = random.Random(seed)
    board = chess.Board(None)
    for square in chess.SQUARES:
        if rng.random() < density:
            letters = "PpNnBbRrQq" if chess.square_rank(square) not in (0, 7) else "NnBbRrQq"
            board.set_piece_at(square, chess.Piece.from_symbol(rng.choice(letters)))
    free = [square for square in chess.SQUARES if board.piece_at(square) is None]
    for letter in "Kk":
        if free:
            board.set_piece_at(free.pop(rng.randrange(len(free))), chess.Piece.from_symbol(letter))
    assert stuck_pieces(board) == reference_stuck(board)
    assert is_dead(board) == (bool(board.pawns & ~(chess.BB_RANK_7 & board.occupied_co[chess.WHITE])
                                   & ~(chess.BB_RANK_2 & board.occupied_co[chess.BLACK]))
                              and not board.pawns & ~reference_stuck(board))


def test_PAL_4_a_home_player_is_passed_for_even_in_check():
    state = one_knight_away()
    moves(state, "Ne5")
    checking = play(state, "white", "Nd3")  # the knight checks the e1 king, which stands at home
    assert checking.to["black"][1] == {"kind": "check", "color": "black"}
    side, passed = PAL.automatic(state)
    assert (side, passed.to["black"]) == ("black", [{"kind": "passed", "color": "black"}])
    assert PAL.view(state, "white")["check"] == "black"
    assert PAL.orderer(state) == "white" and PAL.result(state) == (None, None)
    assert play(state, "white", "Nb4").result == "moved"
