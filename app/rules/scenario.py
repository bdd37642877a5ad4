"""``referee play`` and ``referee perft``: run a scenario file through a referee, no database, no mail."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from app.rules import messages
from app.rules.base import SIDES, OrderError, Outcome, Side, Variant
from app.rules.registry import get_variant


@dataclass
class ScenarioGame:
    """A scenario's game under way: its referee, its state, and the random source its seed fixes."""

    variant: Variant
    state: Any
    rng: random.Random


def set_up(scenario: dict[str, Any]) -> ScenarioGame:
    """A new game with the scenario's options and both setups in (``518`` for a missing one)."""
    if not isinstance(scenario, dict) or "variant" not in scenario:
        raise ValueError('a scenario is a JSON object naming its variant, e.g. {"variant": "looking-glass"}')
    variant = get_variant(scenario["variant"])
    options = dict(scenario.get("options") or {})
    seed = options.pop("seed", None)
    rng = random.Random(seed)
    state = variant.new_game(options, rng)
    setups = scenario.get("setup") or {}
    for side in SIDES:
        if variant.needs_setup(state, side):
            outcome = variant.play(state, side, f"setup {setups.get(side, '518')}", rng)
            if outcome.result != "setup":
                raise ValueError(f"{side} setup: {outcome.to[side][0]['reason']}")
    return ScenarioGame(variant, state, rng)


def play_orders(game: ScenarioGame, scenario: dict[str, Any]) -> Iterator[tuple[Side, str | None, Outcome]]:
    """Play the scenario's orders one by one, each followed by the referee's automatic events; yields
    ``(by, order, outcome)`` for every event (order None for an automatic one), the state already changed."""
    variant, state = game.variant, game.state
    for number, entry in enumerate(scenario.get("orders") or [], start=1):
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], str)):
            raise ValueError(f'order {number}: each order is [side, text], e.g. ["white", "R e2-e4"], not {entry!r}')
        side, text = entry
        if side not in SIDES:
            raise ValueError(f"order {number}: side must be white or black, not {side!r}")
        yield from play_lines(game, side, text)
        while (made := variant.automatic(state)) is not None:  # e.g. a pass for a player who is home
            yield made[0], None, made[1]


def play_lines(game: ScenarioGame, side: Side, text: str) -> Iterator[tuple[Side, str, Outcome]]:
    """One order. Where the variant takes several move lines in one reply (``Variant.move_lines``), an order of
    several lines is tries: each line is played in turn, one event each, until one is not rejected; the lines
    after it give no event. Lines that are not all moves, or too many of them, are one error: none is played."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if game.variant.move_lines <= 1 or len(lines) <= 1:
        yield side, text, game.variant.play(game.state, side, text, game.rng)
        return
    problem = tries_problem(game.variant, lines)
    if problem:
        yield side, text, Outcome.only("error", side, messages.error(problem))
        return
    for line in lines:
        outcome = game.variant.play(game.state, side, line, game.rng)
        yield side, line, outcome
        if outcome.result != "rejected":
            return


def tries_problem(variant: Variant, lines: list[str]) -> str | None:
    """Why these lines cannot be tried as one reply's moves, or None when they can."""
    if len(lines) > variant.move_lines:
        return f"{len(lines)} move lines in one reply: at most {variant.move_lines}, one move to a line"
    for line in lines:
        try:
            kind = variant.order_kind(line)
        except OrderError as error:
            return error.reason
        if kind != "move":
            return f"{line!r} cannot go with other lines: a reply of several lines holds moves only, tried in turn"
    return None


def run_scenario(scenario: dict[str, Any]) -> dict[str, Any]:
    """Play every order of a scenario and return the scenario output object."""
    game = set_up(scenario)
    variant, state = game.variant, game.state
    events = [
        {
            "n": number,
            "by": by,
            "order": order,
            "result": outcome.result,
            "to": outcome.to,
            "views": {side: variant.view(state, side) for side in SIDES},
        }
        for number, (by, order, outcome) in enumerate(play_orders(game, scenario), start=1)
    ]
    result, reason = variant.result(state)
    return {
        "events": events,
        "position": variant.position(state),
        "strikes": variant.strikes(state),
        "to_move": variant.orderer(state) if result is None else None,
        "result": result,
        "reason": reason,
    }


def run_perft(scenario: dict[str, Any], depth: int) -> dict[str, Any]:
    """After the scenario's orders, the move sequences of ``depth`` moves, by first move (the public interface)."""
    if depth < 1:
        raise ValueError(f"depth must be 1 or more, not {depth}")
    game = set_up(scenario)
    for _event in play_orders(game, scenario):
        pass
    divide = game.variant.perft(game.state, depth)
    return {"depth": depth, "nodes": sum(divide.values()), "divide": divide}
