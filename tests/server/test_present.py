"""The diagrams of mails and pages read FEN placements as python-chess does."""

import random

import chess

from app.games.present import cells


def test_cells_put_every_piece_where_python_chess_has_it():
    rng = random.Random(11)
    for _ in range(200):
        board = chess.BaseBoard.empty()
        for square in rng.sample(chess.SQUARES, rng.randint(0, 32)):
            board.set_piece_at(square, chess.Piece(rng.choice(chess.PIECE_TYPES), rng.choice(chess.COLORS)))
        rows = cells(board.board_fen())
        assert [len(row) for row in rows] == [8] * 8
        for square in chess.SQUARES:
            piece = board.piece_at(square)
            assert rows[7 - chess.square_rank(square)][chess.square_file(square)] == (piece.symbol() if piece else ".")
