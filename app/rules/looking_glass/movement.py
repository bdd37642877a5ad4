"""How one piece moves inside one world (LG-3), and blind execution (LG-5).

Geometry comes from python-chess's attack tables; what is ours is the
three-way answer for an order in a world the player cannot see: impossible
(LG-5a), shortened (LG-5b) or full (LG-5c).
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

SLIDERS = (chess.BISHOP, chess.ROOK, chess.QUEEN)


def forward(color: chess.Color) -> int:
    """The square offset of one pawn step forward for ``color``."""
    return 8 if color == chess.WHITE else -8


def start_rank(color: chess.Color) -> int:
    """The rank (0-based) an unmoved pawn of ``color`` stands on."""
    return 1 if color == chess.WHITE else 6


def last_rank(color: chess.Color) -> int:
    """The rank (0-based) where a pawn of ``color`` promotes."""
    return 7 if color == chess.WHITE else 0


def front_square(square: int, color: chess.Color) -> int | None:
    """The square in front of a pawn of ``color`` on ``square``, if on the board."""
    target = square + forward(color)
    return target if 0 <= target < 64 else None


def _on_line(piece_type: int, from_square: int, to_square: int) -> bool:
    if not chess.BB_RAYS[from_square][to_square]:
        return False
    straight = chess.square_file(from_square) == chess.square_file(to_square) or (
        chess.square_rank(from_square) == chess.square_rank(to_square)
    )
    if piece_type == chess.ROOK:
        return straight
    if piece_type == chess.BISHOP:
        return not straight
    return True


def path(from_square: int, to_square: int) -> list[int]:
    """The squares from ``from_square`` (excluded) to ``to_square`` (included) on a line."""
    file_step = (chess.square_file(to_square) > chess.square_file(from_square)) - (
        chess.square_file(to_square) < chess.square_file(from_square)
    )
    rank_step = (chess.square_rank(to_square) > chess.square_rank(from_square)) - (
        chess.square_rank(to_square) < chess.square_rank(from_square)
    )
    step = rank_step * 8 + file_step
    return list(range(from_square + step, to_square + step, step))


def pawn_shape(from_square: int, to_square: int, color: chess.Color) -> str | None:
    """``"step"``, ``"double"`` or ``"diagonal"`` for a pawn displacement, else None (LG-5a.2)."""
    delta = (to_square - from_square) * (1 if color == chess.WHITE else -1)
    file_delta = abs(chess.square_file(to_square) - chess.square_file(from_square))
    if delta == 8 and file_delta == 0:
        return "step"
    if delta == 16 and file_delta == 0 and chess.square_rank(from_square) == start_rank(color):
        return "double"
    if file_delta == 1 and delta in (7, 9):
        return "diagonal"
    return None


def is_displacement(piece: chess.Piece, from_square: int, to_square: int) -> bool:
    """Whether going from ``from_square`` to ``to_square`` is a movement of this piece at all."""
    if from_square == to_square:
        return False
    kind = piece.piece_type
    if kind == chess.KNIGHT:
        return bool(chess.BB_KNIGHT_ATTACKS[from_square] & chess.BB_SQUARES[to_square])
    if kind == chess.KING:
        return bool(chess.BB_KING_ATTACKS[from_square] & chess.BB_SQUARES[to_square])
    if kind == chess.PAWN:
        return pawn_shape(from_square, to_square, piece.color) is not None
    return _on_line(kind, from_square, to_square)


@dataclass(frozen=True, slots=True)
class Execution:
    """The result of executing an order on a board, before any portal check."""

    kind: str  # "impossible" | "shortened" | "full"
    stop: int = -1
    captured: int | None = None  # square of the piece removed
    en_passant: bool = False


IMPOSSIBLE = Execution("impossible")


def execute_blind(
    board: chess.BaseBoard,
    from_square: int,
    to_square: int,
    color: chess.Color,
    ep_square: int | None,
) -> Execution:
    """Adjudicate an order in a world its giver cannot see (LG-5a/b/c).

    ``ep_square`` is the square a pawn may move to en passant in this world
    (LG-8); the caller removes the passed pawn wherever it now stands.
    """
    piece = board.piece_at(from_square)
    if piece is None or piece.color != color:
        return IMPOSSIBLE  # LG-5a.1
    if not is_displacement(piece, from_square, to_square):
        return IMPOSSIBLE  # LG-5a.2
    own = board.occupied_co[color]
    enemy = board.occupied_co[not color]
    kind = piece.piece_type
    if kind in SLIDERS:
        squares = path(from_square, to_square)
        if own & chess.BB_SQUARES[squares[0]]:
            return IMPOSSIBLE  # LG-5a.3: first square holds a piece of your colour
        previous = from_square
        for square in squares:
            mask = chess.BB_SQUARES[square]
            if enemy & mask:
                return Execution("full" if square == to_square else "shortened", square, square)
            if own & mask:
                return Execution("shortened", previous)
            previous = square
        return Execution("full", to_square)
    if kind in (chess.KNIGHT, chess.KING):
        mask = chess.BB_SQUARES[to_square]
        if own & mask:
            return IMPOSSIBLE  # LG-5a.3
        return Execution("full", to_square, to_square if enemy & mask else None)
    shape = pawn_shape(from_square, to_square, color)
    occupied = board.occupied
    if shape == "diagonal":
        if enemy & chess.BB_SQUARES[to_square]:
            return Execution("full", to_square, to_square)
        if ep_square == to_square:
            return Execution("full", to_square, None, en_passant=True)
        return IMPOSSIBLE  # LG-5a.3: nothing to capture
    first = from_square + forward(color)
    if occupied & chess.BB_SQUARES[first]:
        return IMPOSSIBLE  # LG-5a.3: the square in front is occupied
    if shape == "double" and occupied & chess.BB_SQUARES[to_square]:
        return Execution("shortened", first)  # LG-5b: a double step cut to one
    return Execution("full", to_square)


def home_reason(
    board: chess.BaseBoard,
    from_square: int,
    to_square: int,
    color: chess.Color,
    ep_square: int | None,
    world: str,
) -> str | None:
    """Why an order is not a legal move in a world the player sees (LG-4); None if legal."""
    name = chess.square_name
    piece = board.piece_at(from_square)
    if piece is None or piece.color != color:
        return f"there is no piece of yours on {world}:{name(from_square)}"
    label = chess.piece_name(piece.piece_type)
    if not is_displacement(piece, from_square, to_square):
        return f"a {label} cannot move from {name(from_square)} to {name(to_square)}"
    target = board.piece_at(to_square)
    if target is not None and target.color == color:
        return f"{world}:{name(to_square)} holds one of your own pieces"
    if piece.piece_type in SLIDERS:
        for square in path(from_square, to_square)[:-1]:
            if board.piece_at(square) is not None:
                return f"the {label}'s way to {name(to_square)} is blocked on {name(square)}"
        return None
    if piece.piece_type != chess.PAWN:
        return None
    shape = pawn_shape(from_square, to_square, color)
    if shape == "diagonal":
        if target is None and ep_square != to_square:
            return f"a pawn moves diagonally only to capture, and {world}:{name(to_square)} is empty"
        return None
    if target is not None:
        return f"a pawn cannot capture straight ahead ({world}:{name(to_square)} is occupied)"
    if shape == "double" and board.piece_at(from_square + forward(color)) is not None:
        return f"the pawn's way is blocked on {name(from_square + forward(color))}"
    return None


def destinations(board: chess.BaseBoard, square: int, ep_square: int | None) -> int:
    """Bitboard of squares the piece on ``square`` can move to by LG-3 (no castling, no check)."""
    piece = board.piece_at(square)
    if piece is None:
        return 0
    color = piece.color
    own = board.occupied_co[color]
    if piece.piece_type != chess.PAWN:
        return board.attacks_mask(square) & ~own
    targets = chess.BB_PAWN_ATTACKS[color][square] & (
        board.occupied_co[not color] | (chess.BB_SQUARES[ep_square] if ep_square is not None else 0)
    )
    first = front_square(square, color)
    if first is not None and not board.occupied & chess.BB_SQUARES[first]:
        targets |= chess.BB_SQUARES[first]
        if chess.square_rank(square) == start_rank(color):
            second = first + forward(color)
            if not board.occupied & chess.BB_SQUARES[second]:
                targets |= chess.BB_SQUARES[second]
    return targets


def has_any_move(board: chess.BaseBoard, color: chess.Color, ep_square: int | None) -> bool:
    """Whether ``color`` has at least one LG-3 movement in this world (castling aside)."""
    return any(destinations(board, square, ep_square) for square in chess.scan_forward(board.occupied_co[color]))
