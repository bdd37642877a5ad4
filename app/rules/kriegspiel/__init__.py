"""Kriegspiel: chess in which each player sees only their own men and a referee sees all (RULES.md, KS-1 .. KS-6)."""

from __future__ import annotations

import random
from typing import Any

from app.rules.base import OptionError, Outcome, Side, Variant, View
from app.rules.kriegspiel import moves, referee
from app.rules.kriegspiel.examples import example_orders, plausible_orders
from app.rules.kriegspiel.orders import MOST_TRIES, Castle, Move, mentions_order, read_order
from app.rules.kriegspiel.random_orders import random_order
from app.rules.kriegspiel.state import COLOR, GameState
from app.rules.placement import board_placement

SETUPS = ("standard", "chess960")


class Kriegspiel(Variant):
    """The Kriegspiel referee behind the common variant interface."""

    name = "kriegspiel"
    title = "Kriegspiel"
    move_lines = MOST_TRIES  # KS-5: a reply may hold this many move lines, tried in turn

    def parse_options(self, raw: dict[str, Any]) -> dict[str, Any]:
        """KS-1: ``setup=standard`` (the default) or ``setup=chess960``; reading its own output gives the same."""
        options = {"setup": "standard"}
        for key, value in raw.items():
            if key != "setup":
                raise OptionError(f"unknown option {key!r} for kriegspiel; known: setup")
            text = str(value).strip().lower()
            if text not in SETUPS:
                raise OptionError(f"setup must be one of {', '.join(SETUPS)}, not {value!r}")
            options["setup"] = text
        return options

    def new_game(self, options: dict[str, Any], rng: random.Random | None = None) -> GameState:
        return referee.new_state(self.parse_options(options), rng)

    def play(self, state: GameState, side: Side, text: str, rng: random.Random | None = None) -> Outcome:
        return referee.play(state, side, text)

    def forfeit(self, state: GameState, side: Side, reason: str) -> Outcome:
        return referee.forfeit_game(state, side, reason)

    def is_order(self, text: str) -> bool:
        return mentions_order(text)

    def order_kind(self, text: str) -> str:
        """``"move"`` for a move or castling, ``"order"`` for the common commands; raises OrderError."""
        return "move" if isinstance(read_order(text), Move | Castle) else "order"

    def move_written(self, text: str) -> str | None:
        order = read_order(text)
        return order.text() if isinstance(order, Move | Castle) else None

    def view(self, state: GameState, side: Side) -> View:
        """KS-1: own men only, own men lost, enemy men taken; the whole board once the game is over (KS-4)."""
        board = state.board
        white = side == "white"
        lost = "".join(letter for letter in state.tray if letter.isupper() == white)
        taken = [letter for letter in state.tray if letter.isupper() != white]
        pawns = sum(letter in "Pp" for letter in taken)
        view: View = {"own": board_placement(board, COLOR[side]), "lost": lost,
                      "taken": {"pawns": pawns, "pieces": len(taken) - pawns}}
        if state.result is not None:
            view["board"] = board_placement(board)
        return view

    def orderer(self, state: GameState) -> Side | None:
        return state.to_move if state.result is None else None

    def move_number(self, state: GameState) -> int:
        return state.board.fullmove_number

    def result(self, state: GameState) -> tuple[str | None, str | None]:
        return state.result, state.reason

    def position(self, state: GameState) -> dict[str, str]:
        return {"board": board_placement(state.board)}

    def public(self, state: GameState) -> dict[str, Any]:
        """The strike counts (none) and the pawn tries of the side to move, which both were told (KS-3)."""
        return {**super().public(state), "pawn_tries": referee.pawn_tries_now(state)}

    def example_orders(self, view: View, side: Side) -> list[str]:
        return example_orders(view, side)

    def plausible_orders(self, view: View, side: Side) -> list[str]:
        return plausible_orders(view, side)

    def to_json(self, state: GameState) -> dict[str, Any]:
        return state.to_json()

    def from_json(self, data: dict[str, Any]) -> GameState:
        return GameState.from_json(data)

    def legal_orders(self, state: GameState) -> list[str]:
        """The FIDE moves of the side to move (none at checkmate or stalemate); like perft, draws by
        repetition, move counts or material are not applied here."""
        return moves.legal_orders(state.board)

    def perft(self, state: GameState, depth: int) -> dict[str, int]:
        """FIDE perft with python-chess on a copy (the same figures as chess)."""
        return moves.divide(state.board, depth)

    def random_order(self, state: GameState, side: Side, rng: random.Random) -> str:
        return random_order(state, side, rng)
