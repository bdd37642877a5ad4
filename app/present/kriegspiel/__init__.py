"""Kriegspiel: its presenter, its rules page for players (``rules.md``) and its declaration.

The second sample game starts from a Chess960 row (KS-1), so that castling and the row's pieces are
played from another start too.
"""

from app.present.declaration import BenchTargets, Declaration, SampleGame, page_beside
from app.present.kriegspiel.presenter import KriegspielPresenter
from app.rules.kriegspiel import VARIANT

__all__ = ["DECLARATION", "KriegspielPresenter"]

DECLARATION = Declaration(
    rules=VARIANT,
    presenter=KriegspielPresenter,
    rules_page=page_beside(__file__),
    samples=(SampleGame({}, ("e2-e4", "e7-e5"), "e2-e5"),),
    perft=(20, 400, 8902),
    bench=BenchTargets(ply=2, perft=2),
)
