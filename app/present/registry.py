"""Each variant's presenter, by the variant's name."""

from __future__ import annotations

from functools import cache

from app.present.base import Presenter
from app.present.kriegspiel import KriegspielPresenter
from app.present.looking_glass import LookingGlassPresenter
from app.present.palindromic import PalindromicPresenter
from app.present.quasi_alice import QuasiAlicePresenter
from app.present.side_view import SideViewPresenter
from app.rules.registry import get_variant

PRESENTERS: dict[str, type[Presenter]] = {
    "looking-glass": LookingGlassPresenter,
    "side-view": SideViewPresenter,
    "quasi-alice-4d": QuasiAlicePresenter,
    "palindromic": PalindromicPresenter,
    "kriegspiel": KriegspielPresenter,
}


@cache
def presenter_for(variant_name: str) -> Presenter:
    """The presenter of a registered variant (KeyError for an unknown one)."""
    return PRESENTERS[variant_name](get_variant(variant_name))
