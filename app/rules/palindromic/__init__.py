"""Palindromic Chess: each side's pieces must end on the other side's start squares (PAL-1 .. PAL-6)."""

from __future__ import annotations

import random
from typing import Any

from app.rules.base import SIDES, OptionError, Outcome, Side, Variant, View
from app.rules.options import NO_DEFAULT, Option
from app.rules.palindromic import orders, random_orders
from app.rules.palindromic import view as views
from app.rules.palindromic.orders import Coordinate, Order
from app.rules.palindromic.perft import legal_orders, perft
from app.rules.palindromic.referee import LETTERS, Referee, judge_turn
from app.rules.palindromic.start import read_start, standard_start, start_board
from app.rules.palindromic.state import COLOR, GameState
from app.rules.reading import wrong_piece


class Palindromic(Variant):
    """The Palindromic Chess referee behind the common variant interface (full information, one board)."""

    name = "palindromic"
    title = "Palindromic Chess"
    options = (Option("start", NO_DEFAULT, read_start, "{...}"),)  # a position to play from (start.py)
    has_check = True  # PAL-3

    def __init__(self) -> None:
        self.referee = Referee()

    def new_game(self, options: dict[str, Any], rng: random.Random | None = None) -> GameState:
        options = self.parse_options(options)
        board, left = start_board(options["start"]) if "start" in options else standard_start()
        state = GameState(board=board, left=left, options=options)
        if judge_turn(state) is not None:
            raise OptionError("the start position is already decided (no move, or every pawn blocked for good)")
        return state

    # ----------------------------------------------------------------- orders

    read_order = staticmethod(orders.read_order)

    def adjudicate(self, state: GameState, side: Side, order: Any, rng: random.Random | None) -> Outcome:
        """PAL-4: a pass still owed is made first, and told ahead of what the order brings (callers ask
        ``automatic`` right after each order, so only one that does not meets this)."""
        if state.pass_due is None or state.result is not None:
            return super().adjudicate(state, side, order, rng)
        owed = self.referee.pass_turn(state)
        outcome = super().adjudicate(state, side, order, rng)
        for reader in SIDES:
            outcome.to[reader][:0] = owed.to[reader]
        return outcome

    def move(self, state: GameState, side: Side, order: Order, rng: random.Random | None) -> Outcome:
        return self.referee.move(state, side, order)

    def piece_refusal(self, state: GameState, side: Side, order: Order) -> str | None:
        if not isinstance(order, Coordinate) or order.piece is None:
            return None
        piece = state.board.piece_at(order.from_square)
        own = LETTERS[piece.piece_type] if piece and piece.color == COLOR[side] else None
        return wrong_piece(order.piece, own, order.from_square)

    def automatic(self, state: GameState) -> tuple[Side, Outcome] | None:
        return self.referee.automatic(state)

    # ----------------------------------------------------------------- what is known

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

    def position(self, state: GameState) -> dict[str, str]:
        return views.position(state)

    plausible_orders = staticmethod(views.legal_orders_in_view)

    example_orders = staticmethod(views.example_orders)

    from_json = staticmethod(GameState.from_json)

    # ----------------------------------------------------------------- checks and tests

    def legal_orders(self, state: GameState) -> list[str]:
        return legal_orders(state)

    def perft(self, state: GameState, depth: int) -> dict[str, int]:
        return perft(state, depth)

    random_order = staticmethod(random_orders.random_order)


VARIANT = Palindromic()
