"""Side View Chess referee (SV-1, SV-3, SV-4, SV-5): options, setups, orders, messages, ends."""

import random

import chess
import pytest

from app.rules.base import OptionError, OrderError
from app.rules.registry import get_variant
from app.rules.scenario import run_scenario
from app.rules.side_view import SideView
from tests.rules.side_view_helpers import SV, hidden, play_all, position

KNIGHT_SHUFFLE = ("g1-f3", "g8-f6", "f3-g1", "f6-g8")
FOOLS_MATE = ("f2-f3", "e7-e5", "g2-g4", "d8-h4")
SV_NOT_STARTED = "the game has not started: both players must send their setup first"
INDEX_OF_NRKBBQRN = 345  # Scharnagl: bishops d1, e1 (1, 2), queen 4th free square (3), knights a, h (3)


def board(state) -> str:
    return SV.position(state)["board"]


# --------------------------------------------------------------------------- options (SV-5)


def test_SV_5_side_view_is_registered_under_its_name_and_title():
    variant = get_variant("side-view")
    assert isinstance(variant, SideView)
    assert variant.title == "Side View Chess"


def test_SV_5_options_default_to_physics_3_and_the_standard_setup():
    assert SV.parse_options({}) == {"physics": 3, "setup": "standard"}


def test_SV_5_options_read_text_from_the_command_line_and_read_their_own_output_again():
    options = SV.parse_options({"physics": "1", "setup": "Hidden"})
    assert options == {"physics": 1, "setup": "hidden"}
    assert SV.parse_options(options) == options
    assert SV.parse_options({"physics": 2, "setup": "chess960"}) == {"physics": 2, "setup": "chess960"}


@pytest.mark.parametrize(("raw", "words"), [
    ({"physics": 4}, "physics must be 1, 2 or 3"),
    ({"physics": "three"}, "physics must be 1, 2 or 3"),
    ({"physics": True}, "physics must be 1, 2 or 3"),
    ({"setup": "random"}, "setup must be one of standard, chess960, hidden"),
    ({"strikes": 3}, "unknown option 'strikes' for side-view; known: physics, setup"),
])
def test_SV_5_option_errors_say_what_is_wrong_and_what_is_accepted(raw, words):
    with pytest.raises(OptionError, match=words):
        SV.parse_options(raw)
    with pytest.raises(OptionError):
        SV.new_game(raw)


# --------------------------------------------------------------------------- start positions (SV-1)


def test_SV_1_standard_setup_starts_at_once_from_the_fide_position():
    state = SV.new_game({})
    assert not SV.needs_setup(state, "white") and not SV.needs_setup(state, "black")
    assert SV.hidden_setups(state) == {}
    assert board(state) == chess.STARTING_BOARD_FEN
    assert SV.orderer(state) == "white" and SV.move_number(state) == 1
    assert SV.result(state) == (None, None)


def test_SV_1_chess960_draws_one_row_for_both_from_the_given_random_source():
    first = SV.new_game({"setup": "chess960"}, random.Random(7))
    again = SV.new_game({"setup": "chess960"}, random.Random(7))
    white_row = board(first).split("/")[7]
    assert board(first) == board(again)
    assert board(first).split("/")[0] == white_row.lower()
    assert sorted(white_row) == sorted("RNBQKBNR")
    rows = {board(SV.new_game({"setup": "chess960"}, random.Random(seed))) for seed in range(12)}
    assert len(rows) > 1  # the row is drawn, not fixed
    assert not SV.needs_setup(first, "white") and SV.hidden_setups(first) == {}
    assert SV.orderer(first) == "white"


def test_SV_1_hidden_setup_waits_for_both_rows_and_tells_each_player_only_their_own():
    state = SV.new_game({"setup": "hidden"})
    assert SV.needs_setup(state, "white") and SV.needs_setup(state, "black")
    assert SV.orderer(state) is None
    refused = SV.play(state, "white", "e2-e4")
    assert refused.to["white"] == [{"kind": "rejected", "reason": SV_NOT_STARTED}]
    first = SV.play(state, "white", "setup NRKBBQRN")
    assert first.result == "setup"
    assert first.to["white"] == [{"kind": "setup", "row": "NRKBBQRN", "index": INDEX_OF_NRKBBQRN}]
    assert first.to["black"] == [{"kind": "setup-done", "color": "white"}]
    assert not SV.needs_setup(state, "white") and SV.needs_setup(state, "black")
    assert SV.hidden_setups(state) == {}  # not before both are in
    assert SV.view(state, "black")["seen"] == [] and SV.view(state, "black")["own"] == "8/8/8/8/8/8/8/8"
    second = SV.play(state, "black", "setup 518")
    start = {"kind": "start", "to_move": "white"}
    assert second.to["black"] == [{"kind": "setup", "row": "RNBQKBNR", "index": 518}, start]
    assert second.to["white"] == [{"kind": "setup-done", "color": "black"}, start]
    assert SV.hidden_setups(state) == {"white": "NRKBBQRN", "black": "RNBQKBNR"}
    # White's row on rank 1, Black's on rank 8 read a-file to h-file, not mirrored.
    assert board(state) == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN"
    assert SV.orderer(state) == "white"


def test_SV_1_hidden_setup_index_and_letters_name_the_same_row_for_either_colour():
    state = hidden("518", "RNBQKBNR")
    assert SV.hidden_setups(state) == {"white": "RNBQKBNR", "black": "RNBQKBNR"}
    assert board(state) == chess.STARTING_BOARD_FEN


@pytest.mark.parametrize(("text", "words"), [
    ("setup RNBQKNBR", "opposite colour"),
    ("setup RKRBNBQN", "opposite colour"),
    ("setup KRRBQNBN", "between the two rooks"),
    ("setup RNBQKBN", "exactly 8 letters"),
    ("setup RNBQKBNX", "unknown piece letter"),
    ("setup 960", "0 to 959"),
])
def test_SV_1_hidden_setup_follows_the_LG_2_checks(text, words):
    """A setup that breaks LG-2 was read: it is not accepted, with the rule it breaks."""
    state = SV.new_game({"setup": "hidden"})
    outcome = SV.play(state, "white", text)
    assert outcome.result == "rejected"
    assert words in outcome.to["white"][0]["reason"]
    assert outcome.to["black"] == []
    assert SV.needs_setup(state, "white")


def test_SV_1_setup_random_uses_the_random_source_and_a_setup_is_sent_once():
    rows = set()
    for seed in (1, 2):
        state = SV.new_game({"setup": "hidden"})
        rows.add(SV.play(state, "white", "setup random", random.Random(seed)).to["white"][0]["row"])
        assert SV.play(state, "white", "setup 518").to["white"] == [
            {"kind": "rejected", "reason": "your setup is already in"}]
    again = SV.new_game({"setup": "hidden"})
    assert SV.play(again, "white", "setup random", random.Random(1)).to["white"][0]["row"] in rows
    assert len(rows) == 2


def test_SV_1_a_setup_in_a_game_without_setup_phase_is_rejected():
    state = SV.new_game({"setup": "standard"})
    outcome = SV.play(state, "white", "setup 518")
    assert outcome.result == "rejected"
    assert "no setup phase" in outcome.to["white"][0]["reason"]
    state = hidden("518", "518")
    assert SV.play(state, "black", "setup 0").to["black"] == [
        {"kind": "rejected", "reason": "the game has already started"}]


def test_SV_1_only_resign_is_heard_during_a_hidden_setup():
    state = SV.new_game({"setup": "hidden"})
    assert SV.play(state, "black", "offer draw").to["black"][0]["reason"] == SV_NOT_STARTED
    assert SV.play(state, "black", "claim draw").result == "rejected"
    outcome = SV.play(state, "black", "resign")
    assert outcome.result == "resigned"
    assert SV.result(state) == ("1-0", "resigned")


# --------------------------------------------------------------------------- reading orders (SV-3, SV-5)


@pytest.mark.parametrize("text", ["e2e4", "e2-e4", "e2 e4", "E2-E4", "e2\u2013e4", "e2\u2014e4", " e2-e4! "])
def test_SV_3_coordinate_forms_all_read_as_the_canonical_order(text):
    state = SV.new_game({})
    assert SV.is_order(text) and SV.order_kind(text) == "move"
    outcome = SV.play(state, "white", text)
    assert (outcome.result, outcome.order) == ("moved", "e2-e4")


@pytest.mark.parametrize(("text", "order"), [
    ("e7e8q", "e7-e8=Q"), ("e7-e8=Q", "e7-e8=Q"), ("e7-e8", "e7-e8=Q"), ("E7E8", "e7-e8=Q"),
    ("e7-e8=N", "e7-e8=N"), ("e7e8r", "e7-e8=R"), ("e7 e8 b", "e7-e8=B"),
])
def test_SV_5_promotion_names_the_piece_and_without_a_letter_is_a_queen(text, order):
    state = position("k7/4P3/8/8/8/8/8/K7 w - - 0 1")
    outcome = SV.play(state, "white", text)
    assert (outcome.result, outcome.order) == ("moved", order)
    letter = order[-1]
    assert outcome.to["white"][0]["promotion"] == letter
    assert board(state).startswith(f"k3{letter}3/")


@pytest.mark.parametrize("text", ["O-O", "o-o", "0-0", "e1-g1", "e1g1"])
def test_SV_3_castling_short_in_the_standard_position(text):
    state = position("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", setup="standard")
    outcome = SV.play(state, "white", text)
    assert (outcome.result, outcome.order) == ("moved", "O-O")
    assert outcome.to["white"][0] == {
        "kind": "moved", "from": "e1", "to": "g1", "piece": "K", "color": "white", "captured": None,
        "promotion": None, "castle": "O-O", "en_passant": False,
    }
    assert outcome.to["black"] == [{"kind": "opponent-moved", "color": "white", "lost": None}]
    assert board(state).endswith("/R4RK1")


@pytest.mark.parametrize("text", ["O-O-O", "0-0-0", "e8-c8"])
def test_SV_3_castling_long_for_black(text):
    state = position("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1", setup="standard")
    outcome = SV.play(state, "black", text)
    assert (outcome.result, outcome.order) == ("moved", "O-O-O")
    assert board(state).startswith("2kr3r/")


def test_SV_1_chess960_castling_by_a_king_that_starts_beside_its_rook():
    """King b1, rooks a1 and g1: O-O-O takes the king one step to c1 and the rook over it to d1;
    the king's own step b1-c1 stays a plain king move."""
    fen = "r5kr/pppppppp/8/8/8/8/PPPPPPPP/RK4R1 w AGah - 0 1"
    state = position(fen, setup="chess960")
    outcome = SV.play(state, "white", "O-O-O")
    assert (outcome.result, outcome.order) == ("moved", "O-O-O")
    assert outcome.to["white"][0]["from"] == "b1" and outcome.to["white"][0]["to"] == "c1"
    assert board(state).endswith("/2KR2R1")
    state = position(fen, setup="chess960")
    outcome = SV.play(state, "white", "b1-c1")
    assert (outcome.order, outcome.to["white"][0]["castle"]) == ("b1-c1", None)
    assert board(state).endswith("/R1K3R1")
    state = position(fen, setup="chess960")
    assert SV.play(state, "white", "O-O").order == "O-O"
    assert board(state).endswith("/R4RK1")
    # Black's king on g8 castles short with the rook on h8 and stays where it is.
    assert SV.play(state, "black", "O-O").to["black"][0]["to"] == "g8"
    assert board(state).startswith("r4rk1/")


def test_SV_1_hidden_rows_castle_by_chess960_rules():
    """Rows NRKBBQRN: O-O-O leaves the king on c1 and brings the b1 rook to d1 (a plain b1-d1 is blocked by the
    king); Black's O-O takes the king from c8 to g8 and the g8 rook to f8 once d8, e8, f8 are free."""
    state = hidden("NRKBBQRN", "NRKBBQRN")
    play_all(state, "e2-e3")
    assert SV.play(state, "black", "O-O").to["black"] == [{"kind": "rejected", "reason": "illegal"}]
    play_all(state, "e7-e6", "d1-g4", "d8-g5")
    assert SV.play(state, "white", "b1-d1").to["white"] == [{"kind": "rejected", "reason": "illegal"}]
    outcome = SV.play(state, "white", "O-O-O")
    assert (outcome.result, outcome.order) == ("moved", "O-O-O")
    assert (outcome.to["white"][0]["from"], outcome.to["white"][0]["to"]) == ("c1", "c1")
    assert outcome.to["black"] == [{"kind": "opponent-moved", "color": "white", "lost": None}]
    assert board(state).endswith("/N1KRBQRN")
    play_all(state, "d7-d6", "a2-a3", "e8-d7", "a3-a4", "f8-e7", "a4-a5")
    outcome = SV.play(state, "black", "O-O")
    assert outcome.to["black"][0]["castle"] == "O-O" and outcome.to["black"][0]["to"] == "g8"
    assert board(state).startswith("nr3rkn/")


@pytest.mark.parametrize("text", ["e2-e9", "e7-e8=K", "e2-e4=Q", "e2 to e4 please", "move a1", "claim draw now"])
def test_SV_3_unreadable_lines_are_errors_that_depend_on_the_text_alone(text):
    """The same line gives the same error whatever the position and whoever's turn it is."""
    reasons = set()
    for state, side in ((SV.new_game({}), "white"), (position("k7/4P3/8/8/8/8/8/K7 b - - 0 1"), "white"),
                        (position("8/8/8/3k4/8/8/8/K7 w - - 0 1", physics=1), "white")):
        assert SV.is_order(text)
        with pytest.raises(OrderError):
            SV.order_kind(text)
        before = SV.to_json(state)
        outcome = SV.play(state, side, text)
        assert outcome.result == "error" and outcome.to["black"] == []
        assert SV.to_json(state) == before
        reasons.add(outcome.to["white"][0]["reason"])
    assert len(reasons) == 1
    (reason,) = reasons
    assert "e2-e4" in reason or "Q, R, B or N" in reason or "rank 1 or 8" in reason


def test_SV_5_commands_and_chatter():
    for text in ("resign", "offer draw", "accept draw", "decline draw", "claim draw", "Claim draw.", "setup 518"):
        assert SV.is_order(text) and SV.order_kind(text) == "order", text
    for text in ("O-O", "0-0-0", "e2 e4"):
        assert SV.order_kind(text) == "move", text
    for text in ("thanks for the game", "good luck!", "", "see you at 10"):
        assert not SV.is_order(text), text


# --------------------------------------------------------------------------- illegal orders (SV-3, SV-4)


@pytest.mark.parametrize("text", [
    "e2-e5",  # no such pawn move
    "e3-e4",  # no piece there
    "e7-e5",  # an enemy piece
    "d1-d8",  # blocked by the own pawn
    "e1-e2",  # onto an own piece
    "O-O",  # pieces between
    "a2-a2",  # no move at all
])
def test_SV_3_an_illegal_order_is_answered_only_illegal_to_the_orderer_alone(text):
    state = SV.new_game({})
    before = SV.to_json(state)
    outcome = SV.play(state, "white", text)
    assert outcome.result == "rejected"
    assert outcome.to == {"white": [{"kind": "rejected", "reason": "illegal"}], "black": []}
    assert SV.to_json(state) == before and SV.orderer(state) == "white"
    assert SV.play(state, "white", "e2-e4").result == "moved"  # orders again, no penalty


def test_SV_3_illegal_for_a_hidden_reason_looks_the_same_as_any_other_illegal_order():
    """Pinned by a rook the player cannot see (physics 1: the rook's file is hidden), or moving into check:
    the answer is the same bare "illegal" as for a move no piece could make."""
    state = position("4k3/8/8/8/4r3/7b/4N3/4K3 w - - 0 1", physics=1)
    pinned = SV.play(state, "white", "e2-c3")
    into_check = SV.play(state, "white", "e1-f1")
    nonsense = SV.play(state, "white", "h8-a1")
    assert pinned.to == into_check.to == nonsense.to == {
        "white": [{"kind": "rejected", "reason": "illegal"}], "black": []}


def test_SV_3_orders_out_of_turn_or_after_the_end_say_so():
    state = SV.new_game({})
    outcome = SV.play(state, "black", "e7-e5")
    not_yours = {"kind": "rejected", "reason": "it is not your turn: White is to move"}
    assert outcome.to == {"white": [], "black": [not_yours]}
    play_all(state, *FOOLS_MATE)
    after = SV.play(state, "white", "e2-e4")
    assert after.to["white"] == [{"kind": "rejected", "reason": "the game is over (0-1, checkmate)"}]
    assert SV.play(state, "black", "claim draw").result == "rejected"


# --------------------------------------------------------------------------- what each player is told (SV-4)


def test_SV_4_a_capture_is_told_to_the_mover_in_full_and_to_the_victim_as_their_loss():
    state = SV.new_game({})
    play_all(state, "e2-e4", "d7-d5")
    outcome = SV.play(state, "white", "e4-d5")
    captured = {"piece": "P", "color": "black", "square": "d5"}
    assert outcome.to["white"] == [{
        "kind": "moved", "from": "e4", "to": "d5", "piece": "P", "color": "white", "captured": captured,
        "promotion": None, "castle": None, "en_passant": False,
    }]
    assert outcome.to["black"] == [{"kind": "opponent-moved", "color": "white", "lost": captured}]
    assert SV.view(state, "white")["tray"] == SV.view(state, "black")["tray"] == "p"
    play_all(state, "d8-d5")
    assert SV.view(state, "black")["tray"] == "pP"


def test_SV_4_en_passant_names_the_square_where_the_captured_pawn_stood():
    state = SV.new_game({})
    play_all(state, "e2-e4", "a7-a6", "e4-e5", "d7-d5")
    outcome = SV.play(state, "white", "e5-d6")
    lost = {"piece": "P", "color": "black", "square": "d5"}
    assert outcome.to["white"][0]["en_passant"] is True
    assert outcome.to["white"][0]["captured"] == lost
    assert outcome.to["black"] == [{"kind": "opponent-moved", "color": "white", "lost": lost}]
    assert board(state) == "rnbqkbnr/1pp1pppp/p2P4/8/8/8/PPPP1PPP/RNBQKBNR"


def test_SV_4_en_passant_is_only_on_the_very_next_move():
    state = SV.new_game({})
    play_all(state, "e2-e4", "a7-a6", "e4-e5", "d7-d5", "h2-h3", "h7-h6")
    assert SV.play(state, "white", "e5-d6").to["white"] == [{"kind": "rejected", "reason": "illegal"}]


def test_SV_4_check_is_told_to_the_checked_player_alone_without_a_direction():
    state = SV.new_game({})
    play_all(state, "e2-e4", "f7-f6")
    outcome = SV.play(state, "white", "d1-h5")
    assert outcome.to["white"][0]["kind"] == "moved" and len(outcome.to["white"]) == 1
    assert outcome.to["black"] == [
        {"kind": "opponent-moved", "color": "white", "lost": None}, {"kind": "check", "color": "black"}]


def test_SV_4_a_move_answers_the_opponents_draw_offer():
    state = SV.new_game({})
    offered = SV.play(state, "black", "offer draw")
    assert offered.result == "offered"
    assert offered.to["white"] == offered.to["black"] == [{"kind": "draw-offered", "color": "black"}]
    play_all(state, "e2-e4")
    assert SV.play(state, "white", "accept draw").result == "rejected"
    assert SV.play(state, "black", "offer draw").result == "offered"
    declined = SV.play(state, "white", "decline draw")
    assert declined.to["black"] == [{"kind": "draw-declined", "color": "white"}]
    assert SV.play(state, "white", "offer draw").result == "offered"
    drawn = SV.play(state, "black", "accept draw")
    assert drawn.result == "drawn"
    assert drawn.to["white"] == [{"kind": "end", "result": "1/2-1/2", "reason": "agreement"}]
    assert SV.result(state) == ("1/2-1/2", "agreement") and SV.orderer(state) is None


def test_SV_5_resign_and_forfeit_end_the_game_for_the_other_side():
    state = SV.new_game({})
    outcome = SV.play(state, "white", "resign")
    assert outcome.to["black"] == [{"kind": "end", "result": "0-1", "reason": "resigned"}]
    state = SV.new_game({})
    outcome = SV.forfeit(state, "black", "time")
    end = {"kind": "end", "result": "1-0", "reason": "time"}
    assert outcome.to["white"] == [{"kind": "timeout", "color": "black"}, end]
    assert SV.result(state) == ("1-0", "time") and SV.orderer(state) is None


# --------------------------------------------------------------------------- ends of the game (SV-1, SV-5)


def test_SV_1_checkmate_ends_the_game_and_tells_both():
    state = SV.new_game({})
    outcomes = play_all(state, *FOOLS_MATE)
    end = {"kind": "end", "result": "0-1", "reason": "checkmate"}
    assert outcomes[-1].to["white"][-2:] == [{"kind": "check", "color": "white"}, end]
    assert outcomes[-1].to["black"][-1] == end
    assert SV.result(state) == ("0-1", "checkmate") and SV.orderer(state) is None
    assert SV.legal_orders(state) == []


def test_SV_1_stalemate_draws():
    state = position("k7/8/1Q6/8/8/8/8/7K w - - 0 1")
    outcome = SV.play(state, "white", "h1-g1")
    assert outcome.to["black"][-1] == {"kind": "end", "result": "1/2-1/2", "reason": "stalemate"}
    assert SV.result(state) == ("1/2-1/2", "stalemate")


def test_SV_5_insufficient_material_draws_by_itself():
    state = position("k7/8/8/8/8/8/1q6/K7 w - - 0 1")
    outcome = SV.play(state, "white", "a1-b2")
    assert outcome.to["white"][0]["captured"] == {"piece": "Q", "color": "black", "square": "b2"}
    assert outcome.to["black"][-1] == {"kind": "end", "result": "1/2-1/2", "reason": "insufficient material"}


def test_SV_5_the_75_move_rule_draws_by_itself():
    state = position("k7/8/8/8/8/8/8/KR6 w - - 149 80")
    outcome = SV.play(state, "white", "b1-b2")
    assert outcome.to["white"][-1] == {"kind": "end", "result": "1/2-1/2", "reason": "75-move rule"}


def test_SV_5_checkmate_on_the_75th_move_still_wins():
    state = position("k7/8/1K6/8/8/8/8/7R w - - 149 80")
    SV.play(state, "white", "h1-h8")
    assert SV.result(state) == ("1-0", "checkmate")


def test_SV_5_fivefold_repetition_draws_by_itself_even_across_reloads():
    state = SV.new_game({})
    for cycle in range(4):
        for order in KNIGHT_SHUFFLE:
            state = SV.from_json(SV.to_json(state))  # the history survives storage
            outcome = SV.play(state, SV.orderer(state), order)
        if cycle < 3:
            assert SV.result(state) == (None, None)
    assert outcome.to["black"][-1] == {"kind": "end", "result": "1/2-1/2", "reason": "fivefold repetition"}


def test_SV_5_claim_draw_by_threefold_repetition():
    state = SV.new_game({})
    play_all(state, *KNIGHT_SHUFFLE)
    early = SV.play(state, "black", "claim draw")  # the start position has stood twice
    assert early.result == "answered" and early.order == "claim draw"
    assert early.to == {"white": [], "black": [{"kind": "answer", "claim": "not valid"}]}
    assert SV.result(state) == (None, None)
    play_all(state, *KNIGHT_SHUFFLE)
    state = SV.from_json(SV.to_json(state))
    claimed = SV.play(state, "black", "claim draw")  # by the player not to move: at any time
    assert claimed.result == "drawn"
    end = {"kind": "end", "result": "1/2-1/2", "reason": "threefold repetition"}
    assert claimed.to == {"white": [end], "black": [end]}


def test_SV_5_claim_draw_by_the_50_move_rule():
    state = position("k7/8/8/8/8/8/8/KR6 w - - 99 80")
    assert SV.play(state, "white", "claim draw").to["white"] == [{"kind": "answer", "claim": "not valid"}]
    play_all(state, "b1-b2")
    claimed = SV.play(state, "white", "claim draw")
    assert claimed.to["black"] == [{"kind": "end", "result": "1/2-1/2", "reason": "50-move rule"}]


def test_SV_5_a_capture_or_pawn_move_restarts_the_50_move_count():
    state = position("k7/p7/8/8/8/8/8/KR6 b - - 99 80")
    play_all(state, "a7-a6")
    assert SV.play(state, "white", "claim draw").result == "answered"


# --------------------------------------------------------------------------- referee play (the public interface)


def test_SV_4_referee_play_scenario_gives_the_contract_output():
    orders = [
        ["white", "b2-b3"], ["black", "e2-e4"], ["black", "hello h5"], ["black", "h7-h6"], ["white", "claim draw"],
        ["white", "d1-a4"],
    ]
    output = run_scenario({
        "variant": "side-view",
        "options": {"physics": 1, "setup": "hidden", "seed": 3},
        "setup": {"white": "NRKBBQRN", "black": "random"},
        "orders": orders,
    })
    assert set(output) == {"events", "position", "strikes", "to_move", "result", "reason"}
    events = output["events"]
    assert [event["result"] for event in events] == ["moved", "rejected", "error", "moved", "answered", "rejected"]
    assert [(event["n"], event["by"], event["order"]) for event in events] == [
        (number, side, text) for number, (side, text) in enumerate(orders, start=1)]
    assert events[0]["to"]["black"] == [{"kind": "opponent-moved", "color": "white", "lost": None}]
    assert events[1]["to"] == {"white": [], "black": [{"kind": "rejected", "reason": "illegal"}]}
    assert events[2]["to"]["white"] == [] and events[2]["to"]["black"][0]["kind"] == "error"
    assert events[4]["to"] == {"white": [{"kind": "answer", "claim": "not valid"}], "black": []}
    assert events[5]["to"] == {"white": [{"kind": "rejected", "reason": "illegal"}], "black": []}  # blocked by c2
    view = events[-1]["views"]["white"]
    assert set(view) == {"own", "seen", "tray", "physics"}
    assert view["own"] == "8/8/8/8/8/1P6/P1PPPPPP/NRKBBQRN"
    assert [(entry["rank"], entry["color"], entry["square"]) for entry in view["seen"]] == [
        (8, "black", None), (7, "black", None), (6, "black", None)]
    assert [entry["piece"] for entry in view["seen"]][1:] == ["P", "P"]  # g7, and the pawn that went to h6
    assert (view["tray"], view["physics"]) == ("", 1)
    assert output["position"]["board"].endswith("/7p/8/8/1P6/P1PPPPPP/NRKBBQRN")
    assert output["strikes"] == {"white": 0, "black": 0}
    assert output["to_move"] == "white" and output["result"] is None and output["reason"] is None


def test_SV_1_referee_play_scenario_to_checkmate():
    output = run_scenario({"variant": "side-view", "orders": [["white", o] if i % 2 == 0 else ["black", o]
                                                             for i, o in enumerate(FOOLS_MATE)]})
    assert (output["result"], output["reason"], output["to_move"]) == ("0-1", "checkmate", None)
    assert output["position"] == {"board": "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR"}
    assert output["events"][-1]["to"]["black"][-1] == {"kind": "end", "result": "0-1", "reason": "checkmate"}
