"""The variant interface every referee implements, the play template behind it, and the values it hands out.

A referee is pure: plain data in, plain data out. It never touches mail, HTTP or a database, so the same
code adjudicates a scenario file, an email and a web form.

How a variant is made (docs/variants.md has the whole walk-through): subclass ``Variant`` in a package
``app/rules/<variant>/`` that exports ``VARIANT``, one instance; give it a ``name``, a ``title``, its
``options``, a state class (a dataclass subclassing ``GameStatus``, with ``to_json``/``from_json``), and
fill in the hooks below. ``play`` is a template: it reads a line with ``read_order``, and everything that
is not the variant's own move (a setup, resigning, draw offers, an order out of turn or after the end, the
end itself) is answered the same way in every variant by ``app.rules.common``; the variant supplies
``move``. Every other hook has a harmless default: no setup phase, no commands of its own, no strikes, no
automatic events, no examples.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from app.rules import common, reading
from app.rules.options import Option, parse
from app.rules.reading import Command, Setup
from app.rules.sides import SIDES, Side, other
from app.rules.values import (
    COMMON_MOVES,
    COMMON_RESULTS,
    Message,
    OptionError,
    OrderError,
    Outcome,
    Result,
    RulesError,
    SetupError,
    View,
    error,
    rejected,
)

__all__ = [
    "COMMON_MOVES", "COMMON_RESULTS", "SIDES", "Message", "OptionError", "OrderError", "Outcome", "Result",
    "RulesError", "SetupError", "Side", "Variant", "View", "error", "other", "rejected",
]
SIDE_TITLE = {"white": "White", "black": "Black"}


class Variant:
    """One variant's referee, looked up by name (``app.rules.registry``).

    The rest of the server asks a variant and never names one. State objects are opaque to callers except
    through these methods.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    options: ClassVar[tuple[Option, ...]] = ()  # its options, with defaults and validation (app.rules.options)
    own_results: ClassVar[frozenset[Result]] = frozenset()  # results besides COMMON_RESULTS, its own words
    own_moves: ClassVar[frozenset[Result]] = frozenset()  # those of them that complete a turn (``completes_turn``)
    command_words: ClassVar[frozenset[str]] = reading.COMMON_WORDS  # first words that make a line an order
    has_check: ClassVar[bool] = False  # a king may never be left attacked (checked by the conformance suite)
    move_lines: ClassVar[int] = 1  # move lines one reply may hold; more than one: tried in turn until one is played

    # ----------------------------------------------------------------- a new game

    def parse_options(self, raw: dict[str, Any]) -> dict[str, Any]:
        """Validate and complete the variant's options from ``options`` (raises OptionError)."""
        return parse(self.options, raw, self.name, self.title)

    def new_game(self, options: dict[str, Any], rng: random.Random | None = None) -> Any:
        """A fresh state, waiting for setups if the game has a setup phase; ``rng`` draws what the
        options leave to chance (a random start position), so a scenario's seed reproduces it."""
        raise NotImplementedError

    def in_setup(self, state: Any) -> bool:
        """Hook: whether the game waits for the players' setups (orders then are refused). Default: never."""
        return False

    def needs_setup(self, state: Any, side: Side) -> bool:
        """Whether ``side`` still has to send a setup (``setup ...``) before play can start."""
        return self.in_setup(state) and state.rows[side] is None

    def setup(self, state: Any, side: Side, value: str, rng: random.Random | None) -> Outcome:
        """A ``setup`` order (only a variant whose ``read_order`` reads them gets one): by default LG-2's
        back rank into ``state.rows[side]``, then ``begin_play`` once both are in."""
        return common.submit_setup(self, state, side, value, rng)

    def begin_play(self, state: Any) -> None:
        """Hook of a variant with a setup phase: place both rows (``state.rows``) and open play."""
        raise NotImplementedError

    def hidden_setups(self, state: Any) -> dict[Side, str]:
        """The setups each player chose in private, once both are in: the server commits to them when play
        starts (a fingerprint to each player) and reveals them at the end. Default: the state's ``rows``
        once both are in (none for a state without)."""
        rows = getattr(state, "rows", None) or {}
        return {side: rows[side] for side in SIDES} if rows and all(rows.values()) else {}

    # ----------------------------------------------------------------- orders: the template

    def play(self, state: Any, side: Side, text: str, rng: random.Random | None = None) -> Outcome:
        """Read one order line from ``side`` and apply it to ``state`` in place (the template: see above)."""
        try:
            order = self.read_order(text)
        except OrderError as problem:
            return error(side, problem)
        return self.adjudicate(state, side, order, rng)

    def adjudicate(self, state: Any, side: Side, order: Any, rng: random.Random | None) -> Outcome:
        """An order already read, carried out (``common.adjudicate``); a variant with something owed before
        any order (a pass) does that first and calls this."""
        return common.adjudicate(self, state, side, order, rng)

    def read_order(self, text: str) -> Any:
        """Hook: one line read into an order: a ``reading.Command`` or ``reading.Setup``
        (``reading.read_common``), or the variant's own move value, which has ``text()`` (its canonical
        form). Raises OrderError (``reading.unreadable``) for a line it cannot read."""
        raise NotImplementedError

    def move(self, state: Any, side: Side, order: Any, rng: random.Random | None) -> Outcome:
        """Hook, the variant's one job: play a move order of the player to order, or refuse it. Called only
        while the game runs and it is ``side``'s turn; the pending draw offer it answers is dropped after."""
        raise NotImplementedError

    def command(self, state: Any, side: Side, name: str) -> Outcome:
        """Hook: a command of the variant's own (``ask``, ``claim-draw``) that its ``read_order`` reads."""
        raise NotImplementedError(name)

    def not_your_turn(self, state: Any, side: Side) -> str:
        """Hook: why an order from the player not to order is refused."""
        return f"it is not your turn: {SIDE_TITLE[self.orderer(state) or other(side)]} is to move"

    def piece_refusal(self, state: Any, side: Side, order: Any) -> str | None:
        """Hook: why a move naming its piece (``Qd8-d5``) is refused, judged from the player's own pieces
        only (``reading.wrong_piece``); None when it fits or names none. Default: never refused."""
        return None

    def end_game(self, state: Any, outcome: Outcome, result: str, reason: str) -> None:
        """End the game and tell both (``common.end_game``; the state's ``close`` settles the rest)."""
        common.end_game(state, outcome, result, reason)

    def forfeit(self, state: Any, side: Side, reason: str) -> Outcome:
        """End the game with ``side`` losing for a reason off the board (e.g. ``"time"``)."""
        return common.forfeit(state, side, reason)

    def automatic(self, state: Any) -> tuple[Side, Outcome] | None:
        """An event the referee makes on its own after an order (e.g. passing for a player who cannot
        move), applied to ``state``, with the side it was made for; None when there is none. The caller
        asks again until None."""
        return None

    # ----------------------------------------------------------------- reading, for the mail

    def is_order(self, text: str) -> bool:
        """Whether a line looks meant as an order (a square name or command word), else it is chatter."""
        return reading.mentions_order(text, self.command_words)

    def order_kind(self, text: str) -> str:
        """``"move"`` for a move order, ``"order"`` for any other referee command; raises OrderError."""
        return "order" if isinstance(self.read_order(text), Command | Setup) else "move"

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
        order = self.read_order(text)
        return None if isinstance(order, Command | Setup) else order.text()

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

    def completes_turn(self, result: Result) -> bool:
        """Whether an order with this result completed a turn (a move, the referee's pass, or a result of the
        variant's own in ``own_moves``): the next order is the next ply, and a reply to an older request is
        stale."""
        return result in COMMON_MOVES or result in self.own_moves

    def started(self, state: Any) -> bool:
        """Whether the armies were ever on the board, so that a final position can be shown: a game that ended
        before both setups were in never started. Default: some piece stands in the true position."""
        return any(character.isalpha() for placement in self.position(state).values() for character in placement)

    def result(self, state: Any) -> tuple[str | None, str | None]:
        """``(result, reason)``, e.g. ``("1-0", "checkmate")``; Nones while running."""
        return state.result, state.reason

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
        return state.to_json()

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

    def random_reply(self, state: Any, side: Side, rng: random.Random) -> str:
        """A plausible whole reply for ``side``, for the demo: one order line (``random_order``), unless the variant
        takes several move lines in a reply and gives tries. Default: one line."""
        return self.random_order(state, side, rng)

