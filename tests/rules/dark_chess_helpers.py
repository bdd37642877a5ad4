"""Building Dark Chess games for tests: hand-made positions, games played move by move, random games."""

from __future__ import annotations

import random
from collections.abc import Iterator

from app.rules.base import Outcome, Side
from app.rules.dark_chess import DarkChess
from app.rules.dark_chess.state import GameState

DC = DarkChess()


def position(fen: str, setup: str = "standard") -> GameState:
    """A game in play from a FEN (Chess960 castling with ``setup=chess960``)."""
    return GameState(options=DC.parse_options({"setup": setup}), start=fen)


def play_all(state: GameState, *orders: str) -> list[Outcome]:
    """Play orders alternately as the player to move; every one must be a move."""
    outcomes = []
    for text in orders:
        side = DC.orderer(state)
        assert side is not None, f"{text}: the game is over ({DC.result(state)})"
        outcome = DC.play(state, side, text)
        assert outcome.result == "moved", (text, outcome.to)
        outcomes.append(outcome)
    return outcomes


def random_game(seed: int, plies: int, setup: str = "standard") -> Iterator[tuple[Side, str, Outcome, GameState]]:
    """``(side, order, outcome, state)`` for each order of a random game (random_order's mix)."""
    rng = random.Random(seed)
    state = DC.new_game({"setup": setup}, rng)
    for _ in range(plies):
        side = DC.orderer(state)
        if side is None:
            return
        order = DC.random_order(state, side, rng)
        yield side, order, DC.play(state, side, order, rng), state
