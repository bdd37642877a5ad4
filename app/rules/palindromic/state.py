"""The whole state of one Palindromic Chess game, as plain data that round-trips through JSON.

The board is a python-chess ``Board`` in Chess960 mode (the PAL-1 start has Black's king and queen
the other way round, and castling follows Chess960 rules). Alongside it: which rooks are
left-handed (PAL-1; rooks are never captured, so two bits per side are enough), the positions seen
since the last pawn move (threefold repetition, PAL-4), and a pass the referee still owes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import chess

from app.rules.base import Message, Side
from app.rules.common import GameStatus

SIDE_OF: dict[chess.Color, Side] = {chess.WHITE: "white", chess.BLACK: "black"}
COLOR: dict[Side, chess.Color] = {"white": chess.WHITE, "black": chess.BLACK}


def position_key(board: chess.Board, left: int) -> str:
    """What makes two positions the same for repetition: pieces (rooks by hand), side to move, castling
    rights. En passant never counts: PAL-3 forbids it, so it adds no possible move."""
    return "%x %x %x %x %x %x %x %x %x %d" % (  # noqa: UP031 (the fastest way to write ten numbers)
        board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings,
        board.occupied_co[chess.WHITE], left, board.clean_castling_rights(), board.turn,
    )


def left_squares(left: int) -> list[str]:
    return [chess.SQUARE_NAMES[square] for square in chess.scan_forward(left)]


def left_mask(names: list[str]) -> int:
    mask = 0
    for name in names:
        mask |= chess.BB_SQUARES[chess.parse_square(name)]
    return mask


@dataclass
class GameState(GameStatus):
    """Everything the referee knows; all of it is public (PAL-6: full information)."""

    board: chess.Board
    left: int  # the squares of the left-handed rooks, both colours
    options: dict[str, Any] = field(default_factory=dict)
    history: list[str] = field(default_factory=list)  # position keys since the last pawn move
    pass_due: Side | None = None  # a home player the referee must pass for (PAL-4), before anything else
    draw_offer: Side | None = None
    last_move: Message | None = None  # the ``moved`` message of the last move, for the view (PAL-6)
    result: str | None = None
    reason: str | None = None

    @property
    def turn(self) -> Side:
        return SIDE_OF[self.board.turn]

    def close(self) -> None:
        """No pass is owed once the game is over."""
        self.pass_due = None

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": "palindromic",
            "options": dict(self.options),
            "fen": self.board.fen(shredder=True, en_passant="fen"),
            "left": left_squares(self.left),
            "history": list(self.history),
            "pass_due": self.pass_due,
            "last_move": self.last_move,
            **self.status_json(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameState:
        return cls(
            board=chess.Board(data["fen"], chess960=True),
            left=left_mask(data["left"]),
            options=dict(data["options"]),
            history=list(data["history"]),
            pass_due=data["pass_due"],
            last_move=data.get("last_move"),  # absent from states stored before it was kept
            **cls.status_from(data),
        )
