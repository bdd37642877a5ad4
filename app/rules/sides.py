"""The two sides of a game: what every other plain value of the referees (messages, outcomes) names."""

from __future__ import annotations

from typing import Literal

Side = Literal["white", "black"]
SIDES: tuple[Side, Side] = ("white", "black")


def other(side: Side) -> Side:
    """The opponent of ``side``."""
    return "black" if side == "white" else "white"
