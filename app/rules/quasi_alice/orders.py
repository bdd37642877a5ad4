"""Reading one order line of 4D Quasi-Alice Chess (QA4-8, "Orders by email"), and writing orders canonically.

An order names the board a move is played on, the move, and the destination board the piece transfers
to: ``A:e2-e4>B``. The board and the destination may be left out where only one fits; the referee
settles that against the position (``referee.resolve``), since reading a line needs no position.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import chess

from app.rules.common import COMMON_COMMANDS, COMMON_WORDS, unreadable
from app.rules.quasi_alice.movegen import CASTLE, Move
from app.rules.quasi_alice.position import BOARD_NAMES

PROMOTION_LETTERS = {"q": chess.QUEEN, "r": chess.ROOK, "b": chess.BISHOP, "n": chess.KNIGHT,
                     "k": chess.KING, "p": chess.PAWN}  # =K and =P are read, to be refused with their reason
TYPE_LETTER = {kind: chess.piece_symbol(kind).upper() for kind in chess.PIECE_TYPES}
ACCEPTED_FORMS = (
    "A:e2-e4>B (board, move, destination board; also A e2-e4 > B or a:e2e4>b), "
    "e2-e4>B or A:e2-e4 (the board may be left out when only one board has a piece of yours on e2, "
    "the destination when the move is legal onto one board only), A:O-O>C, O-O-O, "
    "A:e7-e8=Q>B (promotion; without a letter, a queen), resign, offer draw, accept draw, decline draw"
)

_DASHES = str.maketrans({"\u2013": "-", "\u2014": "-", "\u2212": "-", "\u2010": "-", "\u2011": "-"})
_SPACES = re.compile(r"\s+")
_ZERO_LONG = re.compile(r"(?<![0-9a-z])0-0-0(?![0-9])")
_ZERO_SHORT = re.compile(r"(?<![0-9a-z])0-0(?![0-9-])")
_BOARD = r"(?:(?P<board>[a-d])\s*:?\s*)?"
_ONTO = r"(?:\s*>\s*(?P<onto>[a-d]))?"
_TAIL = r"\s*[!?+#.]*$"
_MOVE = re.compile(
    rf"^{_BOARD}(?P<from>[a-h][1-8])\s*(?:-|x|:)?\s*(?P<to>[a-h][1-8])"
    rf"(?:\s*=?\s*\(?(?P<promo>[qrbnkp])\)?)?{_ONTO}{_TAIL}"
)
_CASTLE = re.compile(rf"^{_BOARD}(?P<castle>o-o-o|o-o){_ONTO}{_TAIL}")
_SQUARE = re.compile(r"(?<![a-z0-9])[a-h][1-8](?![0-9])")
_CASTLE_WORD = re.compile(r"(?<![a-z0-9])o-o(?:-o)?(?![a-z0-9])")
COMMAND_WORDS = frozenset({"o-o", "o-o-o", *COMMON_WORDS})


@dataclass(frozen=True, slots=True)
class MoveOrder:
    """A move as written: ``board`` and ``onto`` are None when left out, ``promotion`` when no letter."""

    board: str | None
    origin: int
    to: int
    promotion: int | None = None
    onto: str | None = None

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


@dataclass(frozen=True, slots=True)
class Command:
    """A common command: ``resign``, ``offer-draw``, ``accept-draw``, ``decline-draw``."""

    name: str


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


def normalise(line: str) -> str:
    """Lower-case, dashes unified, ``0-0`` read as ``O-O``, spaces squeezed."""
    text = _SPACES.sub(" ", line.translate(_DASHES).strip().lower())
    if "0-0" in text:
        text = _ZERO_SHORT.sub("o-o", _ZERO_LONG.sub("o-o-o", text))
    return text


def mentions_order(line: str) -> bool:
    """Whether a line has a square name, castling or a command word (else it is chatter)."""
    text = normalise(line)
    if not text:
        return False
    first = text.split(" ", 1)[0].rstrip(":,.!")
    return (
        first in COMMAND_WORDS
        or bool(_SQUARE.search(text) or _CASTLE_WORD.search(text))
        or bool(_MOVE.match(text) or _CASTLE.match(text))
    )


def read_order(line: str) -> Order:
    """Read one order line; raises OrderError saying what is accepted."""
    text = normalise(line)
    command = COMMON_COMMANDS.get(text.rstrip(".!"))
    if command:
        return Command(command)
    castle = _CASTLE.match(text)
    if castle:
        return CastleOrder(castle["castle"] == "o-o-o", _upper(castle["board"]), _upper(castle["onto"]))
    move = _MOVE.match(text)
    if move:
        promo = move["promo"]
        return MoveOrder(
            _upper(move["board"]),
            chess.parse_square(move["from"]),
            chess.parse_square(move["to"]),
            PROMOTION_LETTERS[promo] if promo else None,
            _upper(move["onto"]),
        )
    raise unreadable(line, ACCEPTED_FORMS, coordinates_only=True)


def _upper(letter: str | None) -> str | None:
    return letter.upper() if letter else None
