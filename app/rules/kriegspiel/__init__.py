"""Kriegspiel: chess in which each player sees only their own men and a referee sees all (KS-1 .. KS-6)."""

from __future__ import annotations

import random
from typing import Any

from app.rules import fide
from app.rules.base import Outcome, Side, Variant, View
from app.rules.kriegspiel import referee
from app.rules.kriegspiel.examples import example_orders, plausible_orders
from app.rules.kriegspiel.orders import MOST_TRIES, Castle, Move, read_order
from app.rules.kriegspiel.random_orders import random_order, tries
from app.rules.kriegspiel.state import GameState
from app.rules.options import choice
from app.rules.placement import board_placement


class Kriegspiel(fide.OnOneBoard, Variant):
    """The Kriegspiel referee on the play template: it reads coordinate moves and plays them (KS-2)."""

    name = "kriegspiel"
    title = "Kriegspiel"
    options = (choice("setup", ("standard", "chess960"), "standard"),)  # KS-1
    has_check = True
    move_lines = MOST_TRIES  # KS-5: a reply may hold this many move lines, tried in turn

    def new_game(self, options: dict[str, Any], rng: random.Random | None = None) -> GameState:
        return referee.new_state(self.parse_options(options), rng)

    read_order = staticmethod(read_order)

    def move(self, state: GameState, side: Side, order: Move | Castle, rng: random.Random | None) -> Outcome:
        return referee.move(state, side, order)

    def view(self, state: GameState, side: Side) -> View:
        """KS-1: own men only, own men lost, enemy men taken; the whole board once the game is over (KS-4)."""
        board = state.board
        white = side == "white"
        lost = "".join(letter for letter in state.tray if letter.isupper() == white)
        taken = [letter for letter in state.tray if letter.isupper() != white]
        pawns = sum(letter in "Pp" for letter in taken)
        view: View = {"own": board_placement(board, fide.COLOR[side]), "lost": lost,
                      "taken": {"pawns": pawns, "pieces": len(taken) - pawns}}
        if state.result is not None:
            view["board"] = board_placement(board)
        return view

    def public(self, state: GameState) -> dict[str, Any]:
        """The strike counts (none) and the pawn tries of the side to move, which both were told (KS-3)."""
        return {**super().public(state), "pawn_tries": referee.pawn_tries_now(state)}

    def example_orders(self, view: View, side: Side) -> list[str]:
        return example_orders(view, side)

    def plausible_orders(self, view: View, side: Side) -> list[str]:
        return plausible_orders(view, side)

    def from_json(self, data: dict[str, Any]) -> GameState:
        return GameState.from_json(data)

    def legal_orders(self, state: GameState) -> list[str]:
        """The FIDE moves of the side to move (none at checkmate or stalemate); like perft, draws by
        repetition, move counts or material are not applied here."""
        return fide.legal_orders(state.board)

    def perft(self, state: GameState, depth: int) -> dict[str, int]:
        """FIDE perft with python-chess on a copy (the same figures as chess)."""
        return fide.divide(state.board, depth)

    def random_order(self, state: GameState, side: Side, rng: random.Random) -> str:
        return random_order(state, side, rng)

    def random_reply(self, state: GameState, side: Side, rng: random.Random) -> str:
        """Now and then tries (KS-5): moves the player's own men seem to allow, then mostly a legal one."""
        if rng.random() < 0.3:
            return "\n".join(tries(state, side, rng, 4))
        return random_order(state, side, rng)


VARIANT = Kriegspiel()
