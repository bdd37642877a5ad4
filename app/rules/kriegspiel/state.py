"""The whole state of one Kriegspiel game, as plain data that round-trips through JSON.

The board is kept as its start position plus the moves played, so python-chess has the
history that threefold repetition (KS-4) needs after a reload.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import chess

from app.rules.base import Side
from app.rules.common import GameStatus
from app.rules.fide import BoardRecord, replayed


@dataclass
class GameState(GameStatus, BoardRecord):
    """Everything the referee knows. Only views derived from it ever reach a player."""

    options: dict[str, Any]
    start: str  # FEN of the start position
    moves: list[str] = field(default_factory=list)  # UCI, as python-chess writes them on this board
    tray: str = ""  # every man captured, as FEN letters (upper case White), in capture order
    draw_offer: Side | None = None
    result: str | None = None
    reason: str | None = None
    board: chess.Board = field(init=False, compare=False, repr=False)  # the start with the moves played

    def __post_init__(self) -> None:
        self.board = replayed(self.start, self.moves, self.options["setup"] == "chess960")

    def to_json(self) -> dict[str, Any]:
        return {"variant": "kriegspiel", "options": dict(self.options), **self.board_json(), **self.status_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameState:
        return cls(options=dict(data["options"]), start=data["start"], moves=list(data["moves"]), tray=data["tray"],
                   **cls.status_from(data))
