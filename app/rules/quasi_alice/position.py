"""The four boards as one flat mailbox plus bitboards, the representation the move generator works on.

Squares are python-chess numbers (a1 = 0 .. h8 = 63); board ``b`` (A = 0 .. D = 3) owns the
mailbox cells ``b * 64 + square``. Pieces are small codes so that a cell, a bitboard index and a
piece are one integer each: White's pawn .. king are 1 .. 6 and Black's 9 .. 14, the python-chess
piece type plus 8 for Black. Colours are python-chess's (``WHITE`` = 1, ``BLACK`` = 0), so
``occupied[b * 2 + colour]`` and ``pieces[b * 16 + code]`` are plain list look-ups.
"""

from __future__ import annotations

import chess

from app.rules.placement import placement

BOARD_NAMES = ("A", "B", "C", "D")
BOARD_INDEX = {name: index for index, name in enumerate(BOARD_NAMES)}
WHITE, BLACK = int(chess.WHITE), int(chess.BLACK)
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING
OFFSET = (8, 0)  # by colour: Black's codes are 8 above White's
LETTERS = ".PNBRQK..pnbrqk."  # cell code -> FEN letter, "." for empty
CODES = {letter: code for code, letter in enumerate(LETTERS) if letter != "."}

# Castling rights (QA4-4): one bit per king and rook that have never moved.
WHITE_SHORT, WHITE_LONG, BLACK_SHORT, BLACK_LONG = 1, 2, 4, 8
RIGHT_LETTERS = ((WHITE_SHORT, "K"), (WHITE_LONG, "Q"), (BLACK_SHORT, "k"), (BLACK_LONG, "q"))
RIGHTS_OF = (BLACK_SHORT | BLACK_LONG, WHITE_SHORT | WHITE_LONG)  # by colour
KING_HOME = (chess.E8, chess.E1)  # by colour
# Unmoved pieces never leave board A, so touching one of these squares of A (moving from it, capturing
# on it, landing on it) means the king or rook that stood there has moved or been captured.
RIGHTS_LOST = {
    chess.E1: WHITE_SHORT | WHITE_LONG, chess.H1: WHITE_SHORT, chess.A1: WHITE_LONG,
    chess.E8: BLACK_SHORT | BLACK_LONG, chess.H8: BLACK_SHORT, chess.A8: BLACK_LONG,
}
ROOK_HOME = {WHITE_SHORT: chess.H1, WHITE_LONG: chess.A1, BLACK_SHORT: chess.H8, BLACK_LONG: chess.A8}

RANKS_KEPT = 20_000
_RANKS: dict[tuple[int, ...], str] = {}  # eight cell codes (a-file first) -> that rank in FEN

START = ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "8/8/8/8/8/8/8/8", "8/8/8/8/8/8/8/8", "8/8/8/8/8/8/8/8")


def code_of(color: int, piece_type: int) -> int:
    """The cell code of a piece."""
    return piece_type + OFFSET[color]


def color_of(code: int) -> int:
    return WHITE if code < 8 else BLACK


def type_of(code: int) -> int:
    return code & 7


class Position:
    """Four boards, whose move it is, castling rights and the en passant square (QA4-1, QA4-4, QA4-5)."""

    __slots__ = ("castling", "ep", "kings", "occupied", "pieces", "squares", "turn")

    def __init__(self) -> None:
        self.squares = [0] * 256  # cell code by board * 64 + square
        self.pieces = [0] * 64  # bitboard by board * 16 + code
        self.occupied = [0] * 8  # bitboard by board * 2 + colour
        self.kings = [-1, -1]  # by colour: board * 64 + square, -1 when absent
        self.turn = WHITE
        self.castling = 0
        self.ep = -1  # board * 64 + the square passed by a double step just made, else -1

    def copy(self) -> Position:
        twin = Position.__new__(Position)
        twin.squares = self.squares[:]
        twin.pieces = self.pieces[:]
        twin.occupied = self.occupied[:]
        twin.kings = self.kings[:]
        twin.turn = self.turn
        twin.castling = self.castling
        twin.ep = self.ep
        return twin

    def put(self, board: int, square: int, code: int) -> None:
        bit = 1 << square
        self.squares[board * 64 + square] = code
        self.pieces[board * 16 + code] |= bit
        self.occupied[board * 2 + (code < 8)] |= bit
        if code & 7 == KING:
            self.kings[code < 8] = board * 64 + square

    def take(self, board: int, square: int) -> int:
        """Remove and return the piece on a square (0 if it was empty)."""
        cell = board * 64 + square
        code = self.squares[cell]
        if code:
            bit = 1 << square
            self.squares[cell] = 0
            self.pieces[board * 16 + code] ^= bit
            self.occupied[board * 2 + (code < 8)] ^= bit
            if code & 7 == KING and self.kings[code < 8] == cell:
                self.kings[code < 8] = -1
        return code

    def at(self, board: int, square: int) -> int:
        return self.squares[board * 64 + square]

    # ----------------------------------------------------------------- text

    @classmethod
    def from_placements(
        cls, placements: tuple[str, ...] | list[str], turn: int = WHITE, castling: int = 0, ep: int = -1
    ) -> Position:
        """A position from four FEN placements (A first); raises ValueError on a bad placement."""
        if len(placements) != 4:
            raise ValueError("a position needs four boards")
        position = cls()
        kings = [0, 0]
        for board, text in enumerate(placements):
            parsed = chess.BaseBoard(text)
            if parsed.pawns & chess.BB_BACKRANKS:
                raise ValueError(f"a pawn on the first or last rank of board {BOARD_NAMES[board]}")
            for square, piece in parsed.piece_map().items():
                position.put(board, square, code_of(int(piece.color), piece.piece_type))
                kings[piece.color] += piece.piece_type == KING
        if kings != [1, 1]:
            raise ValueError("a position needs one king of each colour")
        position.turn = turn
        position.castling = castling
        position.ep = ep
        return position

    def placement(self, board: int) -> str:
        """The FEN piece placement of one board."""
        squares = self.squares
        ranks = []
        for start in range(board * 64 + 56, board * 64 - 1, -8):
            cells = tuple(squares[start : start + 8])
            text = _RANKS.get(cells)
            if text is None:
                if len(_RANKS) > RANKS_KEPT:
                    _RANKS.clear()
                text = _RANKS[cells] = placement([LETTERS[code] for code in cells] + ["."] * 56).split("/")[-1]
            ranks.append(text)
        return "/".join(ranks)

    def placements(self) -> tuple[str, str, str, str]:
        return (self.placement(0), self.placement(1), self.placement(2), self.placement(3))


def castling_text(rights: int) -> str:
    """``KQkq`` style, ``-`` when none."""
    return "".join(letter for bit, letter in RIGHT_LETTERS if rights & bit) or "-"


def castling_from_text(text: str) -> int:
    rights = 0
    for bit, letter in RIGHT_LETTERS:
        if letter in text:
            rights |= bit
    return rights


def square_label(board: int, square: int) -> str:
    """``B:e4``."""
    return f"{BOARD_NAMES[board]}:{chess.SQUARE_NAMES[square]}"


def parse_label(text: str) -> tuple[int, int]:
    """``B:e4`` -> (board, square)."""
    board, square = text.split(":")
    return BOARD_INDEX[board], chess.parse_square(square)
