"""Random but plausible order lines, for the property tests, the benchmarks and the demo.

Mostly legal moves written in every accepted form, often a move that is illegal in the true
position (as a player who cannot see the enemy sends), sometimes an unreadable line or a draw
offer or answer, rarely a resignation, so every result occurs. One line each: ``tries`` makes
the several lines of one reply (KS-5).
"""

from __future__ import annotations

import random

from app.rules.base import Side
from app.rules.fide import legal_by_order, order_text, random_line, random_move, written
from app.rules.kriegspiel.examples import plausible_orders
from app.rules.kriegspiel.state import GameState
from app.rules.placement import board_placement

UNREADABLE = ("e2-e9", "e7-e8=K", "move a1 please", "e2-e4=Q", "nf3")


def illegal_guesses(state: GameState, side: Side) -> list[str]:
    """The moves the player's own men seem to allow that the true position does not."""
    view = {"own": board_placement(state.board, side == "white")}
    legal = legal_by_order(state.board) if state.to_move == side else {}
    return [order for order in plausible_orders(view, side) if order not in legal]


def tries(state: GameState, side: Side, rng: random.Random, lines: int) -> list[str]:
    """Up to ``lines`` order lines as one reply of tries (KS-5): illegal guesses, then mostly a legal move."""
    guesses = illegal_guesses(state, side)
    chosen = rng.sample(guesses, min(len(guesses), rng.randrange(lines)))
    legal = list(state.board.generate_legal_moves())
    if legal and (rng.random() < 0.9 or not chosen):  # a reply of no line at all would be no reply
        chosen.append(order_text(state.board, rng.choice(legal)))
    return [written(order, rng) for order in chosen] or ["resign"]


def random_order(state: GameState, side: Side, rng: random.Random) -> str:
    """One order line for ``side``, the player expected to order."""

    def guess() -> str | None:
        guesses = illegal_guesses(state, side)
        return written(rng.choice(guesses), rng) if guesses else None

    line = random_line(state.draw_offer, side, rng, (
        (0.03, lambda: rng.choice(UNREADABLE)), (0.04, lambda: "offer draw"), (0.042, lambda: "resign"), (0.25, guess)))
    return line or random_move(state.board, rng) or "resign"

