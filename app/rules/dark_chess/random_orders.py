"""Random but plausible order lines, for the property tests, the benchmarks and the demo.

Mostly moves DC-1 allows, written in every accepted form; often an order the player's own men seem to allow
but the true position does not (a pawn's step onto a man in the fog, castling through a man); sometimes an
unreadable line, a draw offer or its answer; rarely a resignation, so every result occurs.
"""

from __future__ import annotations

import random

import chess

from app.rules.base import Side
from app.rules.dark_chess.state import GameState
from app.rules.fide import COLOR, legal_by_order, random_line, random_move, written
from app.rules.placement import board_placement

UNREADABLE = ("e2-e9", "e7-e8=K", "move a1 please", "e2-e4=Q", "nf3")
CASTLES = ("O-O", "O-O-O")


def refused_guesses(state: GameState, side: Side) -> list[str]:
    """Moves of the player's own men on a board of their own men alone (and castling) that DC-1 does not allow
    in the true position."""
    own = chess.Board(None)
    own.set_board_fen(board_placement(state.board, COLOR[side]))
    own.turn = COLOR[side]
    allowed = legal_by_order(state.board, check=False)
    guesses = [f"{chess.square_name(move.from_square)}-{chess.square_name(move.to_square)}"
               + ("=Q" if move.promotion else "") for move in own.generate_pseudo_legal_moves()
               if move.promotion in (None, chess.QUEEN)]
    return [order for order in guesses + list(CASTLES) if order not in allowed]


def random_order(state: GameState, side: Side, rng: random.Random) -> str:
    """One order line for ``side``, the player expected to order."""

    def guess() -> str | None:
        guesses = refused_guesses(state, side)
        return written(rng.choice(guesses), rng) if guesses else None

    line = random_line(state.draw_offer, side, rng, (
        (0.03, lambda: rng.choice(UNREADABLE)), (0.04, lambda: "offer draw"), (0.042, lambda: "resign"),
        (0.2, guess)))
    return line or random_move(state.board, rng, check=False) or "resign"
