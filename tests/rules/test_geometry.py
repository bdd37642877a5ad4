"""Single-world movement (LG-3, LG-4, LG-5) cross-checked against python-chess."""

import random

import chess
import pytest

from app.rules.looking_glass.movement import destinations, execute_blind, home_reason


def random_positions(count, seed):
    rng = random.Random(seed)
    for _ in range(count):
        board = chess.Board()
        for _ in range(rng.randrange(0, 80)):
            moves = list(board.pseudo_legal_moves)
            if not moves or board.king(chess.WHITE) is None or board.king(chess.BLACK) is None:
                break
            board.push(rng.choice(moves))
        yield board


@pytest.mark.parametrize("seed", range(4))
def test_lg_3_single_world_moves_match_python_chess_pseudo_legal_moves(seed):
    """Without castling, a home-world order is legal exactly when python-chess calls it pseudo-legal,
    and a blind order is a full move (LG-5c) exactly then too."""
    for board in random_positions(60, seed):
        color = board.turn
        expected = {
            (move.from_square, move.to_square)
            for move in board.generate_pseudo_legal_moves()
            if not board.is_castling(move)
        }
        base = chess.BaseBoard(board.board_fen())
        ours = set()
        for from_square in chess.scan_forward(base.occupied_co[color]):
            for to_square in chess.scan_forward(destinations(base, from_square, board.ep_square)):
                ours.add((from_square, to_square))
            for to_square in chess.SQUARES:
                legal = home_reason(base, from_square, to_square, color, board.ep_square, "R") is None
                blind = execute_blind(base, from_square, to_square, color, board.ep_square)
                pair = (from_square, to_square)
                assert legal == (pair in expected), (board.fen(), pair)
                assert (blind.kind == "full") == (pair in expected), (board.fen(), pair)
                if blind.kind == "shortened":
                    assert (from_square, blind.stop) in expected  # LG-5b ends on a reachable square
        assert ours == expected, board.fen()
