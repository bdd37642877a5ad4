"""The plain values every referee hands out: messages, views, errors, results and outcomes (sides: ``sides``).

``app.rules.base`` exports them all beside the ``Variant`` class; they live here so that the shared
parts of the play template (``app.rules.common``, ``app.rules.reading``) can use them too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.rules import messages
from app.rules.messages import Message
from app.rules.sides import Side

View = dict[str, Any]
"""What one player sees right now (their board, notebook, tray...)."""


class RulesError(ValueError):
    """Base class of every error a referee reports back to a player."""


class OptionError(RulesError):
    """A game option is unknown or has a value the variant does not accept."""


class SetupError(RulesError):
    """A setup (back-rank arrangement) breaks a named constraint."""


class OrderError(RulesError):
    """An order could not be read: ``reason`` says why, ``accepted`` the forms the variant reads (both in
    ``str``, for a scenario's output; a mail shows the reason and the order forms apart)."""

    def __init__(self, reason: str, accepted: str = "") -> None:
        super().__init__(f"{reason}. Accepted forms: {accepted}" if accepted else reason)
        self.reason = reason


Result = str
"""What one order did, as the scenario output and the event record name it: one of ``COMMON_RESULTS`` or
of the variant's own (``Variant.own_results``)."""

COMMON_RESULTS = frozenset({
    "moved",  # a move was made
    "rejected",  # read, but not played: illegal where the player can see, out of turn, after the end
    "error",  # could not be read
    "answered",  # a question was answered
    "setup",  # a setup is in
    "offered", "declined", "drawn", "resigned",  # the common commands (and a forfeit, as "resigned")
    "passed",  # the referee passed for a player who cannot or need not move
})

COMMON_MOVES = frozenset({"moved", "passed"})
"""The common results that complete a turn: the next order is the next ply (a reply to an older request is
stale). A variant adds its own such results (``Variant.own_moves``); ``Variant.completes_turn`` asks both."""


@dataclass
class Outcome:
    """What one order did: its result and what each player is told (in order)."""

    result: Result
    to: dict[Side, list[Message]] = field(default_factory=lambda: {"white": [], "black": []})
    order: str | None = None  # the order as the referee read it, in the variant's canonical form

    def tell(self, side: Side, message: Message) -> None:
        self.to[side].append(message)

    def tell_both(self, message: Message) -> None:
        self.to["white"].append(message)
        self.to["black"].append(dict(message))

    @classmethod
    def only(cls, result: Result, side: Side, message: Message) -> Outcome:
        """An outcome that tells one player one thing and the other nothing."""
        outcome = cls(result)
        outcome.tell(side, message)
        return outcome


def rejected(side: Side, reason: str, order: str | None = None) -> Outcome:
    """An order read but not played: the reason, to the orderer alone."""
    outcome = Outcome.only("rejected", side, messages.rejected(reason))
    outcome.order = order
    return outcome


def error(side: Side, problem: OrderError) -> Outcome:
    """A line that could not be read: what was wrong, to the sender alone."""
    return Outcome.only("error", side, messages.error(str(problem)))
