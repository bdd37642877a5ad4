"""Orders worked out from a player's view alone (their own men and their sight), never from the state.

Every square a man can move to is in sight (DC-3), with what stands there, so the view itself says which moves
there are: a man's move is one whose to-square is in sight and which the board the player knows allows, the
fog standing in the way of nothing it could not (a pawn's step into the fog is blocked: were the square empty,
it would be in sight). Castling is left to its own order form.
"""

from __future__ import annotations

import chess

from app.rules.base import Side, View

FOG_STAND_IN = "p"  # what a fogged square is taken to hold: something, not the player's


def known_board(view: View, side: Side) -> tuple[chess.Board, chess.Bitboard]:
    """The board the player knows, ``side`` to move (a stand-in man of the enemy's on every fogged square), and
    the squares in sight."""
    color = side == "white"
    board = chess.Board(view["own"] + " w - - 0 1")
    board.turn = color
    in_sight = board.occupied_co[color]
    stand_in = chess.Piece.from_symbol(FOG_STAND_IN.upper() if not color else FOG_STAND_IN)
    for name, letter in view["seen"].items():
        square = chess.parse_square(name)
        in_sight |= chess.BB_SQUARES[square]
        if letter:
            board.set_piece_at(square, chess.Piece.from_symbol(letter))
    for square in chess.scan_forward(~in_sight & chess.BB_ALL):
        board.set_piece_at(square, stand_in)
    return board, in_sight


def written(board: chess.Board, move: chess.Move) -> str:
    """Canonical order text; a pawn reaching the last rank becomes a queen."""
    text = f"{chess.square_name(move.from_square)}-{chess.square_name(move.to_square)}"
    return text + ("=Q" if move.promotion else "")


def plausible_orders(view: View, side: Side) -> list[str]:
    """Every move of the player's men that their view shows (castling and en passant aside): what a misspelt
    order most likely meant."""
    if not view.get("own"):
        return []
    board, in_sight = known_board(view, side)
    own = board.occupied_co[board.turn]
    return [written(board, move) for move in board.generate_pseudo_legal_moves(own, in_sight & ~own)
            if move.promotion in (None, chess.QUEEN)]


def example_orders(view: View, side: Side) -> list[str]:
    """Up to three orders of different kinds the view shows: a capture, a pawn's step, a piece's move."""
    own = chess.BaseBoard(view["own"]) if view.get("own") else chess.BaseBoard(None)
    groups: dict[str, list[str]] = {"capture": [], "pawn": [], "piece": []}
    for order in plausible_orders(view, side):
        kind = "capture" if view["seen"].get(order[3:5]) else "pawn" if own.piece_type_at(
            chess.parse_square(order[:2])) == chess.PAWN else "piece"
        groups[kind].append(order)
    picked = [group[len(group) // 2] for group in groups.values() if group]
    return (picked + [order for order in groups["piece"] + groups["pawn"] if order not in picked])[:3]
