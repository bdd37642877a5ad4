"""Reading one order line of Through the Looking-Glass ("Orders by email" in the rules): a world in front of
a move (``R e2-e4``, ``M:d7-d5``, ``real e2 e4``), the rest as every variant reads it (``app.rules.reading``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

import chess

from app.rules import reading
from app.rules.reading import Command, CoordinateMove, Setup

__all__ = ["Castle", "Command", "Move", "Order", "Setup", "mentions_order", "read_order"]

WORLD_WORDS = {"r": "R", "real": "R", "m": "M", "mirror": "M"}
KING_PROMOTION = {**reading.PROMOTION_LETTERS, "k": chess.KING}  # =K, refused unless win=extinction (LG-11)

ACCEPTED_FORMS = (
    "R e2-e4 (a move in the Real world), M:d7-d5 or mirror d7 d5 (in the Mirror world), "
    "e2-e4 (the world where your piece stands), d7-d8=N (promotion), O-O, O-O-O, "
    "ask, resign, offer draw, accept draw, decline draw"
)

_WORLD = r"(?:(?P<world>real|mirror|r|m)\s*:?\s*)?"
COMMANDS = {"ask": "ask"}
COMMAND_WORDS = frozenset({"ask", "setup", *reading.COMMON_WORDS})


@dataclass(frozen=True, slots=True)
class Move(CoordinateMove):
    """A move order; ``world`` is None when the player left it out."""

    world: str | None = None

    def text(self, world: str | None = None) -> str:
        """The order written the way messages write it, e.g. ``M:e4-e6`` or ``R:d7-d8=N``."""
        where = world or self.world
        return f"{where}:{CoordinateMove.text(self)}" if where else CoordinateMove.text(self)


@dataclass(frozen=True, slots=True)
class Castle:
    """``O-O`` (long=False) or ``O-O-O``; ``world`` as written, if any."""

    long: bool
    world: str | None = None

    def text(self, world: str | None = None) -> str:
        return "O-O-O" if self.long else "O-O"


Order = Move | Castle | Command | Setup


def castle(found: re.Match[str]) -> Castle:
    return Castle(found["castle"] == "o-o-o", WORLD_WORDS.get(found["world"] or ""))


def move(found: re.Match[str]) -> Move:
    to, world = found["to"], found["world"]
    return Move(chess.parse_square(found["from"]), chess.parse_square(to),
                reading.promotion_piece(found["promo"], to, KING_PROMOTION), reading.piece_letter(found["piece"]),
                WORLD_WORDS[world] if world else None)


FORMS: list[reading.Form] = [
    (reading.castling(before=_WORLD), castle),
    (reading.coordinate_move(before=_WORLD, promotions="qrbnk"), move),
]


def mentions_order(line: str) -> bool:
    """Whether a line has a square name or starts with a command word (else it is chatter)."""
    return reading.mentions_order(line, COMMAND_WORDS)


def read_order(line: str) -> Order:
    """Read one order line; raises OrderError saying what was expected."""
    order: Order = reading.read_line(line, FORMS, ACCEPTED_FORMS, COMMANDS, setup=True)
    return order
