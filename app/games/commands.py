"""The commands a player can send, as read from the new text of a message."""

from __future__ import annotations

from dataclasses import dataclass

REFEREE = "order"  # a line for the variant's referee: moves, setup, ask, resign, draw offers
MOVE = "move"  # a referee line that is a move or castling order


@dataclass(frozen=True)
class Command:
    """One line of a message, understood: ``kind`` is REFEREE, MOVE or a service command."""

    kind: str
    text: str
    argument: str = ""


SERVICE_WORDS = (
    "say", "board", "history", "help", "accept", "decline", "vacation", "notebook", "public",
    "challenge", "games", "name",
)
