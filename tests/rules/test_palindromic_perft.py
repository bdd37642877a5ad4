"""Palindromic Chess move generation: perft figures, and the fast walk against a slow independent one."""

import json
import random
import re

import chess
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules.base import Variant
from app.rules.palindromic import seen
from app.rules.palindromic.random_orders import random_order
from app.rules.palindromic.state import GameState
from app.rules.palindromic.view import destinations
from tests.rules.palindromic_helpers import PAL, REVERSED, new_game, one_knight_away

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --------------------------------------------------------------------------- the slow walk


def slow_home(board: chess.Board, left: int, color: chess.Color) -> bool:
    """PAL-4 home, read off the view's destination listing (independent of the bitboard test)."""
    away = destinations(board, left)
    return not any(board.color_at(chess.parse_square(square)) == color for square in away)


def slow_moves(board: chess.Board) -> list[chess.Move]:
    """PAL-3 straight from python-chess: its legal moves, captures (en passant too) and promotions dropped."""
    return [move for move in board.legal_moves if not board.is_capture(move) and not move.promotion]


def slow_hands(board: chess.Board, left: int, move: chess.Move) -> int:
    if left & chess.BB_SQUARES[move.from_square]:
        return left & ~chess.BB_SQUARES[move.from_square] | chess.BB_SQUARES[move.to_square]
    if board.is_castling(move) and left & chess.BB_SQUARES[move.to_square]:
        rook_file = 3 if chess.square_file(move.to_square) < chess.square_file(move.from_square) else 5
        return left & ~chess.BB_SQUARES[move.to_square] | chess.BB_SQUARES[
            chess.square(rook_file, chess.square_rank(move.to_square))]
    return left


def slow_ready(board: chess.Board, left: int) -> chess.Board | None:
    """The board with the player to move ready (a pass made on a copy), None after the reversal."""
    if slow_home(board, left, chess.WHITE) and slow_home(board, left, chess.BLACK):
        return None
    if slow_home(board, left, board.turn):
        board = board.copy()
        board.turn = not board.turn
        board.ep_square = None
    return board


def slow_count(board: chess.Board, left: int, depth: int) -> int:
    ready = slow_ready(board, left)
    if ready is None:
        return 0
    total = 0
    for move in slow_moves(ready):
        if depth == 1:
            total += 1
            continue
        child = ready.copy()
        child.push(move)
        total += slow_count(child, slow_hands(ready, left, move), depth - 1)
    return total


def slow_divide(state: GameState, depth: int) -> dict[str, int]:
    ready = slow_ready(state.board.copy(), state.left)
    if ready is None:
        return {}
    divide = {}
    for move in slow_moves(ready):
        if ready.is_castling(move):
            order = "O-O-O" if move.to_square < move.from_square else "O-O"
        else:
            order = f"{chess.square_name(move.from_square)}-{chess.square_name(move.to_square)}"
        child = ready.copy()
        child.push(move)
        divide[order] = 1 if depth == 1 else slow_count(child, slow_hands(ready, state.left, move), depth - 1)
    return divide


# --------------------------------------------------------------------------- figures


def test_PAL_perft_from_the_start():
    state = new_game()
    assert sum(PAL.perft(state, 1).values()) == 20  # the public interface
    assert sum(PAL.perft(state, 2).values()) == 400
    assert sum(PAL.perft(state, 3).values()) == 8868  # FIDE's 8902 less the 34 captures at the third ply
    assert sum(PAL.perft(state, 4).values()) == 195271
    assert set(PAL.perft(state, 1)) == set(PAL.legal_orders(state))
    assert PAL.perft(state, 3) == slow_divide(state, 3)


def test_PAL_4_perft_passes_for_a_home_player_and_stops_at_the_reversal():
    state = one_knight_away()
    two = PAL.perft(state, 2)
    # After g4-f6 Black, home, is passed for; White has the knight's d5, e4, g4, h5 and g8, b8-a6, b8-c6, h8-g8.
    assert two["g4-f6"] == 8
    three = PAL.perft(state, 3)
    assert three == slow_divide(state, 3)
    PAL.play(state, "white", "g4-f6")
    assert PAL.automatic(state) is not None  # the pass, which is not a ply ...
    after = PAL.perft(state, 2)
    assert sum(after.values()) == three["g4-f6"]
    assert after["f6-g8"] == 0  # ... and after f6-g8, the reversal, nothing more



def test_PAL_perft_agrees_with_the_generic_walk_through_play():
    """The base class's perft replays each legal order through ``play`` and ``automatic``."""
    state = new_game()
    assert Variant.perft(PAL, state, 2) == PAL.perft(state, 2)
    near = one_knight_away()
    assert Variant.perft(PAL, near, 2) == PAL.perft(near, 2)


# --------------------------------------------------------------------------- properties


def random_game(seed: int, plies: int) -> GameState:
    rng = random.Random(seed)
    state = new_game()
    for _ in range(plies):
        side = PAL.orderer(state)
        if side is None:
            break
        PAL.play(state, side, random_order(state, side, rng))
        while PAL.automatic(state) is not None:
            pass
    return state


def near_reversal(seed: int) -> GameState:
    """The reversal with a few pieces of each side moved off it: passes and the reversal come within reach."""
    rng = random.Random(seed)
    while True:
        board = chess.Board(None, chess960=True)
        board.set_board_fen(REVERSED)
        left = chess.BB_A8 | chess.BB_H1
        for color in chess.COLORS:
            movable = list(chess.scan_forward(board.occupied_co[color] & ~board.kings))
            for square in rng.sample(movable, rng.randrange(3)):
                target = rng.choice([sq for sq in chess.SQUARES if board.piece_at(sq) is None
                                     and chess.square_rank(sq) not in (0, 7)])
                piece = board.remove_piece_at(square)
                board.set_piece_at(target, piece)
                if left & chess.BB_SQUARES[square]:
                    left ^= chess.BB_SQUARES[square] | chess.BB_SQUARES[target]
        board.turn = rng.choice(chess.COLORS)
        if board.is_valid():
            return GameState(board=board, left=left)


@SETTINGS
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 80))
def test_PAL_fast_perft_matches_the_slow_walk_in_random_positions(seed, plies):
    state = random_game(seed, plies)
    assert PAL.perft(state, 2) == slow_divide(state, 2)
    assert sorted(PAL.legal_orders(state)) == sorted(slow_divide(state, 1))


@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_PAL_fast_perft_matches_the_slow_walk_near_the_reversal(seed):
    state = near_reversal(seed)
    assert PAL.perft(state, 3) == slow_divide(state, 3)


@SETTINGS
@given(seed=st.integers(0, 2**32), plies=st.integers(20, 120))
def test_PAL_invariants_and_json_in_random_games(seed, plies):
    """Nothing is ever captured or promoted; each side keeps one rook of each hand; every legal order plays
    as a move; the state round-trips through JSON exactly and plays on identically; the view worked out
    from the last one is the view worked out from scratch."""
    rng = random.Random(seed)
    state = new_game()
    results = set()
    for _ in range(plies):
        side = PAL.orderer(state)
        if side is None:
            break
        orders = PAL.legal_orders(state)
        assert len(orders) == len(set(orders)) > 0
        trial = PAL.from_json(PAL.to_json(state))
        assert PAL.play(trial, side, rng.choice(orders)).result == "moved"
        data = json.loads(json.dumps(PAL.to_json(state)))
        twin = PAL.from_json(data)
        assert PAL.to_json(twin) == data
        order = random_order(state, side, rng)
        outcome = PAL.play(state, side, order)
        assert PAL.play(twin, side, order).to == outcome.to
        results.add(outcome.result)
        if outcome.result in ("rejected", "error"):
            assert outcome.to["black" if side == "white" else "white"] == []
        while (made := PAL.automatic(state)) is not None:
            assert PAL.automatic(twin) == made
        assert PAL.to_json(twin) == PAL.to_json(state)
        view = PAL.view(state, "white")  # read from the last position, square by square where the move changed it
        seen.forget()
        assert PAL.view(state, "black") == view  # read from scratch
        assert view["destinations"] == destinations(state.board, state.left)
        board = state.board
        assert chess.popcount(board.occupied_co[chess.WHITE]) == chess.popcount(board.occupied_co[chess.BLACK]) == 16
        assert not board.pawns & chess.BB_BACKRANKS
        for color in ("[A-Z]", "[a-z]"):
            rooks = [hand for square, hand in PAL.view(state, "white")["handed"].items()
                     if re.fullmatch(color, piece_letter(board, square))]
            assert sorted(rooks) == ["left", "right"]
    assert "moved" in results


def piece_letter(board: chess.Board, square: str) -> str:
    piece = board.piece_at(chess.parse_square(square))
    assert piece is not None
    return piece.symbol()
