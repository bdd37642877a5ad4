"""Side View Chess: FIDE chess seen from the east, each player seeing little of the enemy (RULES.md, SV-1 .. SV-5)."""

from __future__ import annotations

import random
from typing import Any

import chess

from app.rules.base import Outcome, Side, Variant, View
from app.rules.side_view import moves, referee
from app.rules.side_view.examples import example_orders, plausible_orders
from app.rules.side_view.options import parse_options
from app.rules.side_view.orders import Castle, Move, mentions_order, read_order
from app.rules.side_view.random_orders import random_order
from app.rules.side_view.sight import view_of
from app.rules.side_view.state import COLOR, GameState


class SideView(Variant):
    """The Side View referee behind the common variant interface."""

    name = "side-view"
    title = "Side View Chess"

    def parse_options(self, raw: dict[str, Any]) -> dict[str, Any]:
        return parse_options(raw)

    def new_game(self, options: dict[str, Any], rng: random.Random | None = None) -> GameState:
        return referee.new_state(self.parse_options(options), rng)

    def needs_setup(self, state: GameState, side: Side) -> bool:
        return state.phase == "setup" and state.rows[side] is None

    def hidden_setups(self, state: GameState) -> dict[Side, str]:
        """SV-1 ``setup=hidden``: each back rank, chosen in private (once both are in)."""
        white, black = state.rows["white"], state.rows["black"]
        return {"white": white, "black": black} if white and black else {}

    def play(self, state: GameState, side: Side, text: str, rng: random.Random | None = None) -> Outcome:
        return referee.play(state, side, text, rng)

    def forfeit(self, state: GameState, side: Side, reason: str) -> Outcome:
        return referee.forfeit_game(state, side, reason)

    def is_order(self, text: str) -> bool:
        return mentions_order(text)

    def order_kind(self, text: str) -> str:
        """``"move"`` for a move or castling, ``"order"`` for the others; raises OrderError."""
        return "move" if isinstance(read_order(text), Move | Castle) else "order"

    def move_written(self, text: str) -> str | None:
        order = read_order(text)
        return order.text() if isinstance(order, Move | Castle) else None

    def view(self, state: GameState, side: Side) -> View:
        """SV-2: own pieces exactly, what the physics shows of the enemy, and the tray.

        Before a hidden setup is complete nothing stands on the board (neither row is placed yet).
        """
        board = state.board if state.phase != "setup" else chess.BaseBoard(None)
        return view_of(board, COLOR[side], state.options["physics"], state.tray)

    def orderer(self, state: GameState) -> Side | None:
        return state.to_move if state.phase == "play" else None

    def move_number(self, state: GameState) -> int:
        return state.board.fullmove_number

    def result(self, state: GameState) -> tuple[str | None, str | None]:
        return state.result, state.reason

    def position(self, state: GameState) -> dict[str, str]:
        return {"board": state.board.board_fen()}

    def example_orders(self, view: View, side: Side) -> list[str]:
        return example_orders(view, side)

    def plausible_orders(self, view: View, side: Side) -> list[str]:
        return plausible_orders(view, side)

    def to_json(self, state: GameState) -> dict[str, Any]:
        return state.to_json()

    def from_json(self, data: dict[str, Any]) -> GameState:
        return GameState.from_json(data)

    def legal_orders(self, state: GameState) -> list[str]:
        """The moves the board allows the side to move (none in setup, at checkmate or stalemate);
        like perft, draws by repetition, move counts or dead positions are not applied here."""
        return moves.legal_orders(state.board) if state.start is not None else []

    def perft(self, state: GameState, depth: int) -> dict[str, int]:
        """Counted with python-chess on a copy, repetition and move-count draws ignored."""
        return moves.divide(state.board, depth) if state.start is not None else {}

    def random_order(self, state: GameState, side: Side, rng: random.Random) -> str:
        return random_order(state, side, rng)
