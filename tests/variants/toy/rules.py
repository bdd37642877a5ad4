"""Toy Chess: ordinary chess, both players seeing the whole board; a variant made as a new contributor
would make one, with the kit alone (``app.rules.base``, ``common``, ``reading``, ``options``).

The play template answers everything but the move; python-chess judges the move.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import chess

from app.rules import messages, reading
from app.rules.base import Outcome, Side, Variant, View, rejected
from app.rules.common import GameStatus, end_game, win_for
from app.rules.options import choice

ACCEPTED = "e2-e4 (from and to squares), e7-e8=Q (promotion), e1-g1 (castling, as the king moves)"
FORMS: list[reading.Form] = [(reading.coordinate_move(), reading.coordinates)]
SIDE_OF = {chess.WHITE: "white", chess.BLACK: "black"}


@dataclass
class ToyState(GameStatus):
    """The moves played from the standard start (python-chess replays them for repetitions)."""

    options: dict[str, Any]
    moves: list[str] = field(default_factory=list)
    draw_offer: Side | None = None
    result: str | None = None
    reason: str | None = None
    board: chess.Board = field(default_factory=chess.Board, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {"options": dict(self.options), "moves": list(self.moves), **self.status_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ToyState:
        state = cls(dict(data["options"]), list(data["moves"]), **cls.status_from(data))
        for uci in state.moves:
            state.board.push(chess.Move.from_uci(uci))
        return state


def written(move: chess.Move) -> str:
    """The canonical form: ``e2-e4``, ``e7-e8=Q``."""
    return reading.CoordinateMove(move.from_square, move.to_square, move.promotion).text()


class ToyChess(Variant):
    name = "toy-chess"
    title = "Toy Chess"
    options = (choice("colours", ("classic", "plain"), "classic"),)  # how the board is drawn; no effect on play
    has_check = True

    def new_game(self, options: dict[str, Any], rng: random.Random | None = None) -> ToyState:
        return ToyState(self.parse_options(options))

    def read_order(self, text: str) -> Any:
        return reading.read_line(text, FORMS, ACCEPTED)

    def moves_of(self, board: chess.Board) -> list[chess.Move]:
        """The moves the rules allow."""
        return list(board.legal_moves)

    def move(self, state: ToyState, side: Side, order: reading.CoordinateMove, rng: random.Random | None) -> Outcome:
        board = state.board
        promotion = order.promotion
        if promotion is None and board.pawns & chess.BB_SQUARES[order.from_square] and order.to_square // 8 in (0, 7):
            promotion = chess.QUEEN
        chosen = chess.Move(order.from_square, order.to_square, promotion)
        if chosen not in self.moves_of(board):
            return rejected(side, "that move is not legal now")
        board.push(chosen)
        state.moves.append(chosen.uci())
        outcome = Outcome("moved", order=written(chosen))
        outcome.tell_both(messages.moved({"color": side, "order": written(chosen),
                                            "from": chess.square_name(chosen.from_square),
                                            "to": chess.square_name(chosen.to_square)}))
        if board.is_check():
            outcome.tell_both(messages.check(SIDE_OF[board.turn]))
        ending = board.outcome(claim_draw=True)
        if ending is not None:
            result = "1/2-1/2" if ending.winner is None else win_for(SIDE_OF[ending.winner])
            end_game(state, outcome, result, ending.termination.name.lower().replace("_", " "))
        return outcome

    def view(self, state: ToyState, side: Side) -> View:
        return {"board": state.board.board_fen()}

    def orderer(self, state: ToyState) -> Side | None:
        return None if state.result else SIDE_OF[state.board.turn]

    def move_number(self, state: ToyState) -> int:
        return state.board.fullmove_number

    def position(self, state: ToyState) -> dict[str, str]:
        return {"board": state.board.board_fen()}

    def example_orders(self, view: View, side: Side) -> list[str]:
        board = chess.Board(f"{view['board']} {side[0]} - - 0 1")
        return sorted(written(move) for move in board.legal_moves)[:3]

    from_json = staticmethod(ToyState.from_json)

    def legal_orders(self, state: ToyState) -> list[str]:
        return [written(move) for move in self.moves_of(state.board)] if state.result is None else []
