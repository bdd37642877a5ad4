"""Reading one order line of Side View Chess (SV-3, SV-5, "Orders by email" in RULES.md): coordinate moves
and castling, as every variant reads them (``app.rules.reading``), and ``claim draw``.

Reading depends on the text alone, never on the position: whatever the board
holds, the same line is read the same way (or is the same error), so an error
tells the player nothing about pieces they cannot see.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.rules import reading
from app.rules.base import OrderError
from app.rules.reading import Command, CoordinateMove, Setup

__all__ = ["Castle", "Command", "Move", "Order", "Setup", "mentions_order", "read_order"]

ACCEPTED_FORMS = (
    "e2-e4 (also e2e4 or e2 e4), e7-e8=Q (promotion to Q, R, B or N; without a letter a queen), "
    "O-O, O-O-O (also 0-0, 0-0-0), resign, offer draw, accept draw, decline draw, claim draw"
)
COMMANDS = {"claim draw": "claim-draw", "claim": "claim-draw", "draw claim": "claim-draw"}
COMMAND_WORDS = frozenset({"setup", "claim", *reading.COMMON_WORDS})

Move = CoordinateMove  # promotion None when the order names no piece: a queen (SV-5)


@dataclass(frozen=True, slots=True)
class Castle:
    """``O-O`` (long=False) or ``O-O-O``."""

    long: bool

    def text(self) -> str:
        return "O-O-O" if self.long else "O-O"


Order = Move | Castle | Command | Setup


def mentions_order(line: str) -> bool:
    """Whether a line has a square name or starts with a command word (else it is chatter)."""
    return reading.mentions_order(line, COMMAND_WORDS)


def read_move(line: str, found: re.Match[str]) -> Move:
    """A coordinate move; its promotion letter must be Q, R, B or N, on a move to rank 1 or 8."""
    letter = found["promo"]
    if letter is not None and letter not in reading.PROMOTION_LETTERS:
        raise OrderError(f"{line.strip()!r}: a pawn is promoted to Q, R, B or N", ACCEPTED_FORMS)
    if letter is not None and found["to"][1] not in "18":
        raise OrderError(f"{line.strip()!r}: a promotion letter goes only with a move to rank 1 or 8")
    return reading.coordinates(found)


_CASTLE = reading.castling()
_MOVE = reading.coordinate_move(promotions="a-z")


def read_order(line: str) -> Order:
    """Read one order line; raises OrderError saying what is accepted."""
    forms: list[reading.Form] = [
        (_CASTLE, lambda found: Castle(found["castle"] == "o-o-o")),
        (_MOVE, lambda found: read_move(line, found)),
    ]
    order: Order = reading.read_line(line, forms, ACCEPTED_FORMS, COMMANDS, setup=True)
    return order
