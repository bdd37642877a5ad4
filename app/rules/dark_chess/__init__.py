"""Dark Chess ("Fog of War"): chess without check, each player seeing only the squares their men could move
to (DC-1 .. DC-6)."""

from __future__ import annotations

import random
from typing import Any

from app.rules import fide
from app.rules.base import Outcome, Side, Variant, View
from app.rules.dark_chess import referee
from app.rules.dark_chess.examples import example_orders, plausible_orders
from app.rules.dark_chess.orders import Castle, Move, read_order
from app.rules.dark_chess.random_orders import random_order
from app.rules.dark_chess.state import GameState
from app.rules.options import choice
from app.rules.placement import board_placement


class DarkChess(fide.OnOneBoard, Variant):
    """The Dark Chess referee on the play template: it reads coordinate moves and plays those DC-1 allows."""

    name = "dark-chess"
    title = "Dark Chess"
    options = (choice("setup", ("standard", "chess960"), "standard"),)  # DC-1

    def new_game(self, options: dict[str, Any], rng: random.Random | None = None) -> GameState:
        return referee.new_state(self.parse_options(options), rng)

    read_order = staticmethod(read_order)

    def move(self, state: GameState, side: Side, order: Move | Castle, rng: random.Random | None) -> Outcome:
        return referee.move(state, side, order)

    def view(self, state: GameState, side: Side) -> View:
        """DC-3: own men, every square in sight with what stands there, and every man taken (both are told of
        each); the whole board once the game is over."""
        sight = state.sight(side)
        view: View = {"own": sight.own, "seen": dict(sight.seen), "tray": state.tray}
        if state.result is not None:
            view["board"] = board_placement(state.board)
        return view

    def example_orders(self, view: View, side: Side) -> list[str]:
        return example_orders(view, side)

    def plausible_orders(self, view: View, side: Side) -> list[str]:
        return plausible_orders(view, side)

    def from_json(self, data: dict[str, Any]) -> GameState:
        return GameState.from_json(data)

    def legal_orders(self, state: GameState) -> list[str]:
        """The moves DC-1 allows the side to move (none once a king is taken); like perft, the fifty-move draw is
        not applied here."""
        return fide.legal_orders(state.board, check=False)

    def perft(self, state: GameState, depth: int) -> dict[str, int]:
        """DC-1 perft with python-chess on a copy: FIDE moves without the check rule."""
        return fide.divide(state.board, depth, check=False)

    def random_order(self, state: GameState, side: Side, rng: random.Random) -> str:
        return random_order(state, side, rng)


VARIANT = DarkChess()
