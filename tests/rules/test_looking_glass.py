"""Through the Looking-Glass, rule by rule (LG-1 .. LG-11)."""

import chess

from app.rules.looking_glass.movement import execute_blind
from tests.rules.positions import LG, kinds, piece, play, position, started

# --------------------------------------------------------------------------- LG-1


def test_lg_1_each_player_sees_only_their_own_world():
    state = started()
    white, black = LG.view(state, "white"), LG.view(state, "black")
    assert white["home"] == "8/8/8/8/8/8/PPPPPPPP/RNBQKBNR"
    assert black["home"] == "rnbqkbnr/pppppppp/8/8/8/8/8/8"
    assert white["notebook"] == black["notebook"] == "8/8/8/8/8/8/8/8"


def test_lg_1_both_colours_are_seen_in_your_own_world_and_the_tray_by_both():
    state = position("8/8/8/n7/8/8/8/R3K3", "8/8/8/8/8/8/8/4k3")
    assert LG.view(state, "white")["home"] == "8/8/8/n7/8/8/8/R3K3"
    play(state, "white", "R a1-a5")
    assert LG.view(state, "white")["tray"] == LG.view(state, "black")["tray"] == "n"
    play(state, "black", "M e1-e2")  # the black king passes to R:e2, where White sees it
    assert LG.view(state, "white")["home"] == "8/8/8/8/8/8/4k3/4K3"
    assert LG.view(state, "black")["home"] == "8/8/8/R7/8/8/8/8"


# --------------------------------------------------------------------------- LG-3


def test_lg_3_there_is_no_check_a_king_may_step_into_attack():
    state = position("3r4/8/8/8/8/8/8/4K3", "8/8/8/8/8/8/8/8")
    assert play(state, "white", "R e1-d1").result == "moved"


def test_lg_3_pawns_move_toward_the_enemy_back_rank_and_double_step_from_their_start():
    state = started()
    assert play(state, "white", "R e2-e1").result == "rejected"
    assert play(state, "white", "R e2-e4").result == "moved"
    assert play(state, "black", "M e7-e5").result == "moved"
    assert piece(state, "R:e5") == "p"  # Black went down, through the portal to R


def test_lg_3_promotion_defaults_to_queen_and_happens_before_the_portal_check():
    state = position("8/P7/8/8/8/8/8/K7", "8/8/8/8/8/8/8/k7")
    outcome = play(state, "white", "R a7-a8")
    assert piece(state, "M:a8") == "Q"
    assert outcome.to["white"][0]["promotion"] == "Q"
    assert outcome.to["white"][1]["piece"] == "Q"  # the queen arrives in M


def test_lg_3_promotion_piece_named_by_the_order():
    state = position("8/P7/8/8/8/8/8/K7", "r7/8/8/8/8/8/8/k7")
    play(state, "white", "R a7-a8=N")
    assert piece(state, "R:a8") == "N"  # portal closed by the black rook on M:a8


# --------------------------------------------------------------------------- LG-4


def test_lg_4_illegal_home_order_rejected_with_reason_and_nothing_counted():
    state = started()
    before = LG.to_json(state)
    for order, words in [
        ("R e2-e5", "cannot move"),
        ("R a1-a3", "blocked on a2"),
        ("R e1-e2", "your own pieces"),
        ("R e4-e5", "no piece of yours"),
        ("R e2-d3", "diagonally only to capture"),
    ]:
        outcome = play(state, "white", order)
        assert outcome.result == "rejected"
        assert words in outcome.to["white"][0]["reason"]
        assert outcome.to["black"] == []  # the opponent is told nothing
    assert LG.to_json(state) == before


def test_lg_4_only_a_pawn_can_be_promoted():
    state = position("R7/8/8/8/8/8/8/K7")
    outcome = play(state, "white", "R a8-a7=Q")
    assert outcome.result == "error"  # not the last rank
    state = position("8/R7/8/8/8/8/8/K7")
    outcome = play(state, "white", "R a7-a8=Q")
    assert outcome.result == "rejected"
    assert "only a pawn" in outcome.to["white"][0]["reason"]


# --------------------------------------------------------------------------- LG-5a


def strike(real, mirror, order, to_move="white"):
    state = position(real, mirror, to_move=to_move)
    before = LG.position(state)
    outcome = play(state, to_move, order)
    assert outcome.result == "strike", outcome
    assert LG.position(state) == before  # the order is void
    return state, outcome


def test_lg_5a_1_no_piece_of_yours_on_the_from_square_is_a_strike():
    state, outcome = strike("4K3/8/8/8/8/8/8/8", "8/8/8/8/3p4/8/8/8", "M d4-d5")
    assert outcome.to["white"] == [{"kind": "strike", "color": "white", "count": 1}]  # told only "impossible"
    assert outcome.to["black"] == [{"kind": "strike", "color": "white", "count": 1, "order": "M:d4-d5"}]
    assert LG.orderer(state) == "white"  # order again, same turn


def test_lg_5a_2_a_displacement_that_is_no_movement_of_the_piece_is_a_strike():
    for mirror, order in [
        ("8/8/8/8/8/8/8/1N6", "M b1-b3"),  # not a knight's leap
        ("8/8/8/8/8/8/8/R7", "M a1-b3"),  # not on a rook line
        ("8/8/8/8/8/8/8/2B5", "M c1-c4"),  # not on a bishop line
        ("8/8/8/8/8/8/8/4K3", "M e1-e3"),  # king step longer than one
        ("8/8/8/8/4P3/8/8/8", "M e4-e3"),  # pawn backward
        ("8/8/8/8/4P3/8/8/8", "M e4-f4"),  # pawn sideways
        ("8/8/8/8/4P3/8/8/8", "M e4-e6"),  # two forward off the start rank
        ("8/8/8/8/4P3/8/8/8", "M e4-e7"),  # more than two forward
        ("8/8/8/8/4Q3/8/8/8", "M e4-e4"),  # from-square = to-square
    ]:
        strike("8/8/8/8/8/8/8/K7", mirror, order)


def test_lg_5a_3_the_piece_cannot_move_at_all_in_that_direction():
    for mirror, order in [
        ("8/8/8/8/8/8/P7/R7", "M a1-a8"),  # first square on the way holds your piece
        ("8/8/8/8/8/8/3P4/1N6", "M b1-d2"),  # knight onto your own piece
        ("8/8/8/8/8/8/3P4/4K3", "M e1-d2"),  # king onto your own piece
        ("8/8/8/3n4/3P4/8/8/8", "M d4-d5"),  # pawn's front square occupied (the author's example)
        ("8/8/8/8/3P4/8/8/8", "M d4-e5"),  # diagonal step with nothing to capture
    ]:
        strike("8/8/8/8/8/8/8/K7", mirror, order)


def test_lg_5a_strike_count_goes_to_both_players():
    state = position("8/8/8/8/8/8/8/K7", "8/8/8/8/8/8/8/k7")
    play(state, "white", "M d4-d5")
    outcome = play(state, "white", "M d4-d5")
    assert outcome.to["white"][0]["count"] == outcome.to["black"][0]["count"] == 2
    assert state.strikes == {"white": 2, "black": 0}


# --------------------------------------------------------------------------- LG-5b / LG-5c


def test_lg_5b_slider_stops_on_the_first_enemy_and_captures_it():
    state = position("8/8/8/8/8/8/8/K7", "8/8/8/8/p7/8/8/R6k")
    outcome = play(state, "white", "M a1-a8")
    assert outcome.result == "shortened"
    moved = outcome.to["white"][0]
    assert (moved["to"], moved["ordered"], moved["shortened"]) == ("a4", "a8", True)
    assert moved["captured"] == {"piece": "P", "color": "black", "square": "M:a4"}
    assert outcome.to["black"][0] == moved  # executed in Black's world: seen in full
    assert state.tray == "p"


def test_lg_5b_slider_stops_before_a_friendly_piece_even_on_the_to_square():
    state = position("K7/8/8/8/8/8/8/8", "8/8/8/P7/8/8/8/R6k")
    outcome = play(state, "white", "M a1-a5")
    assert outcome.result == "shortened"
    assert outcome.to["white"][0]["to"] == "a4"
    assert LG.to_json(state)["to_move"] == "black"  # a shortened move is your move


def test_lg_5b_pawn_double_step_onto_an_occupied_square_becomes_a_single_step():
    board = chess.BaseBoard("8/8/8/8/4n3/8/4P3/8")
    result = execute_blind(board, chess.E2, chess.E4, chess.WHITE, None)
    assert (result.kind, result.stop) == ("shortened", chess.E3)


def test_lg_5b_knights_kings_and_pawns_are_never_shortened():
    strike("8/8/8/8/8/8/8/K7", "8/8/8/8/8/2P5/8/1N6", "M b1-c3")
    state = position("8/8/8/8/8/8/8/K7", "8/8/8/8/8/2p5/8/1N6")
    assert play(state, "white", "M b1-c3").result == "moved"


def test_lg_5c_full_move_captures_an_enemy_on_the_to_square():
    state = position("8/8/8/8/8/8/8/K7", "8/8/8/8/b7/8/8/R6k")
    outcome = play(state, "white", "M a1-a4")
    assert outcome.result == "moved"
    assert outcome.to["white"][0]["captured"]["square"] == "M:a4"
    assert piece(state, "R:a4") == "R"  # then through the portal


# --------------------------------------------------------------------------- LG-5 impossible=forfeit


def test_lg_5_forfeit_impossible_order_gives_the_opponent_one_order_for_your_army():
    state = position("8/8/8/8/8/8/8/K7", "8/8/8/3n4/3P4/8/8/7k", impossible="forfeit")
    outcome = play(state, "white", "M d4-d5")
    assert outcome.result == "forfeit-order"
    assert state.strikes == {"white": 0, "black": 0}
    assert outcome.to["black"] == [{"kind": "forfeit", "color": "white", "order": "M:d4-d5"}]
    assert LG.orderer(state) == "black" and LG.army_to_move(state) == "white"
    assert play(state, "white", "R a1-a2").result == "rejected"
    # In Black's own world the proxy order follows LG-4: an illegal one is rejected.
    outcome = play(state, "black", "M d4-d6")
    assert outcome.result == "rejected"
    outcome = play(state, "black", "M d4-e5")
    assert outcome.result == "rejected"
    # In the other world it follows LG-5 without strikes: impossible hands the turn back.
    outcome = play(state, "black", "R a1-a3")
    assert outcome.result == "impossible"
    assert outcome.to["white"] == outcome.to["black"]
    assert LG.orderer(state) == "white"
    play(state, "white", "M d4-d5")
    # A proxy move that works is White's move, and both are told all of it.
    outcome = play(state, "black", "R a1-b1")
    assert outcome.result == "moved"
    assert outcome.to["white"][0] == outcome.to["black"][0]
    assert outcome.to["white"][0]["proxy"] is True
    assert LG.orderer(state) == "black" and LG.army_to_move(state) == "black"
    assert state.strikes == {"white": 0, "black": 0}


def test_lg_5_forfeit_no_castling_by_proxy():
    state = position(
        "8/8/8/8/8/8/8/R3K2R", "8/8/8/3n4/3P4/8/8/7k", impossible="forfeit",
        castling={"white": ["e1", "a1", "h1"], "black": []},
    )
    play(state, "white", "M d4-d5")
    outcome = play(state, "black", "O-O")
    assert outcome.result == "rejected"


# --------------------------------------------------------------------------- LG-6


def test_lg_6_a_piece_passes_its_portal_when_the_other_square_is_empty():
    state = started()
    outcome = play(state, "white", "R e2-e4")
    assert piece(state, "M:e4") == "P" and piece(state, "R:e4") is None
    assert outcome.to["black"][0] == {
        "kind": "landed", "color": "white", "square": "R:e4", "through": True, "captured": None,
    }


def test_lg_6_a_piece_stays_when_the_other_square_is_occupied():
    state = position("8/8/8/8/8/8/4P3/K7", "8/8/8/8/4r3/8/8/k7")
    outcome = play(state, "white", "R e2-e4")
    assert piece(state, "R:e4") == "P"
    assert outcome.to["white"][0]["through"] is False
    assert outcome.to["black"][0]["through"] is False


def test_lg_6_the_capture_is_removed_before_the_portal_check():
    state = position("8/8/8/n7/8/8/8/R6K", "8/8/8/8/8/8/8/7k")
    play(state, "white", "R a1-a5")
    assert piece(state, "M:a5") == "R" and piece(state, "R:a5") is None


# --------------------------------------------------------------------------- LG-7


def castling_position(real="8/8/8/8/8/8/8/R3K2R", mirror="8/8/8/8/8/8/8/7k"):
    return position(real, mirror, castling={"white": ["e1", "a1", "h1"], "black": []})


def test_lg_7_castling_king_and_rook_each_take_their_portal_check():
    state = castling_position(mirror="8/8/8/8/8/8/8/5n1k")
    outcome = play(state, "white", "O-O")
    assert outcome.result == "moved"
    assert piece(state, "M:g1") == "K"  # king through
    assert piece(state, "R:f1") == "R"  # rook stopped by the knight on M:f1
    assert [m["castle"] for m in outcome.to["white"] if m["kind"] == "moved"] == ["O-O", "O-O"]
    assert [(m["square"], m["through"]) for m in outcome.to["black"] if m["kind"] == "landed"] == [
        ("R:g1", True), ("R:f1", False),
    ]


def test_lg_7_queenside_castling_goes_to_c_and_d():
    state = castling_position(mirror="8/8/8/8/8/8/8/2n1n2k")
    play(state, "white", "O-O-O")
    assert piece(state, "R:c1") == "K" and piece(state, "M:d1") == "R"


def test_lg_7_chess960_piece_that_stays_put_gets_no_portal_check_and_no_message():
    state = position("8/8/8/8/8/8/8/6KR", "8/8/8/8/8/8/8/7k", castling={"white": ["g1", "h1"], "black": []})
    outcome = play(state, "white", "O-O")
    assert piece(state, "R:g1") == "K"  # the king did not move and stays in R
    assert piece(state, "M:f1") == "R"
    assert [m["piece"] for m in outcome.to["white"] if m["kind"] == "moved"] == ["R"]


def test_lg_7_castling_is_a_king_move_once_a_game_even_when_the_king_stays_put():
    """Chess960 castling where the king stays on g1 still uses up the king's castling (FIDE 3.8.2)."""
    state = position("8/8/8/8/8/8/8/1R4KR", "8/8/8/8/8/8/8/7k", castling={"white": ["b1", "g1", "h1"], "black": []})
    assert play(state, "white", "O-O").result == "moved"
    assert piece(state, "R:g1") == "K" and piece(state, "M:f1") == "R"
    play(state, "black", "M h1-h2")
    outcome = play(state, "white", "O-O-O")
    assert outcome.result == "rejected" and "king has already moved or castled" in outcome.to["white"][0]["reason"]
    assert piece(state, "R:g1") == "K" and piece(state, "R:b1") == "R"


def test_lg_7_castling_needs_unmoved_king_and_rook_and_empty_squares():
    state = castling_position(real="8/8/8/8/8/8/8/R3K1NR")
    outcome = play(state, "white", "O-O")
    assert outcome.result == "rejected" and "R:g1" in outcome.to["white"][0]["reason"]
    state = castling_position()
    state.castling["white"].remove("e1")
    assert "king has already moved" in play(state, "white", "O-O-O").to["white"][0]["reason"]
    state = castling_position()
    play(state, "white", "R h1-h2")  # the rook moves away (and comes through to M:h2)
    play(state, "black", "M h1-g1")
    outcome = play(state, "white", "O-O")
    assert "already moved" in outcome.to["white"][0]["reason"]


def test_lg_7_castling_only_in_the_home_world():
    state = castling_position()
    outcome = play(state, "white", "M O-O")
    assert outcome.result == "rejected" and "own world" in outcome.to["white"][0]["reason"]


# --------------------------------------------------------------------------- LG-8


def ep_position():
    return position("8/8/8/8/3p4/8/4P3/K7", "8/8/8/8/8/8/8/7k")


def test_lg_8_en_passant_removes_the_pawn_wherever_it_now_stands():
    state = ep_position()
    play(state, "white", "R e2-e4")
    assert piece(state, "M:e4") == "P"  # the double-stepped pawn went through
    outcome = play(state, "black", "R d4-e3")
    assert outcome.result == "moved"
    moved = outcome.to["black"][0]
    assert moved["en_passant"] is True
    assert moved["captured"] == {"piece": "P", "color": "white", "square": "M:e4"}
    assert piece(state, "M:e4") is None and piece(state, "M:e3") == "p"  # then LG-6 for the capturer
    assert state.tray == "P"


def test_lg_8_strikes_in_that_turn_do_not_end_en_passant():
    state = ep_position()
    play(state, "white", "R e2-e4")
    assert play(state, "black", "R h7-h6").result == "strike"
    assert play(state, "black", "ask").result == "answered"
    assert play(state, "black", "R d4-e3").result == "moved"


def test_lg_8_en_passant_lasts_one_turn_only():
    state = ep_position()
    play(state, "white", "R e2-e4")
    play(state, "black", "M h1-h2")
    play(state, "white", "R a1-a2")
    assert play(state, "black", "R d4-e3").result == "strike"


def test_lg_8_a_shortened_double_step_gives_no_en_passant():
    state = position("8/8/8/8/8/8/8/K7", "8/8/8/8/4n3/8/4P3/7k")
    assert play(state, "white", "M e2-e4").result == "shortened"
    assert state.ep is None


# --------------------------------------------------------------------------- LG-9


def test_lg_9_mover_learns_where_it_ended_opponent_only_the_portal_question():
    state = started()
    outcome = play(state, "white", "R g1-f3")
    assert outcome.to["white"][0]["final"] == "M:f3"
    landed = outcome.to["black"][0]
    assert landed == {"kind": "landed", "color": "white", "square": "R:f3", "through": True, "captured": None}
    assert "piece" not in landed  # the type is not told, only seen when it arrives


def test_lg_9_arrival_announces_attacked_enemies_and_the_pawn_front_to_both():
    state = position("8/8/8/8/8/8/3P4/K7", "8/8/2n1b3/4q3/3r4/8/8/7k")
    outcome = play(state, "white", "R d2-d3")
    arrival = outcome.to["white"][-1]
    assert arrival == outcome.to["black"][-1]
    assert arrival["square"] == "M:d3"
    assert arrival["attacks"] == []
    assert arrival["front"] == {"piece": "R", "color": "black"}
    state = position("8/8/8/8/8/8/8/K4N2", "8/8/8/3n4/8/4b3/3r4/7k")
    outcome = play(state, "white", "R f1-e3")  # stays: M:e3 is taken
    assert kinds(outcome.to["white"]) == ["moved"]
    state = position("8/8/8/8/8/8/8/K4N2", "8/8/8/3n4/8/8/2r5/7k")
    outcome = play(state, "white", "R f1-e3")
    arrival = outcome.to["black"][-1]
    assert arrival["attacks"] == [
        {"piece": "R", "color": "black", "square": "M:c2"},
        {"piece": "N", "color": "black", "square": "M:d5"},
    ]
    assert arrival["front"] is None


def test_lg_9_arrival_announced_even_when_a_piece_comes_back_home():
    state = position("8/8/8/8/8/8/8/K7", "8/8/8/8/8/8/8/N6k")
    state.worlds["R"].set_piece_at(chess.C2, chess.Piece.from_symbol("p"))
    outcome = play(state, "white", "M a1-b3")  # back into R
    assert outcome.to["black"][-1]["square"] == "R:b3"
    assert outcome.to["black"][-1]["attacks"] == []


def test_lg_9_question_answered_to_the_asker_and_the_opponent_told_it_was_asked():
    state = position("8/8/8/8/8/8/8/K7", "8/8/8/8/8/8/8/7k")
    outcome = play(state, "white", "ask")
    assert outcome.to["white"] == [{"kind": "answer", "world": "M", "legal_move": False}]
    assert outcome.to["black"] == [{"kind": "asked", "color": "white", "world": "M"}]
    state = position("8/8/8/8/8/8/8/K7", "8/8/8/8/8/8/8/N6k")
    assert play(state, "white", "ask").to["white"][0]["legal_move"] is True


# --------------------------------------------------------------------------- LG-10


def test_lg_10_notebook_records_reports_with_their_move_number():
    state = position("8/8/8/8/8/8/8/K4N2", "8/8/8/3n4/8/8/2r5/7k")
    play(state, "white", "R f1-e3")
    view = LG.view(state, "white")
    assert view["notebook"] == "8/8/8/3n4/8/4N3/2r5/8"
    assert view["marks"] == {"c2": 1, "d5": 1}
    assert LG.view(state, "black")["notebook"] == "8/8/8/8/8/8/8/8"  # Black's pieces are at home


def test_lg_10_closed_portal_records_a_piece_of_unknown_type():
    state = position("8/8/8/8/8/8/8/K7", "8/8/8/8/8/8/8/n6k", to_move="black")
    state.worlds["R"].set_piece_at(chess.B3, chess.Piece.from_symbol("B"))
    play(state, "black", "M a1-b3")  # R:b3 is taken: the knight stays in M
    view = LG.view(state, "white")
    assert view["unknown"] == ["b3"] and view["marks"] == {"b3": 1}
    # Black's own portal question was answered "occupied", and Black has no piece in R:
    assert LG.view(state, "black")["unknown"] == ["b3"]


def test_lg_10_entry_removed_when_a_later_message_shows_the_square_empty():
    state = position("8/8/8/8/8/8/8/K4N2", "8/8/8/3n4/8/8/2r5/7k")
    play(state, "white", "R f1-e3")
    assert "c2" in LG.view(state, "white")["marks"]
    play(state, "black", "M c2-c1")  # White hears only "landed on c1, portal open"
    assert LG.view(state, "white")["marks"] == {"c2": 1, "d5": 1}  # no reasoning beyond reports
    outcome = play(state, "white", "M e3-c2")  # a full move onto c2 shows it empty
    assert outcome.to["white"][0]["captured"] is None
    assert LG.view(state, "white")["marks"] == {"d5": 1}


def test_lg_10_notebook_never_shows_unreported_enemy_pieces():
    state = started()
    for side, order in [("white", "R e2-e4"), ("black", "M e7-e5"), ("white", "R d2-d4")]:
        play(state, side, order)
    notebook = LG.view(state, "white")["notebook"]
    assert set(notebook) <= set("8/12345670PNBRQK")  # no black letter was ever reported


# --------------------------------------------------------------------------- LG-11


def test_lg_11_capturing_the_king_wins_after_the_move_is_completed():
    state = position("8/8/8/8/8/8/8/K7", "8/8/8/8/8/8/8/R3k3")
    outcome = play(state, "white", "M a1-e1")
    assert kinds(outcome.to["white"]) == ["moved", "arrived", "end"]
    assert outcome.to["black"][-1] == {"kind": "end", "result": "1-0", "reason": "king captured"}
    assert piece(state, "R:e1") == "R"
    assert LG.result(state) == ("1-0", "king captured") and LG.orderer(state) is None


def test_lg_11_third_strike_loses_and_the_limit_is_an_option():
    state = position("8/8/8/8/8/8/8/K7", "8/8/8/8/8/8/8/7k")
    for _ in range(3):
        outcome = play(state, "white", "M d4-d5")
    assert LG.result(state) == ("0-1", "strikes")
    assert outcome.to["white"][-1]["kind"] == "end"
    state = position("8/8/8/8/8/8/8/K7", "8/8/8/8/8/8/8/7k", strikes=1)
    play(state, "white", "M d4-d5")
    assert LG.result(state) == ("0-1", "strikes")


def test_lg_11_no_legal_move_in_either_world_is_stalemate():
    state = position("8/8/8/8/8/8/8/K7", "8/8/8/8/8/p7/P7/8")
    outcome = play(state, "white", "R a1-b1")
    assert LG.result(state) == ("1/2-1/2", "stalemate")
    assert outcome.to["black"][-1]["reason"] == "stalemate"


def test_lg_11_resignation_and_draw_by_agreement():
    state = started()
    assert play(state, "black", "resign").result == "resigned"
    assert LG.result(state) == ("1-0", "resigned")
    state = started()
    assert play(state, "white", "accept draw").result == "rejected"
    assert play(state, "white", "offer draw").result == "offered"
    assert play(state, "black", "decline draw").result == "declined"
    assert play(state, "black", "accept draw").result == "rejected"
    play(state, "black", "offer draw")
    assert play(state, "white", "accept draw").result == "drawn"
    assert LG.result(state) == ("1/2-1/2", "agreement")


def test_lg_11_a_move_answers_a_standing_draw_offer():
    state = started()
    play(state, "black", "offer draw")
    play(state, "white", "R e2-e4")
    assert play(state, "white", "accept draw").result == "rejected"


def test_lg_11_extinction_a_piece_type_gone_from_both_worlds_loses():
    black_army = "qrbnk3/p7/8/8/8/8/8/8"
    state = position("8/8/8/8/8/8/8/KQRBNP2", black_army, win="extinction")
    state.worlds["M"].set_piece_at(chess.D1, chess.Piece.from_symbol("R"))
    outcome = play(state, "white", "M d1-d8")  # captures the only black knight
    assert LG.result(state) == ("1-0", "extinction")
    assert outcome.to["white"][-1]["reason"] == "extinction"


def test_lg_11_extinction_king_capture_alone_is_not_special_with_two_kings():
    state = position("8/P7/8/8/8/8/8/KQRBN3", "8/8/8/8/8/8/p7/qrbnk2K", win="extinction")
    outcome = play(state, "white", "R a7-a8=K")
    assert outcome.result == "moved"
    assert LG.result(state) == ("0-1", "extinction")  # White promoted its last pawn away
