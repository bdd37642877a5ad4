"""What each player sees, looking at the board from the east (SV-2).

On each rank the piece on the highest file is nearest the viewer. Own pieces are
always known exactly (the ``own`` placement); ``seen`` holds what the physics lets
a player learn of the opponent's pieces, and nothing else.
"""

from __future__ import annotations

from typing import Any

import chess

from app.rules.base import View
from app.rules.fide import SIDE_OF, TYPE_LETTER
from app.rules.placement import board_placement


def entry(rank: int, piece: chess.Piece, square: int | None) -> dict[str, Any]:
    """One thing seen on a rank; ``square`` is None where the physics hides the file."""
    return {
        "rank": rank + 1,
        "piece": TYPE_LETTER[piece.piece_type],
        "color": SIDE_OF[piece.color],
        "square": chess.square_name(square) if square is not None else None,
    }


def seen(board: chess.BaseBoard, color: chess.Color, physics: int) -> list[dict[str, Any]]:
    """SV-2: ranks 8 to 1, east to west within a rank.

    Physics 1 and 3: the nearest piece of each rank, only if it is an enemy (3 with its square).
    Physics 2: every piece of the rank in order, own ones with their squares, enemies without.
    """
    entries = []
    for rank in range(7, -1, -1):
        row = board.occupied & chess.BB_RANKS[rank]
        if not row:
            continue
        if physics == 2:
            for square in chess.scan_reversed(row):
                piece = board.piece_at(square)
                assert piece is not None
                entries.append(entry(rank, piece, square if piece.color == color else None))
            continue
        nearest = chess.msb(row)
        if board.occupied_co[color] & chess.BB_SQUARES[nearest]:
            continue  # an own piece is nearest: nothing of the enemy shows on this rank (and no need to look it up)
        piece = board.piece_at(nearest)
        assert piece is not None
        entries.append(entry(rank, piece, nearest if physics == 3 else None))
    return entries


def view_of(board: chess.BaseBoard, color: chess.Color, physics: int, tray: str) -> View:
    """The whole view: own pieces, what is seen of the rest, the tray of captures, the physics."""
    return {
        "own": board_placement(board, color),
        "seen": seen(board, color, physics),
        "tray": tray,
        "physics": physics,
    }
