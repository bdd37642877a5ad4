"""Palindromic Chess: each side's pieces must end on the other side's start squares (RULES.md, PAL-1 .. PAL-6)."""

from __future__ import annotations

import random
from typing import Any

from app.rules.base import OptionError, Outcome, Side, Variant, View
from app.rules.palindromic import view as views
from app.rules.palindromic.orders import Command, mentions_order, order_text, read_order
from app.rules.palindromic.perft import legal_orders, perft
from app.rules.palindromic.random_orders import random_order
from app.rules.palindromic.referee import Referee, judge_turn
from app.rules.palindromic.start import read_start, standard_start, start_board
from app.rules.palindromic.state import GameState
from app.rules.palindromic.view import destinations_of

__all__ = ["Palindromic", "destinations_of"]


class Palindromic(Variant):
    """The Palindromic Chess referee behind the common variant interface (full information, one board)."""

    name = "palindromic"
    title = "Palindromic Chess"
    description = (
        "Each side's pieces must end on the start squares of the same type of enemy piece; captures and "
        "promotions are illegal. Played as written from the PAL-1 start, opposing pawns on one file can never "
        "pass each other, so the reversal cannot be reached from it: the game is drawn as a dead position once "
        "every pawn is blocked for good (PAL-5)."
    )

    def __init__(self) -> None:
        self.referee = Referee()

    def parse_options(self, raw: dict[str, Any]) -> dict[str, Any]:
        unknown = set(raw) - {"start"}
        if unknown:
            raise OptionError(f"unknown option {', '.join(sorted(unknown))!r} for {self.name}; known: start")
        return {"start": read_start(raw["start"])} if "start" in raw else {}

    def new_game(self, options: dict[str, Any], rng: random.Random | None = None) -> GameState:
        options = self.parse_options(options)
        board, left = start_board(options["start"]) if "start" in options else standard_start()
        state = GameState(board=board, left=left, options=options)
        if judge_turn(state) is not None:
            raise OptionError("the start position is already decided (no move, or every pawn blocked for good)")
        return state

    def play(self, state: GameState, side: Side, text: str, rng: random.Random | None = None) -> Outcome:
        return self.referee.play(state, side, text)

    def automatic(self, state: GameState) -> tuple[Side, Outcome] | None:
        return self.referee.automatic(state)

    def forfeit(self, state: GameState, side: Side, reason: str) -> Outcome:
        return self.referee.forfeit(state, side, reason)

    def is_order(self, text: str) -> bool:
        return mentions_order(text)

    def order_kind(self, text: str) -> str:
        """``"move"`` for a move or castling, ``"order"`` for a common command; raises OrderError."""
        return "order" if isinstance(read_order(text), Command) else "move"

    def move_written(self, text: str) -> str | None:
        return order_text(read_order(text))

    def view(self, state: GameState, side: Side) -> View:
        return views.view(state, self.orderer(state))

    def orderer(self, state: GameState) -> Side | None:
        if state.result is not None:
            return None
        if state.pass_due is not None:
            return "black" if state.pass_due == "white" else "white"  # the referee passes first, at once
        return state.turn

    def move_number(self, state: GameState) -> int:
        return state.board.fullmove_number

    def result(self, state: GameState) -> tuple[str | None, str | None]:
        return state.result, state.reason

    def position(self, state: GameState) -> dict[str, str]:
        return views.position(state)

    def plausible_orders(self, view: View, side: Side) -> list[str]:
        return views.legal_orders_in_view(view, side)

    def example_orders(self, view: View, side: Side) -> list[str]:
        return views.example_orders(view, side)

    def to_json(self, state: GameState) -> dict[str, Any]:
        return state.to_json()

    def from_json(self, data: dict[str, Any]) -> GameState:
        return GameState.from_json(data)

    def legal_orders(self, state: GameState) -> list[str]:
        return legal_orders(state)

    def perft(self, state: GameState, depth: int) -> dict[str, int]:
        return perft(state, depth)

    def random_order(self, state: GameState, side: Side, rng: random.Random) -> str:
        return random_order(state, side, rng)

    @staticmethod
    def destinations_of(view: View, square: str) -> list[str]:
        """The ``where <square>`` answer, from the view alone (see ``view.destinations_of``)."""
        return destinations_of(view, square)
