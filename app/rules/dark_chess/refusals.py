"""Why an order is refused (DC-2), in words that tell nothing the player's own sight does not show.

Every square a player's men can move to is in their sight (DC-3), so a reason may speak of the player's own
men, of how a man moves, and of castling rights (which the player's own moves settle); it never names what
stands on a square in the fog. That an order is refused at all is what the game itself lets a player infer: a
pawn that cannot step is blocked by something, and a castle refused has something in its way (in Chess960
the rook's landing square can be out of sight, when the king stands between it and the rook's path: the
refusal names no square).
"""

from __future__ import annotations

import chess

from app.rules.fide import castling_written
from app.rules.reading import PIECE_NAMES, Castle, CoordinateMove

EMPTY = chess.BaseBoard(None)
NAMES = {kind: PIECE_NAMES[chess.piece_symbol(kind).upper()] for kind in chess.PIECE_TYPES}


def moves_so(piece: chess.Piece, from_square: chess.Square, to_square: chess.Square) -> bool:
    """Whether the piece moves from one square to the other on an otherwise empty board (a pawn: one step
    ahead, two from its start rank, or one diagonally ahead)."""
    if piece.piece_type == chess.PAWN:
        ahead = 1 if piece.color == chess.WHITE else -1
        files = abs(chess.square_file(to_square) - chess.square_file(from_square))
        ranks = chess.square_rank(to_square) - chess.square_rank(from_square)
        start = chess.square_rank(from_square) == (1 if piece.color == chess.WHITE else 6)
        return (ranks == ahead and files <= 1) or (ranks == 2 * ahead and files == 0 and start)
    board = EMPTY.copy()
    board.set_piece_at(from_square, piece)
    return bool(board.attacks_mask(from_square) & chess.BB_SQUARES[to_square])


def castling_step(board: chess.Board, order: CoordinateMove) -> Castle | None:
    """A king's step along its back rank onto the c- or g-file, two files or more: castling as the king moves
    (``e1-g1``), refused as castling."""
    back = 0 if board.turn == chess.WHITE else 7
    if not board.kings & board.occupied_co[board.turn] & chess.BB_SQUARES[order.from_square]:
        return None
    if chess.square_rank(order.from_square) != back or chess.square_rank(order.to_square) != back:
        return None
    if chess.square_file(order.to_square) not in (2, 6) or chess.square_distance(order.from_square,
                                                                                 order.to_square) < 2:
        return None
    return Castle(order.to_square < order.from_square)


def castle_refusal(board: chess.Board, castle: Castle) -> str:
    """Why castling is not possible now: a right lost, or something on the squares the king and rook cross."""
    backrank = chess.BB_RANK_1 if board.turn == chess.WHITE else chess.BB_RANK_8
    king = board.king(board.turn)
    rooks = [rook for rook in chess.scan_forward(board.clean_castling_rights() & backrank)
             if king is not None and (rook < king) == castle.long]
    if not rooks:
        return f"{castle.text()} is no longer possible: your king or the rook on that side has moved, or the rook " \
               "was taken"
    return f"{castle.text()} needs the squares your king and that rook cross or land on to be empty"


def refusal(board: chess.Board, order: CoordinateMove | Castle) -> str:
    """Why an order that is no move now (``fide.find_move`` found none) is refused."""
    castle = order if isinstance(order, Castle) else castling_written(board, order, board.turn) or castling_step(
        board, order)
    if castle is not None:
        return castle_refusal(board, castle)
    from_name, to_name = chess.SQUARE_NAMES[order.from_square], chess.SQUARE_NAMES[order.to_square]
    piece = board.piece_at(order.from_square)
    if piece is None or piece.color != board.turn:
        return f"no piece of yours on {from_name}"
    name = NAMES[piece.piece_type]
    if order.from_square == order.to_square:
        return f"{from_name}-{to_name} does not move your {name}"
    if order.promotion is not None and piece.piece_type != chess.PAWN:
        return f"only a pawn is promoted, and your man on {from_name} is a {name}"
    occupant = board.piece_at(order.to_square)
    if occupant is not None and occupant.color == piece.color:
        return f"your own {NAMES[occupant.piece_type]} stands on {to_name}"
    if not moves_so(piece, order.from_square, order.to_square):
        return f"a {name} does not move so"
    return f"your {name} cannot move to {to_name}"
