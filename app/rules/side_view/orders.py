"""Reading one order line of Side View Chess (SV-3, SV-5, "Orders by email" in the rules): coordinate moves
and castling, as every variant reads them (``app.rules.reading``), and ``claim draw``.

Reading depends on the text alone, never on the position: whatever the board
holds, the same line is read the same way (or is the same error), so an error
tells the player nothing about pieces they cannot see.
"""

from __future__ import annotations

from app.rules import reading
from app.rules.reading import Castle, Command, CoordinateMove, Setup

__all__ = ["Castle", "Command", "Move", "Order", "Setup", "mentions_order", "read_order"]

ACCEPTED_FORMS = (
    "e2-e4 (also e2e4 or e2 e4), e7-e8=Q (promotion to Q, R, B or N; without a letter a queen), "
    "O-O, O-O-O (also 0-0, 0-0-0), resign, offer draw, accept draw, decline draw, claim draw"
)
COMMANDS = {"claim draw": "claim-draw", "claim": "claim-draw", "draw claim": "claim-draw"}
COMMAND_WORDS = frozenset({"setup", "claim", *reading.COMMON_WORDS})

Move = CoordinateMove  # promotion None when the order names no piece: a queen (SV-5)


Order = Move | Castle | Command | Setup


def mentions_order(line: str) -> bool:
    """Whether a line has a square name or starts with a command word (else it is chatter)."""
    return reading.mentions_order(line, COMMAND_WORDS)


def read_order(line: str) -> Order:
    """Read one order line; raises OrderError saying what is accepted."""
    order: Order = reading.read_line(line, reading.plain_forms(line, ACCEPTED_FORMS), ACCEPTED_FORMS, COMMANDS,
                                     setup=True)
    return order
