"""Through the Looking-Glass: its presenter, its rules page for players (``rules.md``) and its declaration.

LG-3 has no check, so the bench baseline generates pseudo-legal moves; the perft counts are the public interface's
(LG-3 movement in each world, castling included).
"""

from app.present.declaration import BenchTargets, Declaration, SampleGame, page_beside
from app.present.looking_glass.presenter import LookingGlassPresenter
from app.rules.looking_glass import VARIANT

__all__ = ["DECLARATION", "LookingGlassPresenter"]

DECLARATION = Declaration(
    rules=VARIANT,
    presenter=LookingGlassPresenter,
    rules_page=page_beside(__file__),
    samples=(SampleGame({"strikes": "99"}, ("R e2-e4", "M e7-e5"), "R e2-e5"),),
    perft=(20, 400, 9918),
    bench=BenchTargets(ply=3, perft=None, moves="pseudo-legal"),
)
