"""Where every piece is going (PAL-2), and whether a side has arrived (PAL-4).

A piece's destination is the start square of the same type of enemy piece. Rooks come in two types,
left- and right-handed (PAL-1), so a rook's destination depends on its handedness, which the state
keeps as a bitmask of the squares of left-handed rooks (``left``). Bishops never change square colour,
so a bishop's destination follows from the colour of the square it stands on.
"""

from __future__ import annotations

import chess

WHITE_START = "RNBQKBNR"  # a1..h1: a1 is the right-handed rook, h1 the left-handed one (PAL-1)
BLACK_START = "rnbkqbnr"  # a8..h8: a8 is the left-handed rook, h8 the right-handed one
START_FEN = f"{BLACK_START}/pppppppp/8/8/8/8/PPPPPPPP/{WHITE_START} w KQkq - 0 1"
START_LEFT = chess.BB_H1 | chess.BB_A8

# Destination masks by colour: pawns, knights, bishops on dark / light squares, queen, king, and rooks by hand.
PAWN_RANK = {chess.WHITE: chess.BB_RANK_7, chess.BLACK: chess.BB_RANK_2}
KNIGHT_SQUARES = {chess.WHITE: chess.BB_B8 | chess.BB_G8, chess.BLACK: chess.BB_B1 | chess.BB_G1}
DARK_BISHOP_SQUARE = {chess.WHITE: chess.BB_F8, chess.BLACK: chess.BB_C1}
LIGHT_BISHOP_SQUARE = {chess.WHITE: chess.BB_C8, chess.BLACK: chess.BB_F1}
QUEEN_SQUARE = {chess.WHITE: chess.BB_E8, chess.BLACK: chess.BB_D1}
KING_SQUARE = {chess.WHITE: chess.BB_D8, chess.BLACK: chess.BB_E1}
LEFT_ROOK_SQUARE = {chess.WHITE: chess.BB_A8, chess.BLACK: chess.BB_H1}
RIGHT_ROOK_SQUARE = {chess.WHITE: chess.BB_H8, chess.BLACK: chess.BB_A1}
BISHOP_SQUARES = {color: DARK_BISHOP_SQUARE[color] | LIGHT_BISHOP_SQUARE[color] for color in chess.COLORS}


def destination_mask(piece_type: chess.PieceType, color: chess.Color, square: chess.Square, left_handed: bool) -> int:
    """The squares a piece of this type, colour and square (and hand, for a rook) must end on."""
    if piece_type == chess.PAWN:
        return PAWN_RANK[color]
    if piece_type == chess.KNIGHT:
        return KNIGHT_SQUARES[color]
    if piece_type == chess.BISHOP:
        dark = bool(chess.BB_DARK_SQUARES & chess.BB_SQUARES[square])
        return DARK_BISHOP_SQUARE[color] if dark else LIGHT_BISHOP_SQUARE[color]
    if piece_type == chess.ROOK:
        return LEFT_ROOK_SQUARE[color] if left_handed else RIGHT_ROOK_SQUARE[color]
    if piece_type == chess.QUEEN:
        return QUEEN_SQUARE[color]
    return KING_SQUARE[color]


def away_mask(board: chess.BaseBoard, left: int, color: chess.Color) -> int:
    """The squares of ``color``'s pieces that are not on a destination of theirs."""
    own = board.occupied_co[color]
    rooks = board.rooks & own
    # A bishop on either bishop destination is home: a bishop on the dark one is a dark-squared bishop.
    return (
        (board.pawns & own & ~PAWN_RANK[color])
        | (board.knights & own & ~KNIGHT_SQUARES[color])
        | (board.bishops & own & ~BISHOP_SQUARES[color])
        | (rooks & left & ~LEFT_ROOK_SQUARE[color])
        | (rooks & ~left & ~RIGHT_ROOK_SQUARE[color])
        | (board.queens & own & ~QUEEN_SQUARE[color])
        | (board.kings & own & ~KING_SQUARE[color])
    )


def is_home(board: chess.BaseBoard, left: int, color: chess.Color) -> bool:
    """PAL-4: every piece of ``color`` stands on one of its destinations."""
    if not board.kings & board.occupied_co[color] & KING_SQUARE[color]:
        return False  # the quick test that settles nearly every position
    return not away_mask(board, left, color)


def piece_destinations(letter: str, square: chess.Square, handed: str | None) -> list[str]:
    """Destination square names of the piece written ``letter`` (FEN) on ``square``; ``handed`` for rooks."""
    piece = chess.Piece.from_symbol(letter)
    mask = destination_mask(piece.piece_type, piece.color, square, handed == "left")
    return [chess.SQUARE_NAMES[target] for target in chess.scan_forward(mask)]
