"""``referee play``: run a scenario file through a referee, no database, no mail."""

from __future__ import annotations

import random
from typing import Any

from app.rules.base import SIDES, Outcome
from app.rules.registry import get_variant


def run_scenario(scenario: dict[str, Any]) -> dict[str, Any]:
    """Play every order of a scenario and return the CONTRACT.md output object."""
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
    events: list[dict[str, Any]] = []

    def record(by: str, order: str | None, outcome: Outcome) -> None:
        events.append({
            "n": len(events) + 1,
            "by": by,
            "order": order,
            "result": outcome.result,
            "to": outcome.to,
            "views": {s: variant.view(state, s) for s in SIDES},
        })

    for number, (side, text) in enumerate(scenario.get("orders") or [], start=1):
        if side not in SIDES:
            raise ValueError(f"order {number}: side must be white or black, not {side!r}")
        record(side, text, variant.play(state, side, text, rng))
        while (made := variant.automatic(state)) is not None:  # e.g. a pass for a player who is home
            record(made[0], None, made[1])
    result, reason = variant.result(state)
    return {
        "events": events,
        "position": variant.position(state),
        "strikes": variant.strikes(state),
        "to_move": variant.orderer(state) if result is None else None,
        "result": result,
        "reason": reason,
    }
