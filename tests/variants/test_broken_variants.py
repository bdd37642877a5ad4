"""The conformance suite catches a variant that does not work, and passes one that does: Toy Chess, made with
the kit alone, passes; the same rules with a presenter that describes and draws nothing, with rules that let a
king move into check, with a referee that plays moves into check while its legal orders stay right, or with a
state that loses a field on its way through JSON, fail, each on the check that should catch it."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import chess
import pytest

from app.present.base import Presenter
from app.present.declaration import Declaration
from app.rules.base import Variant
from tests.variants import conformance
from tests.variants.toy import DECLARATION as TOY
from tests.variants.toy.rules import ToyChess, ToyState, written


class KingIntoCheck(ToyChess):
    """Rules that forget check: every pseudo-legal move is allowed, the king's into check among them."""

    name = "toy-chess-without-check"

    def moves_of(self, board: chess.Board) -> list[chess.Move]:
        return list(board.pseudo_legal_moves)


class LyingReferee(ToyChess):
    """A referee that plays every pseudo-legal move, a king's into check among them, while its legal orders are
    still the legal moves alone: nothing the variant says of itself shows it."""

    name = "toy-chess-lying-referee"

    def moves_of(self, board: chess.Board) -> list[chess.Move]:
        return list(board.pseudo_legal_moves)

    def legal_orders(self, state: ToyState) -> list[str]:
        return [written(move) for move in state.board.legal_moves] if state.result is None else []


@dataclass
class PositionOnly(ToyState):
    """Toy Chess kept as its position, whose ``to_json`` leaves out the castling rights (and the en passant
    square and the move counts): reloaded, it is itself again, but no longer the game it was."""

    def to_json(self) -> dict[str, Any]:
        placement, turn = self.board.fen().split()[:2]
        return {"options": dict(self.options), "fen": f"{placement} {turn} - - 0 1", **self.status_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PositionOnly:
        state = cls(dict(data["options"]), [], **cls.status_from(data))
        state.board = chess.Board(data["fen"])
        return state


class CastlingForgotten(ToyChess):
    name = "toy-chess-castling-forgotten"
    from_json = staticmethod(PositionOnly.from_json)

    def new_game(self, options: dict[str, Any], rng: random.Random | None = None) -> PositionOnly:
        return PositionOnly(self.parse_options(options))


@dataclass
class OfferForgotten(ToyState):
    """Toy Chess whose ``to_json`` leaves out the pending draw offer."""

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        data["draw_offer"] = None
        return data


class DrawOfferForgotten(ToyChess):
    name = "toy-chess-draw-offer-forgotten"
    from_json = staticmethod(OfferForgotten.from_json)

    def new_game(self, options: dict[str, Any], rng: random.Random | None = None) -> OfferForgotten:
        return OfferForgotten(self.parse_options(options))


def declared(rules: Variant) -> Declaration:
    return Declaration(rules, TOY.presenter, TOY.rules_page, TOY.samples, TOY.perft)


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
    found = conformance.conformance(declared(KingIntoCheck()))
    assert set(found) == {"kings_safe", "written_orders_played"}  # every other check passes: the king's safety tells
    assert "king attacked on board:" in found["kings_safe"][0]
    assert "was played and leaves" in found["written_orders_played"][0]


def test_a_referee_that_plays_a_move_into_check_while_its_legal_orders_are_right_is_caught_by_every_written_order():
    """Offered every order that can be written, the referee plays some that ``legal_orders`` does not list, and
    python-chess finds the mover's king attacked after them; no other check sees anything wrong."""
    found = conformance.conformance(declared(LyingReferee()))
    assert list(found) == ["written_orders_played"]
    problems = found["written_orders_played"]
    assert any("which legal_orders does not list" in problem for problem in problems)
    assert any("king attacked on board:" in problem for problem in problems)


@pytest.mark.parametrize("rules", [CastlingForgotten(), DrawOfferForgotten()], ids=lambda rules: rules.name)
def test_a_state_whose_json_drops_a_field_is_caught_by_the_game_reloaded_at_every_event(rules):
    """Reloaded from its own JSON such a state is itself again (the round trip passes), but the game reloaded
    before every event goes otherwise than the game as played: castling no longer legal, a draw offer no longer
    there to accept."""
    found = conformance.conformance(declared(rules))
    assert list(found) == ["reloaded_plays_alike"]
    assert "reloaded" in found["reloaded_plays_alike"][0]
