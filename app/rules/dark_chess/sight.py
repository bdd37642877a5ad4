"""What each player sees (DC-3): their own men, and every square one of them could move to now, with what
stands there; every other square is fog.

A square is in sight when a man of the player's could move to it by DC-1 in the position as it stands, as if
it were their turn: a piece's squares up to and including the first man in its way when that man is the
enemy's, a pawn's squares ahead only where it could step (one, or two from its start rank with both empty),
its diagonal squares only where it could capture, the square a king would reach by castling (attacks do not
matter, DC-1). For the player to move, when a pawn of theirs could take en passant, the square it passed and
the pawn it would take are in sight too. All of it is worked out on python-chess's bitboards, for both
players at once, once a position.
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

from app.rules.base import Side
from app.rules.fide import SIDE_OF, unchecked_castlings
from app.rules.placement import cells_of, color_placement

NOT_A_FILE = ~chess.BB_FILE_A & chess.BB_ALL
NOT_H_FILE = ~chess.BB_FILE_H & chess.BB_ALL


@dataclass(frozen=True)
class Sight:
    """One player's sight: the FEN placement of their own men, and every other square in sight with what
    stands on it (a FEN letter, or "" for an empty square)."""

    own: str
    seen: dict[str, str]


def pawn_reach(board: chess.BaseBoard, color: chess.Color) -> chess.Bitboard:
    """The squares ``color``'s pawns could step to or capture on (en passant aside)."""
    pawns = board.pawns & board.occupied_co[color]
    empty = ~board.occupied & chess.BB_ALL
    enemy = board.occupied_co[not color]
    if color == chess.WHITE:
        single = (pawns << 8) & empty
        double = ((single & chess.BB_RANK_3) << 8) & empty
        takes = (((pawns & NOT_A_FILE) << 7) | ((pawns & NOT_H_FILE) << 9)) & enemy
    else:
        single = (pawns >> 8) & empty
        double = ((single & chess.BB_RANK_6) >> 8) & empty
        takes = (((pawns & NOT_A_FILE) >> 9) | ((pawns & NOT_H_FILE) >> 7)) & enemy
    return single | double | takes


def en_passant_reach(board: chess.Board, color: chess.Color) -> chess.Bitboard:
    """For the side to move: the square a pawn of theirs could take en passant on, and the pawn it would take."""
    square = board.ep_square
    if square is None or board.turn != color:
        return chess.BB_EMPTY
    takers = chess.BB_PAWN_ATTACKS[not color][square] & board.pawns & board.occupied_co[color]
    passed = square - 8 if color == chess.WHITE else square + 8
    if not takers or not board.pawns & board.occupied_co[not color] & chess.BB_SQUARES[passed]:
        return chess.BB_EMPTY
    return chess.BB_SQUARES[square] | chess.BB_SQUARES[passed]


def reach(board: chess.Board, color: chess.Color) -> chess.Bitboard:
    """Every square a man of ``color`` could move to now (DC-3), as if it were their turn: python-chess's attack
    tables looked up by the man's type, as ``attacks_mask`` does (a piece reaches what it attacks), in one pass
    over the player's pieces."""
    own, occupied = board.occupied_co[color], board.occupied
    knights, kings = board.knights, board.kings
    diagonal, straight = board.bishops | board.queens, board.rooks | board.queens
    found = chess.BB_EMPTY
    pieces = own & ~board.pawns
    while pieces:
        low = pieces & -pieces
        pieces ^= low
        square = low.bit_length() - 1
        if knights & low:
            found |= chess.BB_KNIGHT_ATTACKS[square]
        elif kings & low:
            found |= chess.BB_KING_ATTACKS[square]
        else:
            if diagonal & low:
                found |= chess.BB_DIAG_ATTACKS[square][chess.BB_DIAG_MASKS[square] & occupied]
            if straight & low:
                found |= (chess.BB_RANK_ATTACKS[square][chess.BB_RANK_MASKS[square] & occupied]
                          | chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & occupied])
    found = (found & ~own) | pawn_reach(board, color) | en_passant_reach(board, color)
    for _rook, king_to in unchecked_castlings(board, color):
        found |= chess.BB_SQUARES[king_to]
    return found


def sights(board: chess.Board) -> dict[Side, Sight]:
    """Both players' sight of the position: each square in sight named, a1 first, with the letter of the enemy
    man on it or "" (the letters of the whole board read once, for both)."""
    cells = cells_of(board)
    found = {}
    for color in chess.COLORS:
        seen = {}
        mask = reach(board, color) & ~board.occupied_co[color]
        while mask:
            low = mask & -mask
            mask ^= low
            square = low.bit_length() - 1
            letter = cells[square]
            seen[chess.SQUARE_NAMES[square]] = "" if letter == "." else letter
        found[SIDE_OF[color]] = Sight(color_placement(board, color), seen)
    return found
