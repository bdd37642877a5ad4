"""The commands every variant shares: resigning and the draw offer (RULES.md, "Orders by email").

Each referee reads its own orders and hands these words here, so every variant gives
them the same results and message kinds (CONTRACT.md): ``resigned``, ``offered``,
``declined``, ``drawn``, and ``rejected`` when there is nothing to answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Protocol

from app.rules.base import OrderError, Outcome, Side, other

COMMON_COMMANDS = {
    "resign": "resign",
    "offer draw": "offer-draw",
    "draw offer": "offer-draw",
    "draw?": "offer-draw",
    "accept draw": "accept-draw",
    "decline draw": "decline-draw",
    "refuse draw": "decline-draw",
}
COMMON_WORDS = frozenset({"resign", "offer", "accept", "decline", "refuse", "draw", "draw?"})
# A letter and a number, alone or after a piece letter or "x" (Nf3, exd5): meant as a square.
_SQUARE_LIKE = re.compile(r"(?:(?<![a-z])|(?<=[kqrbnx]))([a-z])([0-9]+)(?![0-9])")


class HasDrawOffer(Protocol):
    draw_offer: Side | None


Ending = Callable[[Any, Outcome, str, str], None]
"""``end(state, outcome, result, reason)``: the variant's own way of ending a game (and telling both)."""


def common_command(text: str) -> str | None:
    """The common command a normalised line is (``"offer-draw"``, ...), or None."""
    return COMMON_COMMANDS.get(text.strip().rstrip(".!"))


def unreadable(line: str, accepted: str, coordinates_only: bool = False) -> OrderError:
    """The error for a line no order form fits, with the first thing wrong in it that a player can fix.

    ``coordinates_only``: the variant reads moves only as two squares (no piece letters), so a line
    naming a single square is a move with one square missing.
    """
    text = " ".join(line.lower().split())
    reason = f"could not read {line.strip()!r} as an order"
    squares = []
    for file, rank in _SQUARE_LIKE.findall(text):
        if file > "h" or rank not in "12345678" or len(rank) != 1:
            return OrderError(f"{reason}: {file}{rank} is not a square (files run a to h, ranks 1 to 8)", accepted)
        squares.append(file + rank)
    if coordinates_only and len(squares) == 1:
        return OrderError(f"{reason}: a move names two squares, the one it leaves and the one it goes to, "
                          f"and this names only {squares[0]}", accepted)
    return OrderError(reason, accepted)


def win_for(side: Side) -> str:
    return "1-0" if side == "white" else "0-1"


def answer_common(state: HasDrawOffer, side: Side, name: str, end: Ending) -> Outcome:
    """Carry out a common command for ``side``; the game must be running."""
    if name == "resign":
        outcome = Outcome("resigned", order="resign")
        end(state, outcome, win_for(other(side)), "resigned")
        return outcome
    if name == "offer-draw":
        if state.draw_offer == side:
            return Outcome.only("rejected", side, {"kind": "rejected", "reason": "you have already offered a draw"})
        if state.draw_offer == other(side):
            return answer_common(state, side, "accept-draw", end)
        state.draw_offer = side
        outcome = Outcome("offered", order="offer draw")
        outcome.tell_both({"kind": "draw-offered", "color": side})
        return outcome
    if state.draw_offer != other(side):
        reason = "there is no draw offer from your opponent to answer"
        return Outcome.only("rejected", side, {"kind": "rejected", "reason": reason})
    if name == "accept-draw":
        outcome = Outcome("drawn", order="accept draw")
        end(state, outcome, "1/2-1/2", "agreement")
        return outcome
    state.draw_offer = None
    outcome = Outcome("declined", order="decline draw")
    outcome.tell_both({"kind": "draw-declined", "color": side})
    return outcome


def forfeit(state: Any, side: Side, reason: str, end: Ending) -> Outcome:
    """``side`` loses for a reason off the board, such as the correspondence clock."""
    outcome = Outcome("resigned")
    outcome.tell_both({"kind": "timeout" if reason == "time" else "forfeit", "color": side})
    end(state, outcome, win_for(other(side)), reason)
    return outcome
