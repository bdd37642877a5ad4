"""Through the Looking-Glass: two worlds, each player sees one (RULES.md, LG-1 .. LG-11)."""

from __future__ import annotations

import random
from typing import Any

from app.rules.base import OptionError, Outcome, Side, Variant
from app.rules.looking_glass import perft
from app.rules.looking_glass.examples import example_orders, plausible_orders
from app.rules.looking_glass.orders import Castle, Move, mentions_order, read_order
from app.rules.looking_glass.random_orders import random_order
from app.rules.looking_glass.referee import Referee
from app.rules.looking_glass.state import GameState
from app.rules.placement import board_placement

DEFAULT_OPTIONS: dict[str, Any] = {"strikes": 3, "impossible": "strike", "win": "king"}
CHOICES = {"impossible": ("strike", "forfeit"), "win": ("king", "extinction")}


class LookingGlass(Variant):
    """The Looking-Glass referee behind the common variant interface."""

    name = "looking-glass"
    title = "Through the Looking-Glass"
    boards = ("R", "M")

    def __init__(self) -> None:
        self.referee = Referee()

    def parse_options(self, raw: dict[str, Any]) -> dict[str, Any]:
        options = dict(DEFAULT_OPTIONS)
        for key, value in raw.items():
            if key == "strikes":
                try:
                    count = int(value)
                except (TypeError, ValueError):
                    raise OptionError(f"strikes must be a whole number, not {value!r}") from None
                if not 1 <= count <= 99:
                    raise OptionError("strikes must be between 1 and 99")
                options["strikes"] = count
            elif key in CHOICES:
                if str(value) not in CHOICES[key]:
                    raise OptionError(f"{key} must be one of {', '.join(CHOICES[key])}, not {value!r}")
                options[key] = str(value)
            else:
                known = ", ".join(["strikes", *CHOICES])
                raise OptionError(f"unknown option {key!r} for {self.name}; known: {known}")
        return options

    def new_game(self, options: dict[str, Any], rng: random.Random | None = None) -> GameState:
        return GameState(options=self.parse_options(options))

    def needs_setup(self, state: GameState, side: Side) -> bool:
        return state.phase == "setup" and state.rows[side] is None

    def hidden_setups(self, state: GameState) -> dict[Side, str]:
        """LG-2: each back rank, chosen in private (once both are in)."""
        rows = state.rows
        return {side: row for side, row in rows.items() if row} if all(rows.values()) else {}

    def play(self, state: GameState, side: Side, text: str, rng: random.Random | None = None) -> Outcome:
        return self.referee.play(state, side, text, rng)

    def forfeit(self, state: GameState, side: Side, reason: str) -> Outcome:
        return self.referee.forfeit(state, side, reason)

    def is_order(self, text: str) -> bool:
        return mentions_order(text)

    def order_kind(self, text: str) -> str:
        """``"move"`` for a move or castling, ``"order"`` for the others; raises OrderError."""
        return "move" if isinstance(read_order(text), Move | Castle) else "order"

    def move_written(self, text: str) -> str | None:
        order = read_order(text)
        return order.text() if isinstance(order, Move | Castle) else None

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

    def result(self, state: GameState) -> tuple[str | None, str | None]:
        return state.result, state.reason

    def position(self, state: GameState) -> dict[str, str]:
        return {world: board_placement(board) for world, board in state.worlds.items()}

    def strikes(self, state: GameState) -> dict[Side, int]:
        return dict(state.strikes)

    def example_orders(self, view: dict[str, Any], side: Side) -> list[str]:
        return example_orders(view, side)

    def plausible_orders(self, view: dict[str, Any], side: Side) -> list[str]:
        return plausible_orders(view, side)

    def legal_orders(self, state: GameState) -> list[str]:
        """The moves LG-11's stalemate check counts, each once in canonical form (CONTRACT.md ``referee perft``)."""
        return [perft.order_text(move) for move in perft.legal_moves(state)]

    def perft(self, state: GameState, depth: int) -> dict[str, int]:
        """Counted on bare boards with the referee's own steps, not by playing order text (same counts)."""
        return perft.perft(state, depth)

    def random_order(self, state: GameState, side: Side, rng: random.Random) -> str:
        return random_order(state, side, rng)

    def to_json(self, state: GameState) -> dict[str, Any]:
        return state.to_json()

    def from_json(self, data: dict[str, Any]) -> GameState:
        return GameState.from_json(data)
