"""Toy Chess, declared: a variant the tests serve from a package outside the application."""

from app.present.declaration import Declaration, SampleGame, page_beside

from .presenter import ToyPresenter
from .rules import ToyChess

DECLARATION = Declaration(
    rules=ToyChess(),
    presenter=ToyPresenter,
    rules_page=page_beside(__file__),
    samples=(SampleGame({"colours": "plain"}, ("e2-e4", "e7-e5"), "e2-e5"),),
    perft=(20, 400, 8902),
)
