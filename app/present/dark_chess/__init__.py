"""Dark Chess: its presenter, its rules page for players (``rules.md``) and its declaration.

The bench baseline is python-chess refereeing ordinary chess, a ply at a time: its push and the legal moves of
the position. DC-1 has no check, but every Dark Chess order also works out both players' sight (DC-3), the
squares the men of both sides could move to: python-chess's pseudo-legal moves of one side alone would leave half
of that job out of the baseline (docs/performance.md gives the figure against both). The second sample game
starts from a Chess960 row (DC-1), so that castling and the row's pieces are played from another start too.
"""

from app.present.dark_chess.presenter import DarkChessPresenter
from app.present.declaration import BenchTargets, Declaration, SampleGame, page_beside
from app.rules.dark_chess import VARIANT

__all__ = ["DECLARATION", "DarkChessPresenter"]

DECLARATION = Declaration(
    rules=VARIANT,
    presenter=DarkChessPresenter,
    rules_page=page_beside(__file__),
    samples=(SampleGame({}, ("e2-e4", "d7-d5", "e4-d5"), "e2-e5"),
             SampleGame({"setup": "chess960"}, ("e2-e4", "e7-e5"), "e2-e5")),
    perft=(20, 400, 8902),
    bench=BenchTargets(ply=2, perft=2),
)
