"""The conformance suite catches a variant that does not work, and passes one that does: Toy Chess, made with
the kit alone, passes; the same rules with a presenter that describes and draws nothing, or with rules that let
a king move into check, fail, each on the check that should catch it."""

import chess

from app.present.base import Presenter
from app.present.declaration import Declaration
from tests.variants import conformance
from tests.variants.toy import DECLARATION as TOY
from tests.variants.toy.rules import ToyChess


class KingIntoCheck(ToyChess):
    """Rules that forget check: every pseudo-legal move is allowed, the king's into check among them."""

    name = "toy-chess-without-check"

    def moves_of(self, board: chess.Board) -> list[chess.Move]:
        return list(board.pseudo_legal_moves)


def test_a_variant_made_with_the_kit_alone_passes_every_check():
    assert conformance.conformance(TOY) == {}


def test_a_presenter_with_no_describe_figure_order_forms_or_record_is_caught():
    """The base presenter alone: its move requests would show no board and say '- moved'."""
    blank = Declaration(TOY.rules, Presenter, TOY.rules_page, TOY.samples, TOY.perft)
    found = conformance.conformance(blank)
    assert set(found) == {"messages_described", "views_drawn"}
    assert any("'kind': 'moved'" in problem and "'moved', not in words" in problem
               for problem in found["messages_described"])
    assert found["views_drawn"][0].startswith("no figure for white's view")


def test_rules_that_let_a_king_move_into_check_are_caught_by_python_chess_on_the_true_position():
    careless = Declaration(KingIntoCheck(), TOY.presenter, TOY.rules_page, TOY.samples, TOY.perft)
    found = conformance.conformance(careless)
    assert list(found) == ["kings_safe"]  # every other check passes: only the king's safety tells
    assert "king attacked on board:" in found["kings_safe"][0]
