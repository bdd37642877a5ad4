"""Pairing a Swiss round by the Dutch system (py4swiss), at the largest size a Swiss may have: 128 players.

One Swiss of 128 players is played through its 8 rounds with random results (seeded: a draw in a third of the
games, a win for either side otherwise), each round paired from the history so far as the tournament service
will pair it; every pairing is timed (the best of a few runs). The baseline is round 5 of a Swiss of 16 played
alike, in the same run. The target: under a second for any round of the 128.
"""

from __future__ import annotations

import os
import random
import time

from app.club.tournaments.core.swiss import SwissHistory, default_swiss_rounds, pair_next_round
from app.club.tournaments.core.values import RESULTS, Game, Pairing, Round
from benchmarks.measure import report

QUICK = bool(os.environ.get("MIRRORPOST_BENCH_QUICK"))
RUNS = 1 if QUICK else 3
PLAYERS, BASELINE_PLAYERS, MEASURED_ROUND = 128, 16, 5
TARGET_SECONDS = 1.0


def played_through(players: int, seed: int) -> list[tuple[SwissHistory, float]]:
    """Each history of a Swiss of ``players`` played with random results, and the best time to pair the round
    after it."""
    rng = random.Random(seed)
    ids = tuple(range(1, players + 1))
    total = default_swiss_rounds(players)
    rounds: list[Round] = []
    timed = []
    for _ in range(total):
        history = SwissHistory(ids, tuple(rounds), total)
        best, pairing = float("inf"), Pairing(())
        for _ in range(RUNS):
            start = time.perf_counter()
            pairing = pair_next_round(history)
            best = min(best, time.perf_counter() - start)
        timed.append((history, best))
        rounds.append(Round(tuple(Game(white, black, rng.choice(RESULTS)) for white, black in pairing.games),
                            pairing.bye))
    return timed


def slowest_round_ms() -> float:
    """The slowest round's pairing of a 128-player Swiss played through (what ``bench scale`` prints too)."""
    return max(seconds for _, seconds in played_through(PLAYERS, seed=1)) * 1000


def main() -> None:
    print(f"bench tournament: pairing a round of a {PLAYERS}-player Swiss by the Dutch system (py4swiss)")
    large = played_through(PLAYERS, seed=1)
    small = played_through(BASELINE_PLAYERS, seed=1)
    for number, (_, seconds) in enumerate(large, start=1):
        print(f"  round {number} of {len(large)}: {seconds * 1000:8.1f} ms")
    report(f"round {MEASURED_ROUND}, {PLAYERS} players vs {BASELINE_PLAYERS} players",
           large[MEASURED_ROUND - 1][1] * 1000, small[MEASURED_ROUND - 1][1] * 1000, "ms")
    slowest = max(seconds for _, seconds in large)
    verdict = "met" if slowest < TARGET_SECONDS else "NOT met"
    print(f"  slowest round of the {PLAYERS}: {slowest * 1000:.1f} ms (target < {TARGET_SECONDS * 1000:.0f} ms: "
          f"{verdict})")
