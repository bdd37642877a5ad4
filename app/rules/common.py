"""What every variant's game shares, written once: the play template's steps (the rules, "Orders by email").

``Variant.play`` reads an order and hands it to ``adjudicate`` here, which answers everything that is not
the variant's own move the same way in every variant (the public interface): a setup (``setup``), an order after the
end or before both setups are in (``rejected``), resigning and the draw offer (``resigned``, ``offered``,
``declined``, ``drawn``), an order out of turn (``rejected``), a pending draw offer dropped by the move
that answers it; and ``end_game``, the one way a game ends.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from app.rules import backrank, messages
from app.rules.messages import DRAW_DECLINED, DRAW_OFFERED, FORFEIT, SETUP_DONE, TIMEOUT
from app.rules.reading import COMMON_NAMES, Command, Setup
from app.rules.sides import Side, other
from app.rules.values import OrderError, Outcome, Result, SetupError, error, rejected

NOT_STARTED = "the game has not started: both players must send their setup first"


class Template(Protocol):
    """What the play template's steps ask of a variant: the hooks of ``Variant`` (``app.rules.base``)."""

    def in_setup(self, state: Any) -> bool: ...
    def setup(self, state: Any, side: Side, value: str, rng: random.Random | None) -> Outcome: ...
    def begin_play(self, state: Any) -> None: ...
    def move(self, state: Any, side: Side, order: Any, rng: random.Random | None) -> Outcome: ...
    def command(self, state: Any, side: Side, name: str) -> Outcome: ...
    def not_your_turn(self, state: Any, side: Side) -> str: ...
    def piece_refusal(self, state: Any, side: Side, order: Any) -> str | None: ...
    def orderer(self, state: Any) -> Side | None: ...
    def army_to_move(self, state: Any) -> Side | None: ...
    def completes_turn(self, result: Result) -> bool: ...
    def result(self, state: Any) -> tuple[str | None, str | None]: ...


class GameStatus:
    """What the play template reads and writes in every variant's state (a variant's ``GameState``
    subclasses it and declares these as its own fields): the result and its reason once the game is over,
    and the side whose draw offer is pending."""

    result: str | None
    reason: str | None
    draw_offer: Side | None

    def close(self) -> None:
        """Hook: whatever else the end of the game settles in this state (a phase, a turn owed). Default:
        nothing."""

    def status_json(self) -> dict[str, Any]:
        """These fields for the state's ``to_json``."""
        return {"draw_offer": self.draw_offer, "result": self.result, "reason": self.reason}

    @staticmethod
    def status_from(data: dict[str, Any]) -> dict[str, Any]:
        """These fields from ``to_json`` output, as keyword arguments for the state's class."""
        return {"draw_offer": data["draw_offer"], "result": data["result"], "reason": data["reason"]}


class SetupPhase(GameStatus):
    """What the state of a game that begins with each player's back rank chosen in private (LG-2) adds:
    ``phase`` is "setup" until both ``rows`` are in, then "play", then "over"."""

    phase: str
    rows: dict[Side, str | None]

    def close(self) -> None:
        self.phase = "over"

    def setup_json(self) -> dict[str, Any]:
        """These fields for the state's ``to_json`` (its ``from_json`` reads them back by name)."""
        return {"phase": self.phase, "rows": dict(self.rows)}


def win_for(side: Side) -> str:
    return "1-0" if side == "white" else "0-1"


def end_game(state: GameStatus, outcome: Outcome, result: str, reason: str) -> None:
    """End the game: the result and its reason, no draw offer pending, and both players told."""
    state.close()
    state.result = result
    state.reason = reason
    state.draw_offer = None
    outcome.tell_both(messages.end(result, reason))


def adjudicate(variant: Template, state: Any, side: Side, order: Any, rng: random.Random | None) -> Outcome:
    """An order read by the variant, carried out: everything but the move itself is answered here."""
    if isinstance(order, Setup):
        return variant.setup(state, side, order.value, rng)
    result, reason = variant.result(state)
    if result is not None:
        return rejected(side, f"the game is over ({result}, {reason})")
    if isinstance(order, Command):
        if variant.in_setup(state) and order.name != "resign":
            return rejected(side, NOT_STARTED)
        if order.name in COMMON_NAMES:
            return answer_common(state, side, order.name)
        return variant.command(state, side, order.name)
    if variant.in_setup(state):
        return rejected(side, NOT_STARTED)
    if side != variant.orderer(state):
        return rejected(side, variant.not_your_turn(state, side), order.text())
    if getattr(order, "piece", None):  # a piece letter in front of the move (reading.PIECE)
        try:
            refusal = variant.piece_refusal(state, side, order)
        except OrderError as problem:
            return error(side, problem)
        if refusal:
            return rejected(side, refusal)
    offer = state.draw_offer
    army = variant.army_to_move(state) if offer is not None else None
    outcome = variant.move(state, side, order, rng)
    if offer is not None and variant.completes_turn(outcome.result) and offer == other(army or side):
        state.draw_offer = None  # a move answers the opponent's offer
    return outcome


def answer_common(state: GameStatus, side: Side, name: str) -> Outcome:
    """Carry out a common command for ``side``; the game is running."""
    if name == "resign":
        outcome = Outcome("resigned", order="resign")
        end_game(state, outcome, win_for(other(side)), "resigned")
        return outcome
    if name == "offer-draw":
        if state.draw_offer == side:
            return rejected(side, "you have already offered a draw")
        if state.draw_offer == other(side):
            return answer_common(state, side, "accept-draw")
        state.draw_offer = side
        outcome = Outcome("offered", order="offer draw")
        outcome.tell_both(messages.news(DRAW_OFFERED, side))
        return outcome
    if state.draw_offer != other(side):
        return rejected(side, "there is no draw offer from your opponent to answer")
    if name == "accept-draw":
        outcome = Outcome("drawn", order="accept draw")
        end_game(state, outcome, "1/2-1/2", "agreement")
        return outcome
    state.draw_offer = None
    outcome = Outcome("declined", order="decline draw")
    outcome.tell_both(messages.news(DRAW_DECLINED, side))
    return outcome


def forfeit(state: GameStatus, side: Side, reason: str) -> Outcome:
    """``side`` loses for a reason off the board, such as the correspondence clock."""
    outcome = Outcome("resigned")
    outcome.tell_both(messages.news(TIMEOUT if reason == "time" else FORFEIT, side))
    end_game(state, outcome, win_for(other(side)), reason)
    return outcome


def submit_setup(variant: Template, state: Any, side: Side, value: str, rng: random.Random | None) -> Outcome:
    """LG-2: a back rank chosen in private; the sender learns their row, the opponent only that it is in.
    Once both are in, ``variant.begin_play`` places the armies and both are told the game has started."""
    if not variant.in_setup(state):
        return rejected(side, "the game has already started")
    if state.rows[side] is not None:
        return rejected(side, "your setup is already in")
    try:
        row = backrank.read_setup(value, rng)
    except SetupError as problem:  # read, but against LG-2: the reason, and a row that would do
        return rejected(side, str(problem))
    state.rows[side] = row
    outcome = Outcome("setup")
    outcome.tell(side, messages.setup_in(row, backrank.index_of_row(row)))
    outcome.tell(other(side), messages.news(SETUP_DONE, side))
    if all(state.rows.values()):
        variant.begin_play(state)
        outcome.tell_both(messages.start(variant.army_to_move(state)))
    return outcome
