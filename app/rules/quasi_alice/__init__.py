"""4D Quasi-Alice Chess: four boards, every move transfers to another (QA4-1 .. QA4-9)."""

from __future__ import annotations

import random
from typing import Any

from app.rules.base import Outcome, Side, Variant
from app.rules.quasi_alice import orders, random_orders, referee, views
from app.rules.quasi_alice.movegen import count, legal_moves, make
from app.rules.quasi_alice.orders import CastleOrder, MoveOrder, written
from app.rules.quasi_alice.state import GameState
from app.rules.reading import wrong_piece


class QuasiAlice(Variant):
    """The 4D Quasi-Alice referee behind the common variant interface. Full information, no options."""

    name = "quasi-alice-4d"
    title = "4D Quasi-Alice Chess"
    has_check = True  # QA4-2, QA4-6: on the king's own board

    def new_game(self, options: dict[str, Any], rng: random.Random | None = None) -> GameState:
        self.parse_options(options)
        return GameState.start()

    read_order = staticmethod(orders.read_order)

    def move(self, state: GameState, side: Side, order: MoveOrder | CastleOrder,
             rng: random.Random | None) -> Outcome:
        return referee.move(state, side, order)

    def piece_refusal(self, state: GameState, side: Side, order: MoveOrder | CastleOrder) -> str | None:
        if isinstance(order, CastleOrder) or order.piece is None:
            return None
        return wrong_piece(order.piece, referee.own_piece(state, order), order.origin)

    def view(self, state: GameState, side: Side) -> dict[str, Any]:
        return views.view(state)

    def orderer(self, state: GameState) -> Side | None:
        return None if state.result is not None else state.to_move

    def move_number(self, state: GameState) -> int:
        return state.move_number

    def position(self, state: GameState) -> dict[str, str]:
        return state.placements()

    example_orders = staticmethod(views.example_orders)

    plausible_orders = staticmethod(views.legal_orders_in_view)

    from_json = staticmethod(GameState.from_json)

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

    random_order = staticmethod(random_orders.random_order)


VARIANT = QuasiAlice()
