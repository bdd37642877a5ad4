"""Palindromic Chess: its presenter, its rules page for players (``rules.md``) and its declaration."""

from app.present.declaration import BenchTargets, Declaration, SampleGame, page_beside
from app.present.palindromic.presenter import PalindromicPresenter
from app.rules.palindromic import VARIANT

__all__ = ["DECLARATION", "PalindromicPresenter"]

DECLARATION = Declaration(
    rules=VARIANT,
    presenter=PalindromicPresenter,
    rules_page=page_beside(__file__),
    samples=(SampleGame({}, ("e2-e4", "e7-e5"), "e2-e5"),),
    perft=(20, 400, 8868),
    bench=BenchTargets(ply=2, perft=2),
)
