"""Timing and memory helpers shared by the benchmark suites."""

from __future__ import annotations

import gc
import os
import time
import tracemalloc
from collections.abc import Callable


def best_time(work: Callable[[], int], repeats: int = 5) -> tuple[float, int]:
    """The fastest of ``repeats`` runs of ``work`` (which returns how many units it did)."""
    best = float("inf")
    units = 0
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        units = work()
        best = min(best, time.perf_counter() - start)
    return best, units


def interleaved(ours: Callable[[], int], baseline: Callable[[], int], rounds: int = 7) -> tuple[float, int, float, int]:
    """Best times of two workloads run alternately, so machine noise hits both alike."""
    best = [float("inf"), float("inf")]
    units = [0, 0]
    for _ in range(rounds):
        for index, work in enumerate((ours, baseline)):
            elapsed, units[index] = best_time(work, repeats=1)
            best[index] = min(best[index], elapsed)
    return best[0], units[0], best[1], units[1]


def database_server_cpu() -> dict[int, float] | None:
    """CPU seconds used so far by each process of a PostgreSQL server on this machine (its backends, WAL
    writer, checkpointer...), by process id, from /proc; None where there is no /proc or no such process."""
    if not os.path.isdir("/proc"):
        return None
    seconds: dict[int, float] = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/comm") as comm:
                if comm.read().strip() != "postgres":
                    continue
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile, or not ours to read
            continue
        seconds[int(pid)] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime
    return seconds or None


def cpu_since(before: dict[int, float], now: dict[int, float]) -> float:
    """The CPU the server's processes used between two readings: what each process still there used since,
    and all of a process begun since. A backend that ended between them takes what it used with it, so the
    figure is never less than nothing, only a little short."""
    return sum(max(0.0, used - before.get(pid, 0.0)) for pid, used in now.items())


def peak_memory(work: Callable[[], object]) -> int:
    """Peak bytes allocated by Python while ``work`` runs."""
    gc.collect()
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def report(label: str, ours: float, baseline: float, unit: str, target: float | None = None) -> None:
    ratio = ours / baseline if baseline else float("inf")
    verdict = ""
    if target is not None:
        verdict = f"  (target <= {target:g}x: {'met' if ratio <= target else 'NOT met'})"
    print(f"  {label:<44} {ours:>12.3f} {unit:<8} baseline {baseline:>10.3f}  ratio {ratio:5.2f}x{verdict}")
