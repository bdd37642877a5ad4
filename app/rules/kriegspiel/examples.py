"""Example orders worked out from a player's view alone (their own pieces), never from the state.

They need not be legal: the player cannot see the enemy, and neither can this. Every enemy
man may stand anywhere the player's own men do not, so a move is plausible when the board of
the player's own men alone allows it.
"""

from __future__ import annotations

import chess

from app.rules.base import Side, View


def own_board(view: View) -> chess.BaseBoard:
    return chess.BaseBoard(view["own"])


def written(board: chess.BaseBoard, from_square: chess.Square, to_square: chess.Square) -> str:
    """Canonical order text; a pawn reaching the last rank becomes a queen."""
    text = f"{chess.square_name(from_square)}-{chess.square_name(to_square)}"
    if board.piece_type_at(from_square) == chess.PAWN and chess.square_rank(to_square) in (0, 7):
        text += "=Q"
    return text


def pawn_targets(board: chess.BaseBoard, color: chess.Color, square: chess.Square) -> tuple[int, int]:
    """A pawn's forward steps (one, or two from its start rank) over squares free of own men, and its two
    diagonal steps (captures, if an enemy man stands there)."""
    forward = 8 if color else -8
    steps = 0
    ahead = square + forward
    if 0 <= ahead < 64 and not board.occupied & chess.BB_SQUARES[ahead]:
        steps |= chess.BB_SQUARES[ahead]
        if chess.square_rank(square) == (1 if color else 6) and not board.occupied & chess.BB_SQUARES[ahead + forward]:
            steps |= chess.BB_SQUARES[ahead + forward]
    return steps, chess.BB_PAWN_ATTACKS[color][square] & ~board.occupied_co[color]


def example_orders(view: View, side: Side) -> list[str]:
    """Up to three plausible orders of different kinds: a pawn step, a piece move, a king step."""
    board = own_board(view)
    color = side == "white"

    def centrality(square: chess.Square) -> float:
        return abs(chess.square_file(square) - 3.5)

    def progress(square: chess.Square) -> int:
        return chess.square_rank(square) if color else 7 - chess.square_rank(square)

    pushes, piece_moves, king_moves = [], [], []
    for square in sorted(chess.scan_forward(board.occupied_co[color]), key=centrality):
        kind = board.piece_type_at(square)
        if kind == chess.PAWN:
            steps, _diagonals = pawn_targets(board, color, square)
            furthest_first = sorted(chess.scan_forward(steps), key=progress, reverse=True)
            pushes += [written(board, square, target) for target in furthest_first]
            continue
        free = sorted(chess.scan_forward(board.attacks_mask(square) & ~board.occupied_co[color]),
                      key=lambda target: (-progress(target), centrality(target)))
        if kind == chess.KING:
            king_moves += [written(board, square, target) for target in free]
        elif free:
            piece_moves.append(written(board, square, free[0]))
    return first_of_each([pushes, piece_moves, king_moves], 3)


def first_of_each(groups: list[list[str]], count: int) -> list[str]:
    """Up to ``count`` orders, one from each group in turn, so the examples show different kinds of move."""
    picked: list[str] = []
    for rank in range(max(map(len, groups), default=0)):
        for group in groups:
            if rank < len(group) and group[rank] not in picked and len(picked) < count:
                picked.append(group[rank])
    return picked


def plausible_orders(view: View, side: Side) -> list[str]:
    """Every move of the player's own men that the board of their own men allows: what a misspelt order most
    likely meant."""
    board = own_board(view)
    color = side == "white"
    own = board.occupied_co[color]
    orders = []
    for square in chess.scan_forward(own):
        if board.piece_type_at(square) == chess.PAWN:
            steps, diagonals = pawn_targets(board, color, square)
            targets = steps | diagonals
        else:
            targets = board.attacks_mask(square) & ~own
        orders += [written(board, square, target) for target in chess.scan_forward(targets)]
    return orders
