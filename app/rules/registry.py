"""Variants by the names used on the command line, in options and in mail."""

from __future__ import annotations

from app.rules.base import Variant
from app.rules.kriegspiel import Kriegspiel
from app.rules.looking_glass import LookingGlass
from app.rules.palindromic import Palindromic
from app.rules.quasi_alice import QuasiAlice
from app.rules.side_view import SideView

VARIANTS: dict[str, Variant] = {
    variant.name: variant for variant in (LookingGlass(), SideView(), QuasiAlice(), Palindromic(), Kriegspiel())
}
DEFAULT_VARIANT = "looking-glass"  # the game a challenge means when it names none


def get_variant(name: str) -> Variant:
    """The referee for ``name``; raises KeyError naming the known variants."""
    try:
        return VARIANTS[name]
    except KeyError:
        known = ", ".join(sorted(VARIANTS))
        raise KeyError(f"unknown variant {name!r}; known variants: {known}") from None
