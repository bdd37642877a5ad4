"""Reading one order line of Kriegspiel (KS-2, KS-6, "Orders by email" in RULES.md).

Reading depends on the text alone, never on the position: whatever the board holds, the
same line is read the same way (or is the same error), so an error tells the player
nothing about pieces they cannot see. Whether a move is legal is the referee's question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import chess

from app.rules.base import OrderError
from app.rules.common import COMMON_COMMANDS, COMMON_WORDS, unreadable

MOST_TRIES = 8  # KS-5: move lines in one reply
ACCEPTED_FORMS = (
    "e2-e4 (also e2e4 or e2 e4), e7-e8=Q (promotion to Q, R, B or N; without a letter a queen), "
    f"O-O, O-O-O (also 0-0, 0-0-0), up to {MOST_TRIES} moves one to a line as tries, "
    "resign, offer draw, accept draw, decline draw"
)
PROMOTION_LETTERS = {"q": chess.QUEEN, "r": chess.ROOK, "b": chess.BISHOP, "n": chess.KNIGHT}

_DASHES = str.maketrans({"\u2013": "-", "\u2014": "-", "\u2212": "-", "\u2010": "-", "\u2011": "-"})
_SPACES = re.compile(r"\s+")
_ZERO_LONG = re.compile(r"(?<![0-9a-z])0-0-0(?![0-9])")
_ZERO_SHORT = re.compile(r"(?<![0-9a-z])0-0(?![0-9-])")
_MOVE = re.compile(
    r"^(?P<from>[a-h][1-8])\s*(?:-|x|\s)?\s*(?P<to>[a-h][1-8])"
    r"(?:\s*=?\s*\(?(?P<promo>[a-z])\)?)?\s*[!?+#.]*$"
)
_CASTLE = re.compile(r"^(?P<castle>o-o-o|o-o)\s*[!?+#.]*$")
_SQUARE = re.compile(r"(?<![a-z0-9])[a-h][1-8](?![0-9])")
COMMAND_WORDS = frozenset({"o-o", "o-o-o", *COMMON_WORDS})


@dataclass(frozen=True, slots=True)
class Move:
    """A coordinate move; ``promotion`` is None when the order names no piece (a queen, if it promotes)."""

    from_square: chess.Square
    to_square: chess.Square
    promotion: chess.PieceType | None = None

    def text(self) -> str:
        """Canonical form: ``e2-e4``, ``e7-e8=N``."""
        suffix = "=" + chess.piece_symbol(self.promotion).upper() if self.promotion else ""
        return f"{chess.square_name(self.from_square)}-{chess.square_name(self.to_square)}{suffix}"


@dataclass(frozen=True, slots=True)
class Castle:
    """``O-O`` (long=False) or ``O-O-O``."""

    long: bool

    def text(self) -> str:
        return "O-O-O" if self.long else "O-O"


@dataclass(frozen=True, slots=True)
class Command:
    """A common command: ``resign``, ``offer-draw``, ``accept-draw``, ``decline-draw``."""

    name: str

    def text(self) -> str:
        return self.name.replace("-", " ")


Order = Move | Castle | Command


def normalise(line: str) -> str:
    """Lower case, dashes unified, ``0-0`` read as ``O-O``, spaces squeezed."""
    text = _SPACES.sub(" ", line.translate(_DASHES).strip().lower())
    if "0-0" in text:
        text = _ZERO_SHORT.sub("o-o", _ZERO_LONG.sub("o-o-o", text))
    return text


def mentions_order(line: str) -> bool:
    """Whether a line has a square name or starts with a command word (else it is chatter)."""
    text = normalise(line)
    if not text:
        return False
    first = text.split(" ", 1)[0].rstrip(":,.!")
    return first in COMMAND_WORDS or bool(_SQUARE.search(text))


def read_move(line: str, found: re.Match[str]) -> Move:
    """A coordinate move; its promotion letter must be Q, R, B or N, on a move to rank 1 or 8."""
    from_square, to_square = chess.parse_square(found["from"]), chess.parse_square(found["to"])
    letter = found["promo"]
    if letter is None:
        return Move(from_square, to_square)
    if letter not in PROMOTION_LETTERS:
        raise OrderError(f"{line.strip()!r}: a pawn is promoted to Q, R, B or N", ACCEPTED_FORMS)
    if chess.square_rank(to_square) not in (0, 7):
        raise OrderError(f"{line.strip()!r}: a promotion letter goes only with a move to rank 1 or 8")
    return Move(from_square, to_square, PROMOTION_LETTERS[letter])


def read_order(line: str) -> Order:
    """Read one order line; raises OrderError saying what is accepted."""
    text = normalise(line)
    command = COMMON_COMMANDS.get(text.rstrip(".!"))
    if command:
        return Command(command)
    castle = _CASTLE.match(text)
    if castle:
        return Castle(castle["castle"] == "o-o-o")
    move = _MOVE.match(text)
    if move:
        return read_move(line, move)
    raise unreadable(line, ACCEPTED_FORMS, coordinates_only=True)
