"""Reading one order line of 4D Quasi-Alice Chess (QA4-8, "Orders by email"), and writing orders canonically.

An order names the board a move is played on, the move, and the destination board the piece transfers
to: ``A:e2-e4>B``. The board and the destination may be left out where only one fits; the referee
settles that against the position (``referee.resolve``), since reading a line needs no position.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import chess

from app.rules import reading
from app.rules.quasi_alice.movegen import CASTLE, Move
from app.rules.quasi_alice.position import BOARD_NAMES
from app.rules.reading import Command

__all__ = ["CastleOrder", "Command", "MoveOrder", "Order", "mentions_order", "read_order", "written"]

PROMOTION_LETTERS = {**reading.PROMOTION_LETTERS, "k": chess.KING, "p": chess.PAWN}  # read, to be refused
TYPE_LETTER = {kind: chess.piece_symbol(kind).upper() for kind in chess.PIECE_TYPES}
ACCEPTED_FORMS = (
    "A:e2-e4>B (board, move, destination board; also A e2-e4 > B or a:e2e4>b), "
    "e2-e4>B or A:e2-e4 (the board may be left out when only one board has a piece of yours on e2, "
    "the destination when the move is legal onto one board only), A:O-O>C, O-O-O, "
    "A:e7-e8=Q>B (promotion; without a letter, a queen), resign, offer draw, accept draw, decline draw"
)

_BOARD = r"(?:(?P<board>[a-d])\s*:?\s*)?"
_ONTO = r"(?:\s*>\s*(?P<onto>[a-d]))?"


@dataclass(frozen=True, slots=True)
class MoveOrder:
    """A move as written: ``board`` and ``onto`` are None when left out, ``promotion`` when no letter."""

    board: str | None
    origin: int
    to: int
    promotion: int | None = None
    onto: str | None = None
    piece: str | None = None  # the letter written in front of the move, if any

    def text(self) -> str:
        """The order as read, in canonical spelling, with what was left out still left out."""
        prefix = f"{self.board}:" if self.board else ""
        suffix = "=" + TYPE_LETTER[self.promotion] if self.promotion else ""
        onto = f">{self.onto}" if self.onto else ""
        return f"{prefix}{chess.square_name(self.origin)}-{chess.square_name(self.to)}{suffix}{onto}"


@dataclass(frozen=True, slots=True)
class CastleOrder:
    """``O-O`` (long=False) or ``O-O-O``, with the board and destination board if written."""

    long: bool
    board: str | None = None
    onto: str | None = None

    def text(self) -> str:
        prefix = f"{self.board}:" if self.board else ""
        onto = f">{self.onto}" if self.onto else ""
        return f"{prefix}{'O-O-O' if self.long else 'O-O'}{onto}"


Order = MoveOrder | CastleOrder | Command


def move_text(board: str, origin: int, to: int, promotion: int | None, onto: str) -> str:
    """The canonical form of a move: ``A:e2-e4>B``, ``A:e7-e8=Q>B``."""
    suffix = "=" + TYPE_LETTER[promotion] if promotion else ""
    return f"{board}:{chess.square_name(origin)}-{chess.square_name(to)}{suffix}>{onto}"


def castle_text(board: str, long: bool, onto: str) -> str:
    """The canonical form of castling: ``A:O-O>C``."""
    return f"{board}:{'O-O-O' if long else 'O-O'}>{onto}"


def written(move: Move) -> str:
    """The canonical form of a generated move."""
    board, origin, to, onto, promotion, special = move
    if special == CASTLE:
        return castle_text(BOARD_NAMES[board], to < origin, BOARD_NAMES[onto])
    return move_text(BOARD_NAMES[board], origin, to, promotion or None, BOARD_NAMES[onto])


def mentions_order(line: str) -> bool:
    """Whether a line has a square name, castling or a command word (else it is chatter)."""
    return reading.mentions_order(line)


def read_move(found: re.Match[str]) -> MoveOrder:
    to = found["to"]
    return MoveOrder(_upper(found["board"]), chess.parse_square(found["from"]), chess.parse_square(to),
                     reading.promotion_piece(found["promo"], to, PROMOTION_LETTERS), _upper(found["onto"]),
                     reading.piece_letter(found["piece"]))


def read_castle(found: re.Match[str]) -> CastleOrder:
    return CastleOrder(found["castle"] == "o-o-o", _upper(found["board"]), _upper(found["onto"]))


FORMS: list[reading.Form] = [
    (reading.castling(before=_BOARD, after=_ONTO), read_castle),
    (reading.coordinate_move(before=_BOARD, after=_ONTO, promotions="qrbnkp"), read_move),
]


def read_order(line: str) -> Order:
    """Read one order line; raises OrderError saying what is accepted."""
    order: Order = reading.read_line(line, FORMS, ACCEPTED_FORMS)
    return order


def _upper(letter: str | None) -> str | None:
    return letter.upper() if letter else None
