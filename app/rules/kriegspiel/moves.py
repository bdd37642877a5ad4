"""Legal moves in canonical order form, and perft (KS-1: python-chess decides all FIDE legality).

Canonical orders are ``e2-e4``, ``e7-e8=Q``, ``O-O`` and ``O-O-O``, whatever the board's
castling encoding (python-chess writes Chess960 castling as the king taking its rook).
"""

from __future__ import annotations

import chess


def order_text(board: chess.Board, move: chess.Move) -> str:
    """The canonical order for a legal move of ``board``."""
    if board.is_castling(move):
        return "O-O" if board.is_kingside_castling(move) else "O-O-O"
    suffix = "=" + chess.piece_symbol(move.promotion).upper() if move.promotion else ""
    return f"{chess.square_name(move.from_square)}-{chess.square_name(move.to_square)}{suffix}"


def castle_destination(board: chess.Board, move: chess.Move) -> chess.Square:
    """Where castling puts the king: the g-file or the c-file of its rank."""
    file = 6 if board.is_kingside_castling(move) else 2
    return chess.square(file, chess.square_rank(move.from_square))


def legal_by_order(board: chess.Board, from_mask: chess.Bitboard = chess.BB_ALL) -> dict[str, chess.Move]:
    """Every legal move from a square of ``from_mask``, by canonical order.

    Castling is also found under the king's own step when that step is two files or more (``e1-g1`` from
    the standard start); a king step of one file is never read as castling.
    """
    found: dict[str, chess.Move] = {}
    for move in board.generate_legal_moves(from_mask):
        found[order_text(board, move)] = move
        if board.is_castling(move):
            destination = castle_destination(board, move)
            if abs(chess.square_file(destination) - chess.square_file(move.from_square)) >= 2:
                found[f"{chess.square_name(move.from_square)}-{chess.square_name(destination)}"] = move
    return found


def legal_orders(board: chess.Board) -> list[str]:
    """The canonical order of every legal move, each once (no castling aliases)."""
    return [order_text(board, move) for move in board.generate_legal_moves()]


def count_leaves(board: chess.Board, depth: int) -> int:
    """Move sequences of ``depth`` moves; repetition and move-count draws are ignored, as perft does."""
    if depth <= 1:
        return board.legal_moves.count() if depth == 1 else 1
    total = 0
    for move in board.generate_legal_moves():
        board.push(move)
        total += count_leaves(board, depth - 1)
        board.pop()
    return total


def divide(board: chess.Board, depth: int) -> dict[str, int]:
    """Perft's divide: the leaf count below each legal move, by canonical order."""
    work = board.copy(stack=False)
    counts = {}
    for move in list(work.generate_legal_moves()):
        name = order_text(work, move)
        work.push(move)
        counts[name] = count_leaves(work, depth - 1)
        work.pop()
    return counts
