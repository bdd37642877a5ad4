"""4D Quasi-Alice Chess: four boards, every move transfers to another (RULES.md, QA4-1 .. QA4-9)."""

from __future__ import annotations

import random
from typing import Any

from app.rules.base import Outcome, Side, Variant
from app.rules.common import forfeit
from app.rules.quasi_alice import referee
from app.rules.quasi_alice.movegen import count, legal_moves, make
from app.rules.quasi_alice.orders import CastleOrder, MoveOrder, mentions_order, read_order, written
from app.rules.quasi_alice.random_orders import random_order
from app.rules.quasi_alice.state import GameState
from app.rules.quasi_alice.views import example_orders, legal_orders_in_view, view


class QuasiAlice(Variant):
    """The 4D Quasi-Alice referee behind the common variant interface. Full information, no options."""

    name = "quasi-alice-4d"
    title = "4D Quasi-Alice Chess"
    boards = ("A", "B", "C", "D")

    def new_game(self, options: dict[str, Any], rng: random.Random | None = None) -> GameState:
        self.parse_options(options)
        return GameState.start()

    def play(self, state: GameState, side: Side, text: str, rng: random.Random | None = None) -> Outcome:
        return referee.play(state, side, text)

    def forfeit(self, state: GameState, side: Side, reason: str) -> Outcome:
        return forfeit(state, side, reason, referee.end_game)

    def is_order(self, text: str) -> bool:
        return mentions_order(text)

    def order_kind(self, text: str) -> str:
        """``"move"`` for a move or castling, ``"order"`` for a common command; raises OrderError."""
        return "move" if isinstance(read_order(text), MoveOrder | CastleOrder) else "order"

    def move_written(self, text: str) -> str | None:
        order = read_order(text)
        return order.text() if isinstance(order, MoveOrder | CastleOrder) else None

    def view(self, state: GameState, side: Side) -> dict[str, Any]:
        return view(state)

    def orderer(self, state: GameState) -> Side | None:
        return None if state.result is not None else state.to_move

    def move_number(self, state: GameState) -> int:
        return state.move_number

    def result(self, state: GameState) -> tuple[str | None, str | None]:
        return state.result, state.reason

    def position(self, state: GameState) -> dict[str, str]:
        return state.placements()

    def example_orders(self, view: dict[str, Any], side: Side) -> list[str]:
        return example_orders(view, side)

    def plausible_orders(self, view: dict[str, Any], side: Side) -> list[str]:
        return legal_orders_in_view(view, side)

    def to_json(self, state: GameState) -> dict[str, Any]:
        return state.to_json()

    def from_json(self, data: dict[str, Any]) -> GameState:
        return GameState.from_json(data)

    def legal_orders(self, state: GameState) -> list[str]:
        """Every legal move in canonical form; none after checkmate or stalemate (there are none)."""
        return [written(move) for move in state.legal_moves()]

    def perft(self, state: GameState, depth: int) -> dict[str, int]:
        """Perft's divide on the fast generator: repetition and the 50-move rule are ignored, as in every perft."""
        divide = {}
        for move in legal_moves(state.position):
            if depth <= 1:
                divide[written(move)] = 1
                continue
            child = state.position.copy()
            make(child, move)
            divide[written(move)] = count(child, depth - 1)
        return divide

    def random_order(self, state: GameState, side: Side, rng: random.Random) -> str:
        return random_order(state, side, rng)
