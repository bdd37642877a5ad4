"""The whole state of one 4D Quasi-Alice game, as plain data that round-trips through JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.rules.base import Side
from app.rules.common import GameStatus
from app.rules.quasi_alice.movegen import Move, en_passant_possible, legal_moves
from app.rules.quasi_alice.position import (
    BOARD_NAMES,
    START,
    WHITE,
    Position,
    castling_from_text,
    castling_text,
    parse_label,
    square_label,
)

SIDE_OF = {WHITE: "white", 1 - WHITE: "black"}
COLOR_OF: dict[Side, int] = {"white": WHITE, "black": 1 - WHITE}


@dataclass
class GameState(GameStatus):
    """The position plus what the rules of the end need (QA4-7, QA4-9): the move counters and the
    positions seen since the last pawn move or capture. Caches of derived values are not part of it."""

    position: Position
    halfmove_clock: int = 0  # moves since the last pawn move or capture (QA4-9, the 50-move rule)
    move_number: int = 1
    history: list[str] = field(default_factory=list)  # repetition keys since the clock was last reset
    draw_offer: Side | None = None
    last_move: str | None = None
    result: str | None = None
    reason: str | None = None
    _legal: list[Move] | None = field(default=None, compare=False, repr=False)
    _placements: list[str | None] = field(default_factory=lambda: [None] * 4, compare=False, repr=False)

    @classmethod
    def start(cls) -> GameState:
        """QA4-1: the standard position on A, B to D empty, White to move, every castling right."""
        state = cls(Position.from_placements(START, castling=castling_from_text("KQkq")))
        state.history = [state.repetition_key()]
        return state

    @property
    def to_move(self) -> Side:
        return SIDE_OF[self.position.turn]

    def legal_moves(self, cell: int = -1) -> list[Move]:
        """The side to move's legal moves (generated once per position), or those of the piece on ``cell``."""
        if self._legal is None:
            if cell >= 0:
                return legal_moves(self.position, cell)
            self._legal = legal_moves(self.position)
        return self._legal

    def placement(self, board: int) -> str:
        cached = self._placements[board]
        if cached is None:
            cached = self._placements[board] = self.position.placement(board)
        return cached

    def placements(self) -> dict[str, str]:
        return {name: self.placement(index) for index, name in enumerate(BOARD_NAMES)}

    def changed(self, *boards: int) -> None:
        """Forget what was derived from the boards a move touched."""
        for board in boards:
            self._placements[board] = None
        self._legal = None

    def en_passant_label(self) -> str | None:
        ep = self.position.ep
        return square_label(ep >> 6, ep & 63) if ep >= 0 else None

    def repetition_key(self) -> str:
        """QA4-9: the four boards, the side to move, castling rights and en passant rights (counted, as
        in FIDE, only when an en passant capture is possible)."""
        ep = "-"
        if en_passant_possible(self.position):
            ep = self.en_passant_label() or "-"
        boards = " ".join(self.placement(board) for board in range(4))
        return f"{boards} {'w' if self.position.turn == WHITE else 'b'} {castling_text(self.position.castling)} {ep}"

    # ----------------------------------------------------------------- JSON

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": "quasi-alice-4d",
            "boards": self.placements(),
            "to_move": self.to_move,
            "castling": castling_text(self.position.castling),
            "en_passant": self.en_passant_label(),
            "halfmove_clock": self.halfmove_clock,
            "move_number": self.move_number,
            "history": list(self.history),
            "last_move": self.last_move,
            **self.status_json(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameState:
        ep = -1
        if data["en_passant"]:
            board, square = parse_label(data["en_passant"])
            ep = board * 64 + square
        position = Position.from_placements(
            [data["boards"][name] for name in BOARD_NAMES],
            COLOR_OF[data["to_move"]],
            castling_from_text(data["castling"]),
            ep,
        )
        return cls(
            position,
            halfmove_clock=data["halfmove_clock"],
            move_number=data["move_number"],
            history=list(data["history"]),
            last_move=data["last_move"],
            **cls.status_from(data),
        )
