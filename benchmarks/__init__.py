"""``manage.py bench``: speed and memory, each printed as a ratio to a baseline run alongside."""

from __future__ import annotations

import importlib
import logging
import os
import platform
import sys

SUITES = ("referee", "pipeline", "web", "digest", "scale", "tournament")


def run(names: list[str], games: tuple[int, ...] = ()) -> None:
    """Run the named suites (all of them when none is named); the names after ``referee``, ``pipeline`` or
    ``web`` that are no suite's are the variants it measures (``referee``: every variant when none is named;
    the others: the main game); ``games``: the sizes ``scale`` fills to."""
    logging.getLogger("app").setLevel(logging.WARNING)  # each move's INFO lines would drown the figures
    plan: list[tuple[str, list[str]]] = []
    unknown = []
    for name in names:
        if name in SUITES:
            plan.append((name, []))
        elif plan and plan[-1][0] in ("referee", "pipeline", "web"):
            plan[-1][1].append(name)
        else:
            unknown.append(name)
    if unknown:
        raise SystemExit(f"unknown benchmark(s) {', '.join(unknown)}; known: {', '.join(SUITES)}")
    if games and "scale" not in (names or SUITES):
        raise SystemExit("--games is for the scale benchmark")
    print(running_on())
    for name, variants in plan or [(name, []) for name in SUITES]:
        suite = importlib.import_module(f"benchmarks.{name}")
        if name in ("referee", "pipeline", "web"):
            suite.main(variants)
        elif name == "scale":
            suite.main(games)
        else:
            suite.main()


def running_on() -> str:
    """The interpreter and machine the figures were measured on: how CPython was built moves them (an
    optimised build, with PGO and LTO as distributions ship it, needed up to a quarter less CPU per move
    than a plain one on the pipeline benchmark)."""
    return (f"{platform.python_implementation()} {platform.python_version()} ({os.path.realpath(sys.executable)}, "
            f"built {platform.python_build()[1]}), {os.cpu_count()} cores, {platform.machine()}")
