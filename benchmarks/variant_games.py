"""Random games of any registered variant, recorded once and replayed through its referee.

Orders come from ``variant.random_order`` (for Looking-Glass every kind of outcome: full and shortened
moves, strikes, rejections, questions), with a random Chess960 row for each player whose variant has a
setup phase. Recording keeps the order texts and the seed of each game's random source, so a replay
adjudicates exactly the same orders from exactly the same start.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.rules.base import SIDES, Side, Variant

OPTIONS: dict[str, dict[str, Any]] = {"looking-glass": {"strikes": 99}}  # strikes should not cut games short


@dataclass(frozen=True)
class RecordedGame:
    """One random game: the seed its ``new_game`` draws from, the setup orders, then every order in turn."""

    seed: int
    setups: tuple[tuple[Side, str], ...]
    orders: tuple[tuple[Side, str], ...]


def start(variant: Variant, game: RecordedGame) -> Any:
    """A new state of ``game`` with its setups in."""
    state = variant.new_game(OPTIONS.get(variant.name, {}), random.Random(game.seed))
    for side, text in game.setups:
        variant.play(state, side, text)
    return state


def start_position(variant: Variant) -> Any:
    """The variant's start position with default options, standard rows (``518``) where it has a setup phase."""
    return start(variant, RecordedGame(0, setups_for(variant, lambda: 518), ()))


def setups_for(variant: Variant, row: Callable[[], int]) -> tuple[tuple[Side, str], ...]:
    """A setup order (``setup`` and a Chess960 index from ``row``) for each player the variant asks one of."""
    state = variant.new_game(OPTIONS.get(variant.name, {}), random.Random(0))
    return tuple((side, f"setup {row()}") for side in SIDES if variant.needs_setup(state, side))


def play(variant: Variant, state: Any, side: Side, text: str) -> str:
    """One order and the automatic events it brings about; the order's result."""
    result = variant.play(state, side, text).result
    while variant.automatic(state) is not None:
        pass
    return result


def record_games(variant: Variant, games: int, plies: int, seed: int = 2026) -> list[RecordedGame]:
    """``games`` random games of up to ``plies`` orders each (fewer when one ends)."""
    rng = random.Random(seed)
    recorded = []
    for _ in range(games):
        game = RecordedGame(rng.randrange(2**32), setups_for(variant, lambda: rng.randrange(960)), ())
        state = start(variant, game)
        orders = []
        for _ in range(plies):
            side = variant.orderer(state)
            if side is None:
                break
            order = variant.random_order(state, side, rng)
            orders.append((side, order))
            play(variant, state, side, order)
        recorded.append(RecordedGame(game.seed, game.setups, tuple(orders)))
    return recorded


def replay(variant: Variant, games: list[RecordedGame]) -> int:
    """Adjudicate every recorded order with both players' views after it, as the server does; how many."""
    count = 0
    for game in games:
        state = start(variant, game)
        for side, order in game.orders:
            play(variant, state, side, order)
            for viewer in SIDES:
                variant.view(state, viewer)
            count += 1
    return count


def outcomes(variant: Variant, games: list[RecordedGame]) -> dict[str, int]:
    """How often each result occurred, to show what kinds of order the measurement covers."""
    found: dict[str, int] = {}
    for game in games:
        state = start(variant, game)
        for side, order in game.orders:
            result = play(variant, state, side, order)
            found[result] = found.get(result, 0) + 1
    return dict(sorted(found.items()))


def final_state_bytes(variant: Variant, game: RecordedGame) -> int:
    """The size of the stored state once the game's orders are played."""
    state = start(variant, game)
    for side, order in game.orders:
        play(variant, state, side, order)
    return len(json.dumps(variant.to_json(state)))
