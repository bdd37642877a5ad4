"""Reading one order line of Kriegspiel (KS-2, KS-6, "Orders by email" in the rules): coordinate moves and
castling, as every variant reads them (``app.rules.reading``).

Reading depends on the text alone, never on the position: whatever the board holds, the
same line is read the same way (or is the same error), so an error tells the player
nothing about pieces they cannot see. Whether a move is legal is the referee's question.
"""

from __future__ import annotations

from app.rules import reading
from app.rules.reading import Castle, Command, CoordinateMove

__all__ = ["MOST_TRIES", "Castle", "Command", "Move", "Order", "read_order"]

MOST_TRIES = 8  # KS-5: move lines in one reply
ACCEPTED_FORMS = (
    "e2-e4 (also e2e4 or e2 e4), e7-e8=Q (promotion to Q, R, B or N; without a letter a queen), "
    f"O-O, O-O-O (also 0-0, 0-0-0), up to {MOST_TRIES} moves one to a line as tries, "
    "resign, offer draw, accept draw, decline draw"
)

Move = CoordinateMove  # promotion None when the order names no piece: a queen, if it promotes (KS-2)
Order = Move | Castle | Command


def read_order(line: str) -> Order:
    """Read one order line; raises OrderError saying what is accepted."""
    order: Order = reading.read_line(line, reading.plain_forms(line, ACCEPTED_FORMS), ACCEPTED_FORMS)
    return order
