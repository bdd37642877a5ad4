"""What the referee announces after a move (KS-3): captures, check directions, pawn tries.

Each is worked out from the true position and told to both players; nothing else about the
move is. Directions are seen from the checked king:

- ``rank`` and ``file``: a rook or queen along the king's rank or file;
- ``long-diagonal`` and ``short-diagonal``: a bishop, queen or pawn on one of the two
  diagonals through the king's square, the long one being the one with more squares. On an
  8x8 board the two are never equally long: a diagonal through file f and rank r has
  8 - |f - r| squares, the other 8 - |f + r - 7|, and those two numbers always differ by an
  odd number (one is even, the other odd), so every square has exactly one long diagonal;
- ``knight``.
"""

from __future__ import annotations

import chess

DIRECTIONS = ("rank", "file", "long-diagonal", "short-diagonal", "knight")  # the order they are told in


def diagonal_lengths(square: chess.Square) -> tuple[int, int]:
    """Squares on the rising (a1-h8 way) and the falling (a8-h1 way) diagonal through ``square``."""
    file, rank = chess.square_file(square), chess.square_rank(square)
    return 8 - abs(file - rank), 8 - abs(file + rank - 7)


RISING_IS_LONG = tuple(rising > falling for rising, falling in map(diagonal_lengths, chess.SQUARES))


def direction(king: chess.Square, checker: chess.Square) -> str:
    """The direction of a checking man as seen from the king it checks."""
    files = chess.square_file(checker) - chess.square_file(king)
    ranks = chess.square_rank(checker) - chess.square_rank(king)
    if ranks == 0:
        return "rank"
    if files == 0:
        return "file"
    if abs(files) != abs(ranks):
        return "knight"
    rising = files == ranks
    return "long-diagonal" if rising == RISING_IS_LONG[king] else "short-diagonal"


def check_directions(board: chess.Board) -> list[str]:
    """The directions of every man checking the side to move (two for a double check); none when not in check."""
    checkers = board.checkers_mask()
    if not checkers:
        return []
    king = board.king(board.turn)
    assert king is not None
    found = {direction(king, checker) for checker in chess.scan_forward(checkers)}
    return [name for name in DIRECTIONS if name in found]


def pawn_tries(board: chess.Board) -> int:
    """The side to move's legal captures by pawns, en passant included (a pinned pawn's are not legal).

    A capture onto the last rank counts once, whatever the pawn would become.
    """
    color = board.turn
    targets = board.occupied_co[not color]
    if board.ep_square is not None:
        targets |= chess.BB_SQUARES[board.ep_square]
    count = 0
    for move in board.generate_legal_moves(board.pawns & board.occupied_co[color], targets):
        if move.promotion is None or move.promotion == chess.QUEEN:
            count += 1
    return count
