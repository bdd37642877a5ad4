"""Example orders worked out from a player's view alone (never the state), so they reveal nothing.

They need not be legal: the player cannot see everything, and neither can this.
"""

from __future__ import annotations

import chess

from app.rules.base import Side, View

PIECE_OF_LETTER = {letter: kind for kind, letter in zip(chess.PIECE_TYPES, "PNBRQK", strict=True)}
SETUP_EXAMPLES = ["setup RNBQKBNR", "setup random"]


def known_board(view: View, side: Side) -> chess.BaseBoard:
    """Own pieces, plus the enemy pieces whose square the view gives (physics 3)."""
    board = chess.BaseBoard(view["own"])
    for seen in view["seen"]:
        if seen["color"] != side and seen["square"]:
            color = chess.BLACK if side == "white" else chess.WHITE
            board.set_piece_at(chess.parse_square(seen["square"]), chess.Piece(PIECE_OF_LETTER[seen["piece"]], color))
    return board


def written(board: chess.BaseBoard, from_square: int, to_square: int) -> str:
    """Canonical order text; a pawn reaching the last rank becomes a queen."""
    text = f"{chess.square_name(from_square)}-{chess.square_name(to_square)}"
    if board.piece_type_at(from_square) == chess.PAWN and chess.square_rank(to_square) in (0, 7):
        text += "=Q"
    return text


def example_orders(view: View, side: Side) -> list[str]:
    """Up to three plausible orders: a capture of a piece seen exactly, a pawn push, a piece move, a king step."""
    board = known_board(view, side)
    color = side == "white"
    own = board.occupied_co[color]
    if not own:
        return list(SETUP_EXAMPLES)  # a hidden setup not yet in: nothing stands on the board for this player
    enemies = board.occupied_co[not color]
    forward = 8 if color else -8

    def centrality(square: int) -> float:
        return abs(chess.square_file(square) - 3.5)

    def progress(square: int) -> int:
        return chess.square_rank(square) if color else 7 - chess.square_rank(square)

    captures, pushes, piece_moves, king_moves = [], [], [], []
    for square in sorted(chess.scan_forward(own), key=centrality):
        kind = board.piece_type_at(square)
        if kind == chess.PAWN:
            reach = chess.BB_PAWN_ATTACKS[color][square]
            ahead = square + forward
            if 0 <= ahead < 64 and not board.occupied & chess.BB_SQUARES[ahead]:
                pushes.append(written(board, square, ahead))
        else:
            reach = board.attacks_mask(square)
            free = sorted(chess.scan_forward(reach & ~board.occupied), key=lambda t: (-progress(t), centrality(t)))
            if kind == chess.KING:
                king_moves += [written(board, square, target) for target in free]  # all: a lone king still has examples
            elif free:
                piece_moves.append(written(board, square, free[0]))
        captures += [written(board, square, target) for target in chess.scan_forward(reach & enemies & ~board.kings)]
    return first_of_each([captures, pushes, piece_moves, king_moves], 3)


def first_of_each(groups: list[list[str]], count: int) -> list[str]:
    """Up to ``count`` orders, one from each group in turn, so the examples show different kinds of move."""
    picked: list[str] = []
    for rank in range(max(map(len, groups))):
        for group in groups:
            if rank < len(group) and group[rank] not in picked and len(picked) < count:
                picked.append(group[rank])
    return picked


def plausible_orders(view: View, side: Side) -> list[str]:
    """Every move of the player's own pieces that the board they know would allow (pawns stepping forward or
    taking diagonally), from the view alone: what a misspelt order most likely meant."""
    board = known_board(view, side)
    color = side == "white"
    own = board.occupied_co[color]
    forward = 8 if color else -8
    orders = []
    for square in chess.scan_forward(own):
        if board.piece_type_at(square) == chess.PAWN:
            targets = chess.BB_PAWN_ATTACKS[color][square]
            ahead = square + forward
            if 0 <= ahead < 64 and not board.occupied & chess.BB_SQUARES[ahead]:
                targets |= chess.BB_SQUARES[ahead]
                start = chess.square_rank(square) == (1 if color else 6)
                if start and not board.occupied & chess.BB_SQUARES[ahead + forward]:
                    targets |= chess.BB_SQUARES[ahead + forward]
        else:
            targets = board.attacks_mask(square) & ~own
        orders += [written(board, square, target) for target in chess.scan_forward(targets & ~own)]
    return orders
