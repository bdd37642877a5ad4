"""The fast FEN placement used by views agrees with python-chess."""

import random

import chess

from app.rules.placement import board_from_placement, board_placement, cells_of, placement


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


def test_a_board_read_back_after_writing_has_exactly_the_written_pieces():
    board = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
    written = board_placement(board)
    read = board_from_placement(written)
    assert read.board_fen() == board.board_fen() == written
    assert read is not board_from_placement(written)  # each reader gets its own board


def test_changing_a_board_read_back_never_changes_a_later_read():
    written = board_placement(chess.BaseBoard("8/8/8/3k4/8/8/4P3/4K3"))
    first = board_from_placement(written)
    first.remove_piece_at(chess.E2)
    first.set_piece_at(chess.A1, chess.Piece(chess.QUEEN, chess.WHITE))
    assert board_from_placement(written).board_fen() == "8/8/8/3k4/8/8/4P3/4K3"


def test_changing_the_original_after_writing_never_changes_what_is_read():
    board = chess.BaseBoard("8/8/8/3k4/8/8/4P3/4K3")
    written = board_placement(board)
    board.remove_piece_at(chess.E2)
    assert board_from_placement(written).board_fen() == written
