"""The fast FEN placement used by views agrees with python-chess."""

import random

import chess

from app.rules.placement import board_placement, cells_of, placement


def test_placement_matches_python_chess_board_fen():
    rng = random.Random(5)
    for _ in range(300):
        board = chess.BaseBoard(None)
        for square in rng.sample(range(64), rng.randrange(0, 40)):
            board.set_piece_at(square, chess.Piece(rng.randrange(1, 7), rng.random() < 0.5))
        assert board_placement(board) == board.board_fen()
        for color in chess.COLORS:
            only = chess.BaseBoard(None)
            for square in chess.scan_forward(board.occupied_co[color]):
                only.set_piece_at(square, board.piece_at(square))
            assert placement(cells_of(board, color)) == only.board_fen()
