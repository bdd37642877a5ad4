"""What python-chess does for ordinary chess, the baseline every referee is measured against in the same run.

Per ply: ``push`` plus generating the moves of the position (legal moves, or pseudo-legal ones for a
variant without check). Per perft node: python-chess's own perft, the plain recursive count of legal
moves with push and pop, counting the last level without making its moves, as the variants' perft does.
"""

from __future__ import annotations

import random

import chess


def record_games(games: int, plies: int, seed: int = 2026) -> list[list[chess.Move]]:
    """Random legal standard games of up to ``plies`` plies (fewer when one ends)."""
    rng = random.Random(seed)
    recorded = []
    for _ in range(games):
        board = chess.Board()
        moves = []
        for _ in range(plies):
            choices = list(board.generate_legal_moves())
            if not choices:
                break
            move = rng.choice(choices)
            moves.append(move)
            board.push(move)
        recorded.append(moves)
    return recorded


def replay(games: list[list[chess.Move]], legal: bool) -> int:
    """Generate each position's moves and push the recorded one; how many plies."""
    count = 0
    for moves in games:
        board = chess.Board()
        generate = board.generate_legal_moves if legal else board.generate_pseudo_legal_moves
        for move in moves:
            list(generate())
            board.push(move)
            count += 1
    return count


def perft(board: chess.Board, depth: int) -> int:
    """The number of legal move sequences of ``depth`` plies from ``board`` (depth 1 or more)."""
    if depth == 1:
        return board.legal_moves.count()
    nodes = 0
    for move in board.generate_legal_moves():
        board.push(move)
        nodes += perft(board, depth - 1)
        board.pop()
    return nodes
