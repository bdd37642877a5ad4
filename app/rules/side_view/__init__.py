"""Side View Chess: FIDE chess seen from the east, each player seeing little of the enemy (SV-1 .. SV-5)."""

from __future__ import annotations

import random
from typing import Any

import chess

from app.rules import fide
from app.rules.base import Outcome, Side, Variant, View
from app.rules.options import choice
from app.rules.side_view import examples, orders, random_orders, referee
from app.rules.side_view.orders import COMMAND_WORDS, Castle, Move
from app.rules.side_view.sight import view_of
from app.rules.side_view.state import GameState, start_position
from app.rules.values import rejected


class SideView(fide.OnOneBoard, Variant):
    """The Side View referee behind the common variant interface."""

    name = "side-view"
    title = "Side View Chess"
    options = (  # SV-5
        choice("physics", (1, 2, 3), 3, spoken="1, 2 or 3"),
        choice("setup", ("standard", "chess960", "hidden"), "standard"),
    )
    command_words = COMMAND_WORDS
    has_check = True

    def new_game(self, options: dict[str, Any], rng: random.Random | None = None) -> GameState:
        return referee.new_state(self.parse_options(options), rng)

    def in_setup(self, state: GameState) -> bool:
        return state.phase == "setup"

    def setup(self, state: GameState, side: Side, value: str, rng: random.Random | None) -> Outcome:
        """SV-1 ``setup=hidden``: LG-2's rules; the other starts have no setup phase."""
        if state.options["setup"] != "hidden":
            return rejected(side, f"this game has no setup phase: it starts from the {state.options['setup']} position")
        return super().setup(state, side, value, rng)

    def begin_play(self, state: GameState) -> None:
        white, black = state.rows["white"], state.rows["black"]
        assert white and black
        state.begin(start_position(white, black))

    # ----------------------------------------------------------------- orders

    read_order = staticmethod(orders.read_order)

    def move(self, state: GameState, side: Side, order: Move | Castle, rng: random.Random | None) -> Outcome:
        return referee.move(state, side, order)

    def command(self, state: GameState, side: Side, name: str) -> Outcome:
        return referee.claim_draw(state, side)

    # ----------------------------------------------------------------- what is known

    def view(self, state: GameState, side: Side) -> View:
        """SV-2: own pieces exactly, what the physics shows of the enemy, and the tray.

        Before a hidden setup is complete nothing stands on the board (neither row is placed yet).
        """
        board = state.board if state.phase != "setup" else chess.BaseBoard(None)
        return view_of(board, fide.COLOR[side], state.options["physics"], state.tray)

    def orderer(self, state: GameState) -> Side | None:
        return state.to_move if state.phase == "play" else None

    example_orders = staticmethod(examples.example_orders)

    plausible_orders = staticmethod(examples.plausible_orders)

    from_json = staticmethod(GameState.from_json)

    # ----------------------------------------------------------------- checks and tests

    def legal_orders(self, state: GameState) -> list[str]:
        """The moves the board allows the side to move (none in setup, at checkmate or stalemate);
        like perft, draws by repetition, move counts or dead positions are not applied here."""
        return fide.legal_orders(state.board) if state.start is not None else []

    def perft(self, state: GameState, depth: int) -> dict[str, int]:
        """Counted with python-chess on a copy, repetition and move-count draws ignored."""
        return fide.divide(state.board, depth) if state.start is not None else {}

    random_order = staticmethod(random_orders.random_order)


VARIANT = SideView()
