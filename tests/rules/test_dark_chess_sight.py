"""DC-3: what each player sees, checked against python-chess's own move generation, and against the fog: no
refusal (DC-2) and no example order depends on anything the player cannot see."""

from __future__ import annotations

import random

import chess
import pytest

from app.rules.dark_chess.state import GameState
from app.rules.fide import moves_of, order_text
from tests.rules.dark_chess_helpers import DC, play_all, position, random_game
from tests.rules.test_dark_chess_perft import brute_castles

SIDES = {"white": chess.WHITE, "black": chess.BLACK}


def sight_by_python_chess(state: GameState, side: str) -> dict[str, str]:
    """Every square a man of ``side``'s could move to, as if it were their turn (python-chess's pseudo-legal
    moves, its attack-checked castling left out, castling found square by square), with what stands there; for
    the player to move, the pawn an en passant capture would take."""
    board = chess.Board(state.board.fen(), chess960=True)
    to_move = board.turn == SIDES[side]
    board.turn = SIDES[side]
    if not to_move:
        board.ep_square = None
    targets = {move.to_square for move in board.generate_pseudo_legal_moves() if not board.is_castling(move)}
    for move in board.generate_pseudo_legal_moves():
        if board.is_en_passant(move):
            targets.add(chess.square(chess.square_file(move.to_square), chess.square_rank(move.from_square)))
    for castle in brute_castles(board):
        king_to = 2 if castle.to_square < castle.from_square else 6
        targets.add(chess.square(king_to, chess.square_rank(castle.from_square)))
    own = board.occupied_co[SIDES[side]]
    return {chess.square_name(square): (board.piece_at(square).symbol() if board.piece_at(square) else "")
            for square in targets if not own & chess.BB_SQUARES[square]}


def test_dc3_at_the_start_each_player_sees_the_two_ranks_before_their_pawns():
    state = DC.new_game({})
    white = DC.view(state, "white")
    assert white["own"] == "8/8/8/8/8/8/PPPPPPPP/RNBQKBNR"
    assert white["seen"] == {f"{file}{rank}": "" for rank in "34" for file in "abcdefgh"}
    assert set(DC.view(state, "black")["seen"]) == {f"{file}{rank}" for rank in "65" for file in "abcdefgh"}


@pytest.mark.parametrize("setup", ["standard", "chess960"])
def test_dc3_sight_is_every_square_a_man_could_move_to_with_what_stands_there(setup):
    """Random games, every position, both players: the view's squares are python-chess's count of them."""
    checked = 0
    for seed in range(6):
        for _side, _order, outcome, state in random_game(seed, 120, setup):
            if outcome.result != "moved" or state.result is not None:
                continue
            for side in SIDES:
                view = DC.view(state, side)
                assert chess.BaseBoard(view["own"]) == own_men(state, side)
                assert view["seen"] == sight_by_python_chess(state, side), (state.board.fen(), side)
                checked += 1
    assert checked > 400


def own_men(state: GameState, side: str) -> chess.BaseBoard:
    board = chess.BaseBoard(state.board.board_fen())
    for square in chess.scan_forward(board.occupied_co[not SIDES[side]]):
        board.remove_piece_at(square)
    return board


def test_dc3_a_pawn_sees_ahead_only_where_it_could_step_and_aside_only_where_it_could_capture():
    state = position("4k3/8/8/3n4/3P4/8/4P3/4K3 w - - 0 1")  # d4 blocked by the knight; e2 free to step twice
    seen = DC.view(state, "white")["seen"]
    assert "d5" not in seen  # a knight stands there: blocked, so fog
    assert seen["e3"] == seen["e4"] == ""
    assert "c5" not in seen and "e5" not in seen  # no capture there: nothing to see
    state = position("4k3/8/8/2p5/3P4/8/8/4K3 w - - 0 1")
    assert DC.view(state, "white")["seen"]["c5"] == "p"


def test_dc3_en_passant_is_seen_by_the_player_to_move_only():
    state = position("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1")
    play_all(state, "d7-d5")
    white = DC.view(state, "white")["seen"]
    assert white["d6"] == "" and white["d5"] == "p"  # the passed square and the pawn it would take
    play_all(state, "e1-e2")  # the chance is gone: the pawn on d5 is in the fog again
    assert "d5" not in DC.view(state, "white")["seen"]


def test_dc3_the_square_castling_takes_the_king_to_is_in_sight_whatever_attacks_it():
    state = position("4k3/8/8/8/8/6r1/8/4K2R w K - 0 1")  # the rook on g3 attacks g1
    seen = DC.view(state, "white")["seen"]
    assert seen["g1"] == "" and "O-O" in DC.legal_orders(state)


def test_dc3_at_the_end_both_players_see_the_whole_board():
    state = position("4k3/8/8/8/8/8/4q3/4K3 w - - 0 1")
    play_all(state, "e1-d1", "e2-d1")
    for side in SIDES:
        assert DC.view(state, side)["board"] == state.board.board_fen() == "4k3/8/8/8/8/8/8/3q4"


def fog_changed(state: GameState, side: str, rng: random.Random) -> GameState:
    """The same game with what stands in ``side``'s fog changed, square by square, wherever the change leaves
    their view as it was (a man put where one of their pawns could take it, or taken off the square a pawn of
    theirs is blocked by, would come into sight): men taken off, put on or changed for others of the enemy's,
    never the enemy's king; the player's own men, castling rights, en passant and whose move as they were."""
    board = state.board.copy(stack=False)
    view = DC.view(state, side)
    fog = set(chess.SQUARES) - {chess.parse_square(name) for name in view["seen"]} - set(
        chess.scan_forward(board.occupied_co[SIDES[side]]))
    for square in rng.sample(sorted(fog), len(fog)):
        before = board.piece_at(square)
        if before is not None and before.piece_type == chess.KING:
            continue
        kind = rng.choice([chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN])
        if before is not None and rng.random() < 0.4:
            board.remove_piece_at(square)
        elif (before is not None or rng.random() < 0.3) and (before is None or kind != before.piece_type):
            board.set_piece_at(square, chess.Piece(kind, not SIDES[side]))  # another man, or one where none was
        else:
            continue
        if DC.view(moved_to(state, board), side) != view:
            board.set_piece_at(square, before) if before else board.remove_piece_at(square)
    return moved_to(state, board)


def moved_to(state: GameState, board: chess.Board) -> GameState:
    """A game whose position is ``board`` (the en passant square kept as python-chess has it)."""
    other = GameState(options=state.options, start=board.fen(en_passant="fen"))
    other.tray = state.tray
    return other


def every_order(castles: bool) -> list[str]:
    """Every from-square to every other square, with a knight's promotion from the ranks a pawn promotes from."""
    names = chess.SQUARE_NAMES
    orders = [f"{start}-{end}" for start in names for end in names if start != end]
    orders += [f"{start}-{end}=N" for start in names if start[1] in "27" for end in names if end[1] in "18"]
    return orders + (["O-O", "O-O-O"] if castles else [])


@pytest.mark.parametrize("setup", ["standard", "chess960"])
def test_dc2_dc3_no_order_is_played_or_refused_otherwise_for_what_stands_in_the_players_fog(setup):
    """Every order that can be written, on the true position and on one whose fog holds other men: the same move
    played, or the same refusal with the same reason, as the player's view already shows (DC-2). In Chess960 a
    square a castling king or rook crosses may lie in the fog (the game itself lets the player infer it), so
    castling is left out there."""
    rng = random.Random(setup)
    compared = 0
    for seed in range(3):
        for _side, _order, outcome, state in random_game(seed, 60, setup):
            if outcome.result != "moved" or state.result is not None or rng.random() < 0.9:
                continue
            side = DC.orderer(state)
            other = fog_changed(state, side, rng)
            assert DC.view(other, side) == DC.view(state, side) and other.board != state.board
            ours, theirs = moved_to(state, state.board), moved_to(state, other.board)
            for order in every_order(castles=setup == "standard"):
                told, heard = DC.play(ours, side, order), DC.play(theirs, side, order)
                if told.result == "moved":
                    ours, theirs = moved_to(state, state.board), moved_to(state, other.board)
                if setup == "chess960" and "O-O" in str(told.to[side][:1]):
                    continue  # castling, written as the king onto its rook
                assert (told.result, told.to[side][:1]) == (heard.result, heard.to[side][:1]), order
                compared += 1
    assert compared > 10_000


@pytest.mark.parametrize("setup", ["standard", "chess960"])
def test_dc3_the_order_forms_examples_and_did_you_mean_come_from_the_view_and_are_all_moves(setup):
    """The moves the view shows are exactly the moves there are, castling, en passant and the minor promotions
    aside (each has a form of its own): worked out from the view alone, they reveal nothing and mislead no one."""
    for seed in range(4):
        for _side, _order, outcome, state in random_game(seed, 80, setup):
            side = DC.orderer(state)
            if side is None or outcome.result != "moved":
                continue
            board = state.board
            legal = {order_text(board, move): move for move in moves_of(board, check=False)}
            assert sorted(legal) == sorted(DC.legal_orders(state))
            plain = {order for order, move in legal.items() if not board.is_castling(move)
                     and not board.is_en_passant(move) and move.promotion in (None, chess.QUEEN)}
            view = DC.view(state, side)
            assert set(DC.plausible_orders(view, side)) == plain
            assert set(DC.example_orders(view, side)) <= plain and len(DC.example_orders(view, side)) == min(3, len(
                plain))
