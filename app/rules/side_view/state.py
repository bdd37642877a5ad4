"""The whole state of one Side View game, as plain data that round-trips through JSON.

The board is kept as its start position plus the moves played, so python-chess has
the history it needs for threefold and fivefold repetition after a reload.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import chess

from app.rules.base import Side
from app.rules.common import SetupPhase
from app.rules.fide import BoardRecord, replayed


def start_position(white_row: str, black_row: str) -> str:
    """SV-1 / LG-2: White's row on rank 1, Black's on rank 8 read a-file to h-file, pawns on 2 and 7.

    Castling rights go to every rook of both rows (Shredder-FEN letters, so different rows are fine).
    """
    rights = "".join(chr(ord("A") + file) for file in range(7, -1, -1) if white_row[file] == "R")
    rights += "".join(chr(ord("a") + file) for file in range(7, -1, -1) if black_row[file] == "R")
    return f"{black_row.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{white_row.upper()} w {rights} - 0 1"


@dataclass
class GameState(SetupPhase, BoardRecord):
    """Everything the referee knows. Only views derived from it ever reach a player."""

    options: dict[str, Any]
    phase: str = "setup"  # "setup" | "play" | "over"
    rows: dict[Side, str | None] = field(default_factory=lambda: {"white": None, "black": None})
    start: str | None = None  # FEN of the start position, once play can begin
    moves: list[str] = field(default_factory=list)  # UCI, as python-chess writes them on this board
    tray: str = ""
    draw_offer: Side | None = None
    result: str | None = None
    reason: str | None = None
    board: chess.Board = field(default_factory=lambda: chess.Board(None), compare=False, repr=False)

    @property
    def chess960(self) -> bool:
        """Chess960 castling rules for every start but the standard one."""
        return self.options["setup"] != "standard"

    def begin(self, start: str, moves: list[str] | None = None) -> None:
        """Put the start position on the board, with the moves played since where there are, and open play."""
        self.start = start
        self.moves = list(moves or [])
        self.board = replayed(start, self.moves, self.chess960)
        self.phase = "play"

    def to_json(self) -> dict[str, Any]:
        return {"variant": "side-view", "options": dict(self.options), **self.setup_json(), **self.board_json(),
                **self.status_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameState:
        state = cls(
            options=dict(data["options"]),
            rows=dict(data["rows"]),
            tray=data["tray"],
            **cls.status_from(data),
        )
        if data["start"] is not None:
            state.begin(data["start"], data["moves"])
        state.phase = data["phase"]
        return state
