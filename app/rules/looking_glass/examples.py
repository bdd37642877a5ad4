"""Example orders for one player, worked out from their view alone (never from the true position).

In their home world a player sees everything, so the examples there are moves LG-3 allows on
the board they see. In the other world they know only their own pieces: an example there is a
movement of one of them that the empty board would allow, which may turn out shortened or
impossible, as any blind order can.
"""

from __future__ import annotations

import chess

from app.rules.base import Side, View
from app.rules.looking_glass.movement import destinations
from app.rules.looking_glass.state import COLOR, HOME, other_world
from app.rules.placement import board_from_placement

PREFERRED = (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.QUEEN, chess.ROOK, chess.KING)  # what examples show


def written(world: str, from_square: int, to_square: int) -> str:
    return f"{world} {chess.square_name(from_square)}-{chess.square_name(to_square)}"


def central_first(mask: int) -> list[int]:
    """Squares nearest the centre files first: the moves a player would think of first."""
    return sorted(chess.scan_forward(mask), key=lambda square: (abs(chess.square_file(square) - 3.6), square))


def best_target(kind: int, targets: int, side: Side) -> int:
    """A pawn's longest step forward; for another piece the square nearest the centre."""
    if kind == chess.PAWN:
        return chess.msb(targets) if side == "white" else chess.lsb(targets)
    return central_first(targets)[0]


def home_examples(view: View, side: Side) -> list[str]:
    """Up to two different pieces' moves in the home world, on the board the player sees."""
    board = board_from_placement(view["home"])
    found: list[str] = []
    for kind in PREFERRED:
        for square in central_first(board.pieces_mask(kind, COLOR[side])):
            targets = destinations(board, square, None)
            if targets:
                found.append(written(HOME[side], square, best_target(kind, targets, side)))
                break
        if len(found) == 2:
            break
    return found


def blind_example(view: View, side: Side) -> str | None:
    """A movement of one of the player's own pieces in the other world, as the empty board allows it."""
    board = board_from_placement(view["notebook"])
    color = COLOR[side]
    own = chess.BaseBoard(None)
    for square in chess.scan_forward(board.occupied_co[color]):
        own.set_piece_at(square, board.piece_at(square))
    for kind in PREFERRED:
        for square in chess.scan_forward(own.pieces_mask(kind, color)):
            targets = destinations(own, square, None)
            if targets:
                return written(other_world(HOME[side]), square, best_target(kind, targets, side))
    return None


def example_orders(view: View, side: Side) -> list[str]:
    blind = blind_example(view, side)
    return [*home_examples(view, side), *([blind] if blind else [])]


def plausible_orders(view: View, side: Side) -> list[str]:
    """Every move LG-3 allows on the home board the player sees, and every movement of their own pieces in
    the other world as the empty board would allow it."""
    home = board_from_placement(view["home"])
    orders = [written(HOME[side], square, target)
              for square in chess.scan_forward(home.occupied_co[COLOR[side]])
              for target in chess.scan_forward(destinations(home, square, None))]
    away = board_from_placement(view["notebook"])
    own = chess.BaseBoard(None)
    for square in chess.scan_forward(away.occupied_co[COLOR[side]]):
        own.set_piece_at(square, away.piece_at(square))
    orders += [written(other_world(HOME[side]), square, target)
               for square in chess.scan_forward(own.occupied_co[COLOR[side]])
               for target in chess.scan_forward(destinations(own, square, None))]
    return orders
