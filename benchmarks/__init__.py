"""``manage.py bench``: speed and memory, each printed as a ratio to a baseline run alongside."""

from __future__ import annotations

import importlib

SUITES = ("referee", "pipeline", "web")


def run(names: list[str]) -> None:
    """Run the named suites (all of them when none is named)."""
    unknown = [name for name in names if name not in SUITES]
    if unknown:
        raise SystemExit(f"unknown benchmark(s) {', '.join(unknown)}; known: {', '.join(SUITES)}")
    for name in names or SUITES:
        importlib.import_module(f"benchmarks.{name}").main()
