"""The whole state of one Dark Chess game, as plain data that round-trips through JSON.

The board is kept as its start position plus the moves played (``fide.BoardRecord``): python-chess rebuilds
the castling rights, the en passant square and the move counts from them. Both players' sight (DC-3) is
worked out once per position, when a view is first asked for, and kept until the next move.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import chess

from app.rules.base import Side
from app.rules.common import GameStatus
from app.rules.dark_chess.sight import Sight, sights
from app.rules.fide import BoardRecord, replayed


@dataclass
class GameState(GameStatus, BoardRecord):
    """Everything the referee knows. Only views derived from it ever reach a player."""

    options: dict[str, Any]
    start: str  # FEN of the start position
    moves: list[str] = field(default_factory=list)  # UCI, as python-chess writes them on this board
    tray: str = ""  # every man taken, as FEN letters (upper case White), in order
    draw_offer: Side | None = None
    result: str | None = None
    reason: str | None = None
    board: chess.Board = field(init=False, compare=False, repr=False)  # the start with the moves played
    _sights: tuple[int, dict[Side, Sight]] | None = field(default=None, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        self.board = replayed(self.start, self.moves, self.options["setup"] == "chess960")

    def sight(self, side: Side) -> Sight:
        """What ``side`` sees now (DC-3): both players' sight is worked out together, once a position."""
        if self._sights is None or self._sights[0] != len(self.moves):
            self._sights = (len(self.moves), sights(self.board))
        return self._sights[1][side]

    def to_json(self) -> dict[str, Any]:
        return {"variant": "dark-chess", "options": dict(self.options), **self.board_json(), **self.status_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameState:
        return cls(options=dict(data["options"]), start=data["start"], moves=list(data["moves"]), tray=data["tray"],
                   **cls.status_from(data))
