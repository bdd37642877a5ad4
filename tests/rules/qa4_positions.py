"""Building 4D Quasi-Alice positions for tests, and asking the fast generator and the rule-by-rule judge."""

from __future__ import annotations

from app.rules.base import Outcome, Side
from app.rules.quasi_alice import QuasiAlice, judge
from app.rules.quasi_alice.movegen import checkers, legal_moves
from app.rules.quasi_alice.orders import written
from app.rules.quasi_alice.position import Position, castling_from_text, parse_label
from app.rules.quasi_alice.state import COLOR_OF, GameState

QA = QuasiAlice()
EMPTY = "8/8/8/8/8/8/8/8"


def qa_position(
    A: str = EMPTY,  # the boards are named A..D in the rules
    B: str = EMPTY,
    C: str = EMPTY,
    D: str = EMPTY,
    to_move: Side = "white",
    castling: str = "-",
    en_passant: str | None = None,
    halfmove_clock: int = 0,
) -> GameState:
    """A game in play with the given boards (FEN placements); no castling unless given."""
    ep = -1
    if en_passant:
        board, square = parse_label(en_passant)
        ep = board * 64 + square
    position = Position.from_placements([A, B, C, D], COLOR_OF[to_move], castling_from_text(castling), ep)
    assert not checkers(position, position.turn ^ 1), "the side that just moved cannot be in check"
    state = GameState(position, halfmove_clock=halfmove_clock)
    state.history = [state.repetition_key()]
    return state


def play(state: GameState, side: Side, text: str) -> Outcome:
    return QA.play(state, side, text)


def moved(state: GameState, side: Side, text: str) -> Outcome:
    """Play an order that must be a legal move."""
    outcome = QA.play(state, side, text)
    assert outcome.result == "moved", (text, outcome.to[side])
    return outcome


def reason(outcome: Outcome, side: Side) -> str:
    """The reason of a rejection or error, told to ``side`` alone."""
    assert outcome.result in ("rejected", "error"), outcome
    (message,) = outcome.to[side]
    return message["reason"]


def why(state: GameState, side: Side, text: str) -> str:
    """Play an order that must be refused, and say why it was."""
    return reason(QA.play(state, side, text), side)


def fast_orders(state: GameState) -> set[str]:
    orders = [written(move) for move in legal_moves(state.position)]
    assert len(orders) == len(set(orders)), "a move listed twice"
    return set(orders)


def slow_orders(state: GameState) -> set[str]:
    return judge.legal_orders(judge.snapshot_of(state.position))


def onto_boards(state: GameState, prefix: str) -> set[str]:
    """The destination boards of the legal moves whose canonical text starts with ``prefix``."""
    return {order.rsplit(">", 1)[1] for order in QA.legal_orders(state) if order.startswith(prefix)}
