"""Through the Looking-Glass: two worlds, each player sees one (LG-1 .. LG-11)."""

from __future__ import annotations

import random
from typing import Any

from app.rules.base import SIDE_TITLE, Outcome, Side, Variant, other
from app.rules.looking_glass import examples, orders, perft, random_orders
from app.rules.looking_glass.orders import COMMAND_WORDS, Castle, Move
from app.rules.looking_glass.referee import Referee, start_game
from app.rules.looking_glass.state import GameState
from app.rules.options import choice, whole_number
from app.rules.placement import board_placement
from app.rules.reading import wrong_piece


class LookingGlass(Variant):
    """The Looking-Glass referee behind the common variant interface."""

    name = "looking-glass"
    title = "Through the Looking-Glass"
    options = (
        whole_number("strikes", 1, 99, 3),
        choice("impossible", ("strike", "forfeit"), "strike"),
        choice("win", ("king", "extinction"), "king"),
    )
    own_results = frozenset({"shortened", "strike", "forfeit-order", "impossible"})  # LG-5, its option
    own_moves = frozenset({"shortened"})  # LG-5b: a shortened move is the move of the turn
    command_words = COMMAND_WORDS

    def __init__(self) -> None:
        self.referee = Referee()

    def new_game(self, options: dict[str, Any], rng: random.Random | None = None) -> GameState:
        return GameState(options=self.parse_options(options))

    def in_setup(self, state: GameState) -> bool:
        return state.phase == "setup"

    def begin_play(self, state: GameState) -> None:
        start_game(state)

    # ----------------------------------------------------------------- orders

    read_order = staticmethod(orders.read_order)

    def move(self, state: GameState, side: Side, order: Move | Castle, rng: random.Random | None) -> Outcome:
        """The move, then LG-10: what it told each player goes into their notebook (only moves report)."""
        number = state.move_number
        if isinstance(order, Castle):
            outcome = self.referee.castle(state, side, state.to_move, order)
        else:
            outcome = self.referee.move(state, side, state.to_move, order)
        self.referee.remember(state, outcome, number)
        return outcome

    def command(self, state: GameState, side: Side, name: str) -> Outcome:
        return self.referee.ask(state, side)

    def not_your_turn(self, state: GameState, side: Side) -> str:
        if state.proxy:
            return f"your order was impossible, so {SIDE_TITLE[other(state.to_move)]} now orders one move for your army"
        return super().not_your_turn(state, side)

    def piece_refusal(self, state: GameState, side: Side, order: Move | Castle) -> str | None:
        if isinstance(order, Castle) or order.piece is None:
            return None
        own = self.referee.own_piece(state, side, order)
        return None if own == "?" else wrong_piece(order.piece, own, order.from_square)

    # ----------------------------------------------------------------- what is known

    def view(self, state: GameState, side: Side) -> dict[str, Any]:
        return self.referee.view(state, side)

    def orderer(self, state: GameState) -> Side | None:
        if state.phase != "play":
            return None
        return ("black" if state.to_move == "white" else "white") if state.proxy else state.to_move

    def army_to_move(self, state: GameState) -> Side | None:
        return state.to_move if state.phase == "play" else None

    def move_number(self, state: GameState) -> int:
        return state.move_number

    def position(self, state: GameState) -> dict[str, str]:
        return {world: board_placement(board) for world, board in state.worlds.items()}

    def strikes(self, state: GameState) -> dict[Side, int]:
        return dict(state.strikes)

    example_orders = staticmethod(examples.example_orders)

    plausible_orders = staticmethod(examples.plausible_orders)

    from_json = staticmethod(GameState.from_json)

    # ----------------------------------------------------------------- checks and tests

    def legal_orders(self, state: GameState) -> list[str]:
        """The moves LG-11's stalemate check counts, each once in canonical form (``referee perft``)."""
        return [perft.order_text(move) for move in perft.legal_moves(state)]

    def perft(self, state: GameState, depth: int) -> dict[str, int]:
        """Counted on bare boards with the referee's own steps, not by playing order text (same counts)."""
        return perft.perft(state, depth)

    random_order = staticmethod(random_orders.random_order)


VARIANT = LookingGlass()
