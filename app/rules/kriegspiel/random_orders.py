"""Random but plausible order lines, for the property tests, the benchmarks and the demo.

Mostly legal moves written in every accepted form, often a move that is illegal in the true
position (as a player who cannot see the enemy sends), sometimes an unreadable line or a draw
offer or answer, rarely a resignation, so every result occurs. One line each: ``tries`` makes
the several lines of one reply (KS-5).
"""

from __future__ import annotations

import random

from app.rules.base import Side, other
from app.rules.kriegspiel.examples import plausible_orders
from app.rules.kriegspiel.moves import legal_by_order, order_text
from app.rules.kriegspiel.state import GameState
from app.rules.placement import board_placement

UNREADABLE = ("e2-e9", "e7-e8=K", "move a1 please", "e2-e4=Q", "nf3")


def written(text: str, rng: random.Random) -> str:
    """A canonical order in one of the forms players write (KS-2)."""
    if text.startswith("O"):
        return rng.choice([text, text.replace("O", "0"), text.lower()])
    move, _, promotion = text.partition("=")
    from_square, to_square = move.split("-")
    if promotion == "Q" and rng.random() < 0.5:
        promotion = ""  # no letter is a queen
    suffix = rng.choice([f"={promotion}", promotion.lower()]) if promotion else ""
    line = rng.choice([f"{from_square}-{to_square}", f"{from_square}{to_square}", f"{from_square} {to_square}"])
    return (line + suffix).upper() if rng.random() < 0.1 else line + suffix


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
    roll = rng.random()
    if state.draw_offer == other(side) and roll < 0.5:
        return "accept draw" if rng.random() < 0.1 else "decline draw"
    if roll < 0.03:
        return rng.choice(UNREADABLE)
    if roll < 0.04:
        return "offer draw"
    if roll < 0.042:
        return "resign"
    if roll < 0.25:
        guesses = illegal_guesses(state, side)
        if guesses:
            return written(rng.choice(guesses), rng)
    moves = list(state.board.generate_legal_moves())
    if not moves:
        return "resign"
    return written(order_text(state.board, rng.choice(moves)), rng)

