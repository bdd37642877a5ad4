"""Building Side View games for tests: hand-made positions, and random games."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import chess

from app.rules.base import Outcome, Side
from app.rules.side_view import SideView
from app.rules.side_view.state import GameState

SV = SideView()


def position(fen: str, physics: int = 3, setup: str = "standard") -> GameState:
    """A game in play from a FEN (Chess960 castling unless ``setup`` is standard)."""
    state = SV.new_game({"physics": physics, "setup": setup}, random.Random(0))
    state.rows = {"white": None, "black": None}
    state.begin(fen)
    return state


def hidden(white: str, black: str, physics: int = 3) -> GameState:
    """A ``setup=hidden`` game started through the real setup orders."""
    state = SV.new_game({"physics": physics, "setup": "hidden"})
    assert SV.play(state, "white", f"setup {white}").result == "setup"
    assert SV.play(state, "black", f"setup {black}").result == "setup"
    return state


def play_all(state: GameState, *orders: str) -> list[Outcome]:
    """Play orders alternately as the player to move; every one must be a move."""
    outcomes = []
    for text in orders:
        side = SV.orderer(state)
        assert side is not None, f"{text}: the game is over ({SV.result(state)})"
        outcome = SV.play(state, side, text)
        assert outcome.result == "moved", (text, outcome)
        outcomes.append(outcome)
    return outcomes


def random_game(seed: int, plies: int, **options: Any) -> Iterator[tuple[Side, str, Outcome, GameState]]:
    """Yield ``(side, order, outcome, state)`` for each order of a random game (random_order's mix),
    hidden setups first."""
    rng = random.Random(seed)
    state = SV.new_game(options, rng)
    for side in ("white", "black"):
        if SV.needs_setup(state, side):
            order = f"setup {rng.randrange(960)}"
            yield side, order, SV.play(state, side, order, rng), state
    for _ in range(plies):
        side = SV.orderer(state)
        if side is None:
            return
        order = SV.random_order(state, side, rng)
        yield side, order, SV.play(state, side, order, rng), state


def count_moves(board: chess.Board, depth: int) -> int:
    """A plain recursive legal-move count, written apart from the referee's perft."""
    if depth == 0:
        return 1
    total = 0
    for move in list(board.legal_moves):
        board.push(move)
        total += count_moves(board, depth - 1)
        board.pop()
    return total
