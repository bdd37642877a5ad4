"""The whole state of one Looking-Glass game, as plain data that round-trips through JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import chess

from app.rules.base import Side
from app.rules.common import SetupPhase
from app.rules.placement import board_from_placement, board_placement

WORLDS = ("R", "M")
HOME: dict[Side, str] = {"white": "R", "black": "M"}
COLOR: dict[Side, chess.Color] = {"white": chess.WHITE, "black": chess.BLACK}
SIDE_OF: dict[chess.Color, Side] = {chess.WHITE: "white", chess.BLACK: "black"}


def other_world(world: str) -> str:
    return "M" if world == "R" else "R"


@dataclass
class EnPassant:
    """LG-8: after a full double step in ``world`` over ``square``; the pawn now at ``victim``."""

    world: str
    square: int
    victim_world: str
    victim: int

    def to_json(self) -> dict[str, str]:
        return {
            "world": self.world,
            "square": chess.square_name(self.square),
            "victim": f"{self.victim_world}:{chess.square_name(self.victim)}",
        }

    @classmethod
    def from_json(cls, data: dict[str, str]) -> EnPassant:
        victim_world, victim = data["victim"].split(":")
        return cls(data["world"], chess.parse_square(data["square"]), victim_world, chess.parse_square(victim))


@dataclass
class GameState(SetupPhase):
    """Everything the referee knows. Only views derived from it ever reach a player."""

    options: dict[str, Any]
    phase: str = "setup"  # "setup" | "play" | "over"
    rows: dict[Side, str | None] = field(default_factory=lambda: {"white": None, "black": None})
    worlds: dict[str, chess.BaseBoard] = field(
        default_factory=lambda: {world: chess.BaseBoard(None) for world in WORLDS}
    )
    to_move: Side = "white"
    proxy: bool = False  # impossible=forfeit: the opponent orders for the army to move
    move_number: int = 1
    strikes: dict[Side, int] = field(default_factory=lambda: {"white": 0, "black": 0})
    tray: str = ""
    castling: dict[Side, list[str]] = field(default_factory=lambda: {"white": [], "black": []})
    ep: EnPassant | None = None
    draw_offer: Side | None = None
    notebooks: dict[Side, dict[str, list[Any]]] = field(default_factory=lambda: {"white": {}, "black": {}})
    result: str | None = None
    reason: str | None = None

    def close(self) -> None:
        """At the end nobody is to order, for any army."""
        super().close()
        self.proxy = False

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": "looking-glass",
            "options": dict(self.options),
            **self.setup_json(),
            "worlds": {world: board_placement(board) for world, board in self.worlds.items()},
            "to_move": self.to_move,
            "proxy": self.proxy,
            "move_number": self.move_number,
            "strikes": dict(self.strikes),
            "tray": self.tray,
            "castling": {side: list(squares) for side, squares in self.castling.items()},
            "ep": self.ep.to_json() if self.ep else None,
            "notebooks": {
                side: {square: list(entry) for square, entry in book.items()}
                for side, book in self.notebooks.items()
            },
            **self.status_json(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameState:
        return cls(
            options=dict(data["options"]),
            phase=data["phase"],
            rows=dict(data["rows"]),
            worlds={world: board_from_placement(fen) for world, fen in data["worlds"].items()},
            to_move=data["to_move"],
            proxy=data["proxy"],
            move_number=data["move_number"],
            strikes=dict(data["strikes"]),
            tray=data["tray"],
            castling={side: list(squares) for side, squares in data["castling"].items()},
            ep=EnPassant.from_json(data["ep"]) if data["ep"] else None,
            notebooks={
                side: {square: list(entry) for square, entry in book.items()}
                for side, book in data["notebooks"].items()
            },
            **cls.status_from(data),
        )
