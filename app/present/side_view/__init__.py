"""Side View Chess: its presenter, its rules page for players (``rules.md``) and its declaration.

Each physics (SV-2) is a sample game of its own, with the hidden setup (SV-1) so that the setup phase is
played too.
"""

from app.present.declaration import BenchTargets, Declaration, SampleGame, page_beside
from app.present.side_view.presenter import SideViewPresenter
from app.rules.side_view import VARIANT

__all__ = ["DECLARATION", "SideViewPresenter"]

DECLARATION = Declaration(
    rules=VARIANT,
    presenter=SideViewPresenter,
    rules_page=page_beside(__file__),
    samples=tuple(SampleGame({"physics": str(physics), "setup": "hidden"}, ("e2-e4", "e7-e5"), "e2-e5")
                  for physics in (1, 2, 3)),
    perft=(20, 400, 8902),
    bench=BenchTargets(ply=2, perft=2),
)
