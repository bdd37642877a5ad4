"""Rook hands through moves (PAL-1): left- and right-handed rooks are different types of piece.

The state keeps the squares of the left-handed rooks as one bitmask. Nothing is ever captured
(PAL-3), so a rook's hand only ever moves along with the rook.
"""

from __future__ import annotations

import chess


def update_hands(left: int, move: chess.Move) -> int:
    """The left-handed rooks after ``move`` (not yet pushed): a rook keeps its hand wherever it goes,
    castling included (Chess960: the king "takes" its rook, which lands on the f- or d-file)."""
    from_bb = chess.BB_SQUARES[move.from_square]
    to_bb = chess.BB_SQUARES[move.to_square]
    if left & from_bb:
        return left ^ from_bb ^ to_bb
    if left & to_bb:  # nothing is ever captured, so a left-handed rook on the to-square means castling
        rank = chess.square_rank(move.to_square)
        rook_to = chess.square(3 if move.to_square < move.from_square else 5, rank)
        return (left & ~to_bb) | chess.BB_SQUARES[rook_to]
    return left
