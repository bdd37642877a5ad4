"""The variant interface every referee implements, and the values it hands out.

A referee is pure: plain data in, plain data out. It never touches mail, HTTP or
a database, so the same code adjudicates a scenario file, an email and a web form.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

Side = Literal["white", "black"]
SIDES: tuple[Side, Side] = ("white", "black")

Message = dict[str, Any]
"""One thing a player is told, e.g. ``{"kind": "strike", "color": "white", "count": 1}``."""

View = dict[str, Any]
"""What one player sees right now (their board, notebook, tray...)."""


def other(side: Side) -> Side:
    """The opponent of ``side``."""
    return "black" if side == "white" else "white"


class RulesError(ValueError):
    """Base class of every error a referee reports back to a player."""


class OptionError(RulesError):
    """A game option is unknown or has a value the variant does not accept."""


class SetupError(RulesError):
    """A setup (back-rank arrangement) breaks a named constraint."""


class OrderError(RulesError):
    """An order could not be read; the text says what is accepted instead."""


Result = Literal[
    "moved",
    "shortened",
    "strike",
    "rejected",
    "error",
    "answered",
    "forfeit-order",
    "impossible",
    "setup",
    "offered",
    "declined",
    "resigned",
    "drawn",
]


@dataclass
class Outcome:
    """What one order did: its result and what each player is told (in order)."""

    result: Result
    to: dict[Side, list[Message]] = field(default_factory=lambda: {"white": [], "black": []})

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


class Variant(Protocol):
    """One game's referee. State objects are opaque to callers except via these."""

    name: str
    title: str

    def parse_options(self, raw: dict[str, Any]) -> dict[str, Any]:
        """Validate and complete the variant's options (raises OptionError)."""

    def new_game(self, options: dict[str, Any]) -> Any:
        """A fresh state, waiting for setups if the variant has a setup phase."""

    def needs_setup(self, state: Any, side: Side) -> bool:
        """Whether ``side`` still has to send a setup."""

    def play(self, state: Any, side: Side, text: str, rng: Any = None) -> Outcome:
        """Read one order line from ``side`` and apply it to ``state`` in place."""

    def forfeit(self, state: Any, side: Side, reason: str) -> Outcome:
        """End the game with ``side`` losing for a reason off the board (e.g. ``"time"``)."""

    def is_order(self, text: str) -> bool:
        """Whether a line looks meant as an order (a square name or command word)."""

    def order_kind(self, text: str) -> str:
        """``"move"`` for a move order, ``"order"`` for any other referee command; raises OrderError."""

    def view(self, state: Any, side: Side) -> View:
        """What ``side`` sees now; depends only on what the rules told them."""

    def orderer(self, state: Any) -> Side | None:
        """Who is expected to send the next move order (None when over or in setup)."""

    def army_to_move(self, state: Any) -> Side | None:
        """Whose army moves next (differs from the orderer for proxy orders)."""

    def move_number(self, state: Any) -> int:
        """The full-move number of the move being played."""

    def result(self, state: Any) -> tuple[str | None, str | None]:
        """``(result, reason)``, e.g. ``("1-0", "king captured")``; Nones while running."""

    def position(self, state: Any) -> dict[str, str]:
        """The true position, as FEN placements by board name (referee eyes only)."""

    def strikes(self, state: Any) -> dict[Side, int]:
        """Strike counts by side (zeros for variants without strikes)."""

    def to_json(self, state: Any) -> dict[str, Any]:
        """The state as plain JSON data; ``from_json(to_json(s))`` is ``s``."""

    def from_json(self, data: dict[str, Any]) -> Any:
        """Rebuild a state from ``to_json`` output."""
