"""The entrants' ranking, which gives each their Berger place or Swiss starting number."""

from __future__ import annotations

from collections.abc import Sequence


def ranked(entrants: Sequence[tuple[int, float]]) -> list[int]:
    """The ids of ``entrants`` (each (id, rating in the tournament's variant), in the order they entered), best
    rated first; equal ratings keep the order of entry."""
    return [player for player, _ in sorted(entrants, key=lambda entrant: -entrant[1])]
