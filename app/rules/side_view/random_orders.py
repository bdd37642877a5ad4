"""Random but plausible order lines, for the property tests, the benchmarks and the demo.

Mostly legal moves written in every accepted form, sometimes an illegal move of an
own piece, an unreadable line, a draw offer, answer or claim, rarely a resignation,
so every result occurs.
"""

from __future__ import annotations

import random

import chess

from app.rules.base import Side
from app.rules.fide import COLOR, legal_by_order, random_line, random_move, written
from app.rules.side_view.state import GameState

UNREADABLE = ("e2-e9", "e7-e8=K", "move a1 please", "e2-e4=Q", "claim a draw on h3")
EMPTY = chess.BaseBoard(None)


def reach(piece: chess.Piece, square: int) -> int:
    """Squares the piece could go to on an empty board: plausible guesses, mostly illegal ones."""
    if piece.piece_type == chess.PAWN:
        ahead = square + (8 if piece.color == chess.WHITE else -8)
        mask = chess.BB_SQUARES[ahead] if 0 <= ahead < 64 else 0
        return mask | chess.BB_PAWN_ATTACKS[piece.color][square]
    board = EMPTY.copy()
    board.set_piece_at(square, piece)
    return board.attacks_mask(square)


def illegal_guess(state: GameState, side: Side, rng: random.Random) -> str | None:
    """An own piece sent where it could go on an empty board but may not go now, if one is found."""
    board = state.board
    legal = legal_by_order(board)
    own = list(chess.scan_forward(board.occupied_co[COLOR[side]]))
    for _ in range(8):
        square = rng.choice(own)
        piece = board.piece_at(square)
        assert piece is not None
        targets = list(chess.scan_forward(reach(piece, square)))
        if not targets:
            continue
        target = rng.choice(targets)
        text = f"{chess.square_name(square)}-{chess.square_name(target)}"
        if chess.square_rank(target) in (0, 7) and piece.piece_type == chess.PAWN:
            text += "=Q"
        if text not in legal:
            return text
    return None


def random_order(state: GameState, side: Side, rng: random.Random) -> str:
    """One order line for ``side``, the player expected to order."""
    if state.phase == "setup":
        return f"setup {rng.choice([str(rng.randrange(960)), 'random', 'RNBQKBNR'])}"

    def guess() -> str | None:
        found = illegal_guess(state, side, rng)
        return written(found, rng) if found else None

    line = random_line(state.draw_offer, side, rng, (
        (0.03, lambda: rng.choice(UNREADABLE)), (0.05, lambda: "claim draw"), (0.06, lambda: "offer draw"),
        (0.062, lambda: "resign"), (0.14, guess)))
    return line or random_move(state.board, rng) or "claim draw"
