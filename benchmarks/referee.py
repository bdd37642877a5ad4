"""Each variant's referee against python-chess doing the same for ordinary chess (``bench referee [VARIANT ...]``).

Per order: adjudicate one recorded random order (every kind the variant's random orders give) and show
both players their views, against python-chess's ``push`` plus move generation per ply of a random
standard game. Per perft node: the variant's ``perft`` from its start position, against python-chess's
perft from the standard start at the same depth. Ours and the baseline run alternately in the same run
(``measure.interleaved``), so the ratios hold on any machine; each is set against the target its declaration states.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

import chess

from app.present.declaration import BenchTargets
from app.present.registry import DECLARATIONS
from app.rules.base import Variant
from app.rules.placement import clear_cache
from app.rules.registry import VARIANTS, get_variant
from benchmarks import chess_baseline, variant_games
from benchmarks.measure import interleaved, peak_memory, report

QUICK = bool(os.environ.get("MIRRORPOST_BENCH_QUICK"))  # a smoke run for the test suite
GAMES = 4 if QUICK else 40
PLIES = 60 if QUICK else 150
PERFT_BUDGET = 0.05 if QUICK else 3.0  # seconds one perft count may take; sets the depth
PERFT_ROUNDS = 3


def targets_for(name: str) -> BenchTargets:
    """The targets the variant's declaration states (none for a variant served without one)."""
    declaration = DECLARATIONS.get(name)
    return declaration.bench if declaration else BenchTargets()


def main(names: list[str] | None = None) -> None:
    """Measure the named variants, every registered one when none is named."""
    try:
        variants = [get_variant(name) for name in names or sorted(VARIANTS)]
    except KeyError as error:
        raise SystemExit(error.args[0]) from None
    chess_games = chess_baseline.record_games(GAMES, PLIES)
    for variant in variants:
        bench_variant(variant, chess_games)


def bench_variant(variant: Variant, chess_games: list[list[chess.Move]]) -> None:
    targets = targets_for(variant.name)
    games = variant_games.record_games(variant, GAMES, PLIES)
    print(f"bench referee {variant.name}: {variant.title} against python-chess on ordinary chess")
    print(f"  targets (time to python-chess's): per order {_target(targets.ply)}, "
          f"per perft node {_target(targets.perft)}")
    sample = variant_games.outcomes(variant, games[:10])
    orders = sum(len(game.orders) for game in games)
    print(f"  {orders} orders in {GAMES} random games; outcomes in a sample: {sample}")
    legal = targets.moves == "legal"

    def ours() -> int:
        clear_cache()  # each round starts cold, as a server process would for a new game
        return variant_games.replay(variant, games)

    ours_time, ours_orders, chess_time, chess_plies = interleaved(
        ours, lambda: chess_baseline.replay(chess_games, legal)
    )
    print(f"  orders adjudicated per second (with both players' views): {ours_orders / ours_time:,.0f}")
    print(f"  python-chess plies per second (push + {targets.moves} moves):  {chess_plies / chess_time:,.0f}")
    report("time per order vs per python-chess ply", ours_time / ours_orders * 1e6, chess_time / chess_plies * 1e6,
           "us", target=targets.ply)
    bench_perft(variant, targets)
    ours_peak = peak_memory(lambda: variant_games.replay(variant, games[:5]))
    chess_peak = peak_memory(lambda: chess_baseline.replay(chess_games[:5], legal))
    report("peak memory replaying 5 games", ours_peak / 1024, chess_peak / 1024, "KiB")
    print(f"  stored state after {len(games[0].orders)} random orders: "
          f"{variant_games.final_state_bytes(variant, games[0])} bytes of JSON")


def bench_perft(variant: Variant, targets: BenchTargets) -> None:
    start = variant_games.start_position(variant)

    def ours(depth: int) -> int:
        return sum(variant.perft(start, depth).values())

    def baseline(depth: int) -> int:
        return chess_baseline.perft(chess.Board(), depth)

    depth = min(perft_depth(ours), perft_depth(baseline))
    ours_time, ours_nodes, chess_time, chess_nodes = interleaved(
        lambda: ours(depth), lambda: baseline(depth), rounds=PERFT_ROUNDS
    )
    print(f"  perft {depth} from the start: {ours_nodes:,} nodes, {ours_nodes / ours_time:,.0f} nodes/s; "
          f"python-chess perft {depth}: {chess_nodes:,} nodes, {chess_nodes / chess_time:,.0f} nodes/s")
    report("time per perft node vs per python-chess node", ours_time / ours_nodes * 1e6,
           chess_time / chess_nodes * 1e6, "us", target=targets.perft)


def perft_depth(count: Callable[[int], int], budget: float = PERFT_BUDGET, deepest: int = 8) -> int:
    """The deepest depth whose count takes under ``budget`` seconds (at least 1), each next depth tried
    only when the growth seen so far says it will fit (a chess-like 40 times before anything is seen)."""
    depth, elapsed, growth = 1, _seconds(count, 1), 40.0
    while depth < deepest and elapsed * growth <= budget:
        deeper = _seconds(count, depth + 1)
        if deeper > budget:
            break
        growth = max(deeper / max(elapsed, 1e-9), 1.0)
        depth, elapsed = depth + 1, deeper
    return depth


def _seconds(count: Callable[[int], int], depth: int) -> float:
    begin = time.perf_counter()
    count(depth)
    return time.perf_counter() - begin


def _target(ratio: float | None) -> str:
    return f"<= {ratio:g}x" if ratio is not None else "none stated"
