"""What both players see (QA4-9: full information), and example orders worked out from that alone."""

from __future__ import annotations

from typing import Any

from app.rules.base import Side
from app.rules.quasi_alice.movegen import checkers, legal_moves
from app.rules.quasi_alice.orders import written
from app.rules.quasi_alice.position import (
    BOARD_NAMES,
    Position,
    castling_from_text,
    castling_text,
    parse_label,
)
from app.rules.quasi_alice.state import COLOR_OF, GameState


def view(state: GameState) -> dict[str, Any]:
    """The same for both players: the four boards, and what a player needs to order from them alone
    (whose move, castling and en passant rights, a check, the last move, the clocks)."""
    position = state.position
    over = state.result is not None
    check = None
    if (not over or state.reason == "checkmate") and checkers(position, position.turn):
        check = {"color": state.to_move, "board": BOARD_NAMES[position.kings[position.turn] >> 6]}
    return {
        "boards": state.placements(),
        "to_move": None if over else state.to_move,
        "move_number": state.move_number,
        "castling": castling_text(position.castling),
        "en_passant": state.en_passant_label(),
        "check": check,
        "last_move": state.last_move,
        "halfmove_clock": state.halfmove_clock,
    }


def example_orders(view: dict[str, Any], side: Side) -> list[str]:
    """Up to three legal moves for ``side`` when it is their move, from different pieces, in canonical form."""
    if view.get("to_move") != side:
        return []
    orders = first_per_piece(view, side)
    if len(orders) <= 3:
        return orders
    return [orders[0], orders[len(orders) // 2], orders[-1]]


def legal_orders_in_view(view: dict[str, Any], side: Side) -> list[str]:
    """Every legal move of ``side`` in canonical form, from the view (the whole position here)."""
    if view.get("to_move") != side:
        return []
    return [written(move) for move in legal_moves(position_of(view, side))]


def position_of(view: dict[str, Any], side: Side) -> Position:
    ep = -1
    if view.get("en_passant"):
        board, square = parse_label(view["en_passant"])
        ep = board * 64 + square
    boards = [view["boards"][name] for name in BOARD_NAMES]
    return Position.from_placements(boards, COLOR_OF[side], castling_from_text(view.get("castling", "-")), ep)


def first_per_piece(view: dict[str, Any], side: Side) -> list[str]:
    """One legal move per piece that has one, in generation order."""
    by_piece: dict[tuple[int, int], str] = {}
    for move in legal_moves(position_of(view, side)):
        by_piece.setdefault((move[0], move[1]), written(move))
    return list(by_piece.values())

