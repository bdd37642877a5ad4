"""The variant interface every referee implements, and the values it hands out.

A referee is pure: plain data in, plain data out. It never touches mail, HTTP or
a database, so the same code adjudicates a scenario file, an email and a web form.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

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
    """An order could not be read: ``reason`` says why, ``accepted`` the forms the variant reads (both in
    ``str``, for a scenario's output; a mail shows the reason and the order forms apart)."""

    def __init__(self, reason: str, accepted: str = "") -> None:
        super().__init__(f"{reason}. Accepted forms: {accepted}" if accepted else reason)
        self.reason = reason


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
    "passed",
]
MOVES = frozenset({"moved", "shortened", "passed"})
"""Results that complete a turn: the next order is the next ply (a reply to an older request is stale)."""


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


class Variant:
    """One variant's referee, looked up by name (``app.rules.registry``).

    The rest of the server asks a variant and never names one. Subclasses override what their rules
    need; every default is harmless: no options, no setup phase, no strikes, one board, no automatic
    events, no examples. State objects are opaque to callers except through these methods.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    boards: ClassVar[tuple[str, ...]] = ("board",)  # the keys of ``position``
    move_lines: ClassVar[int] = 1  # move lines one reply may hold; more than one: tried in turn until one is played

    # ----------------------------------------------------------------- a new game

    def parse_options(self, raw: dict[str, Any]) -> dict[str, Any]:
        """Validate and complete the variant's options (raises OptionError). Default: no options."""
        if raw:
            raise OptionError(f"{self.title} takes no options, not {', '.join(sorted(raw))}")
        return {}

    def new_game(self, options: dict[str, Any], rng: random.Random | None = None) -> Any:
        """A fresh state, waiting for setups if the game has a setup phase; ``rng`` draws what the
        options leave to chance (a random start position), so a scenario's seed reproduces it."""
        raise NotImplementedError

    def needs_setup(self, state: Any, side: Side) -> bool:
        """Whether ``side`` still has to send a setup (``setup ...``) before play can start."""
        return False

    def hidden_setups(self, state: Any) -> dict[Side, str]:
        """The setups each player chose in private, once both are in: the server commits to them when play
        starts (a fingerprint to each player) and reveals them at the end. Default: none."""
        return {}

    # ----------------------------------------------------------------- orders

    def play(self, state: Any, side: Side, text: str, rng: random.Random | None = None) -> Outcome:
        """Read one order line from ``side`` and apply it to ``state`` in place."""
        raise NotImplementedError

    def automatic(self, state: Any) -> tuple[Side, Outcome] | None:
        """An event the referee makes on its own after an order (e.g. passing for a player who cannot
        move), applied to ``state``, with the side it was made for; None when there is none. The caller
        asks again until None."""
        return None

    def forfeit(self, state: Any, side: Side, reason: str) -> Outcome:
        """End the game with ``side`` losing for a reason off the board (e.g. ``"time"``)."""
        raise NotImplementedError

    def is_order(self, text: str) -> bool:
        """Whether a line looks meant as an order (a square name or command word), else it is chatter."""
        raise NotImplementedError

    def order_kind(self, text: str) -> str:
        """``"move"`` for a move order, ``"order"`` for any other referee command; raises OrderError."""
        raise NotImplementedError

    def written(self, text: str) -> str:
        """An order line as the referee writes it back (``R:e2-e4`` for ``real e2 e4``), for a notice that
        echoes an order it did not play; any other line, as sent, spaces squeezed."""
        try:
            move = self.move_written(text)
        except OrderError:
            move = None
        return move or " ".join(text.split())

    def move_written(self, text: str) -> str | None:
        """A move order in the referee's spelling; None for a line that is no move. Raises OrderError."""
        return None

    # ----------------------------------------------------------------- what is known

    def view(self, state: Any, side: Side) -> View:
        """What ``side`` sees now; depends only on what the rules told them."""
        raise NotImplementedError

    def orderer(self, state: Any) -> Side | None:
        """Who is expected to send the next move order (None when over or in setup)."""
        raise NotImplementedError

    def army_to_move(self, state: Any) -> Side | None:
        """Whose army moves next (differs from the orderer only where one player orders for the other)."""
        return self.orderer(state)

    def move_number(self, state: Any) -> int:
        """The full-move number of the move being played (White's and Black's move share one)."""
        raise NotImplementedError

    def result(self, state: Any) -> tuple[str | None, str | None]:
        """``(result, reason)``, e.g. ``("1-0", "checkmate")``; Nones while running."""
        raise NotImplementedError

    def position(self, state: Any) -> dict[str, str]:
        """The true position, as FEN placements by board name (referee eyes only)."""
        raise NotImplementedError

    def strikes(self, state: Any) -> dict[Side, int]:
        """Strike counts by side (zeros for variants without strikes)."""
        return {"white": 0, "black": 0}

    def public(self, state: Any) -> dict[str, Any]:
        """What both players know besides their views (counts both are told), for the status lines."""
        return {"strikes": self.strikes(state)}

    def plausible_orders(self, view: View, side: Side) -> list[str]:
        """Every order ``side`` might mean now, worked out from their view alone (for "did you mean ...?"
        when a line cannot be read). Default: the examples."""
        return self.example_orders(view, side)

    def example_orders(self, view: View, side: Side) -> list[str]:
        """A few orders ``side`` could send now, worked out from their own view alone (never from the
        state, so they tell nothing the view does not), written in the variant's canonical form."""
        return []

    # ----------------------------------------------------------------- storage

    def to_json(self, state: Any) -> dict[str, Any]:
        """The state as plain JSON data; ``from_json(to_json(s))`` is ``s``."""
        raise NotImplementedError

    def from_json(self, data: dict[str, Any]) -> Any:
        """Rebuild a state from ``to_json`` output."""
        raise NotImplementedError

    # ----------------------------------------------------------------- checks and tests

    def legal_orders(self, state: Any) -> list[str]:
        """Every distinct move the player to move may play now, each once, in canonical order form: the
        moves ``perft`` counts (no rejection, no strike; nothing when the game is decided on the board)."""
        raise NotImplementedError

    def perft(self, state: Any, depth: int) -> dict[str, int]:
        """The number of move sequences of ``depth`` moves after each legal order (perft's divide).

        The generic walk replays each order on a copy; variants whose ``play`` ends games by repetition or
        move counts (which perft ignores) or that want speed count on their own."""
        divide = {}
        for order in self.legal_orders(state):
            child = self.from_json(self.to_json(state))
            self.play(child, self.orderer(state) or "white", order)
            while self.automatic(child) is not None:
                pass
            divide[order] = 1 if depth <= 1 else sum(self.perft(child, depth - 1).values())
        return divide

    def random_order(self, state: Any, side: Side, rng: random.Random) -> str:
        """A plausible order line for ``side`` (the player expected to order), for the property tests,
        the benchmarks and the demo. Default: one of the legal moves."""
        return rng.choice(self.legal_orders(state))
