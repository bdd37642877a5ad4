"""4D Quasi-Alice Chess: its presenter, its rules page for players (``rules.md``) and its declaration."""

from app.present.declaration import BenchTargets, Declaration, SampleGame, page_beside
from app.present.quasi_alice.presenter import QuasiAlicePresenter
from app.rules.quasi_alice import VARIANT

__all__ = ["DECLARATION", "QuasiAlicePresenter"]

DECLARATION = Declaration(
    rules=VARIANT,
    presenter=QuasiAlicePresenter,
    rules_page=page_beside(__file__),
    samples=(SampleGame({}, ("A:e2-e4>B", "A:e7-e5>B"), "A:e2-e5>B"),),
    perft=(60, 3600, 247284),
    bench=BenchTargets(ply=3, perft=3),
)
