"""Reading one order line of Dark Chess (DC-2, DC-6, "Orders by email" in the rules): coordinate moves and
castling, as every variant reads them (``app.rules.reading``).

Reading depends on the text alone, never on the position, so an error tells nothing about the fog. Whether a
move is allowed is the referee's question; a king's order onto its own rook on its back rank is castling
(``fide.castling_written``), judged there.
"""

from __future__ import annotations

from app.rules import reading
from app.rules.reading import Castle, Command, CoordinateMove

__all__ = ["ACCEPTED_FORMS", "Castle", "Command", "Move", "Order", "read_order"]

ACCEPTED_FORMS = (
    "e2-e4 (also e2e4 or e2 e4), e7-e8=N (promotion to Q, R, B or N; without a letter a queen), "
    "O-O, O-O-O (also 0-0, 0-0-0, or the king onto its rook: e1-h1), resign, offer draw, accept draw, decline draw"
)

Move = CoordinateMove  # promotion None when the order names no piece: a queen, if it promotes (DC-2)
Order = Move | Castle | Command


def read_order(line: str) -> Order:
    """Read one order line; raises OrderError saying what is accepted."""
    order: Order = reading.read_line(line, reading.plain_forms(line, ACCEPTED_FORMS), ACCEPTED_FORMS)
    return order
