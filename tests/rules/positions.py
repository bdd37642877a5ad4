"""Building Looking-Glass positions for tests, without going through setup."""

from __future__ import annotations

from typing import Any

import chess

from app.rules.base import Outcome, Side
from app.rules.looking_glass import LookingGlass
from app.rules.looking_glass.state import GameState

LG = LookingGlass()
EMPTY = "8/8/8/8/8/8/8/8"


def position(
    real: str = EMPTY,
    mirror: str = EMPTY,
    to_move: Side = "white",
    castling: dict[Side, list[str]] | None = None,
    **options: Any,
) -> GameState:
    """A game in play with the given worlds (FEN placements); no castling unless given."""
    state = LG.new_game(options)
    state.phase = "play"
    state.rows = {"white": "RNBQKBNR", "black": "RNBQKBNR"}
    state.worlds = {"R": chess.BaseBoard(real), "M": chess.BaseBoard(mirror)}
    state.to_move = to_move
    state.castling = castling or {"white": [], "black": []}
    return state


def started(white: str = "518", black: str = "518", **options: Any) -> GameState:
    """A game set up through the real setup orders."""
    state = LG.new_game(options)
    assert LG.play(state, "white", f"setup {white}").result == "setup"
    assert LG.play(state, "black", f"setup {black}").result == "setup"
    return state


def play(state: GameState, side: Side, text: str) -> Outcome:
    return LG.play(state, side, text)


def piece(state: GameState, where: str) -> str | None:
    """The FEN letter at ``"R:e4"``, or None when empty."""
    world, square = where.split(":")
    found = state.worlds[world].piece_at(chess.parse_square(square))
    return found.symbol() if found else None


def kinds(messages: list[dict[str, Any]]) -> list[str]:
    return [message["kind"] for message in messages]
