"""``manage.py bench``: speed and memory, each printed as a ratio to a baseline run alongside."""

from __future__ import annotations

import importlib
import os
import platform
import sys

SUITES = ("referee", "pipeline", "web", "scale")


def run(names: list[str], games: tuple[int, ...] = ()) -> None:
    """Run the named suites (all of them when none is named); ``games``: the sizes ``scale`` fills to."""
    unknown = [name for name in names if name not in SUITES]
    if unknown:
        raise SystemExit(f"unknown benchmark(s) {', '.join(unknown)}; known: {', '.join(SUITES)}")
    if games and "scale" not in (names or SUITES):
        raise SystemExit("--games is for the scale benchmark")
    print(running_on())
    for name in names or SUITES:
        module = importlib.import_module(f"benchmarks.{name}")
        module.main(games) if name == "scale" else module.main()


def running_on() -> str:
    """The interpreter and machine the figures were measured on: how CPython was built moves them (an
    optimised build, with PGO and LTO as distributions ship it, needed up to a quarter less CPU per move
    than a plain one on the pipeline benchmark)."""
    return (f"{platform.python_implementation()} {platform.python_version()} ({os.path.realpath(sys.executable)}, "
            f"built {platform.python_build()[1]}), {os.cpu_count()} cores, {platform.machine()}")
