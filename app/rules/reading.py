"""Reading order lines as players write them (the rules, "Orders by email"), the parts every variant shares.

Each variant's ``orders.py`` reads its own notation (Looking-Glass's worlds, 4D Quasi-Alice's boards and
``>B``, Palindromic's SAN) with the pieces here: the spelling every reader forgives (case, dashes, ``0-0``,
spaces), the common commands (``resign``, ``I resign.``, the draw offer) and ``setup``, the coordinate move
(``e2-e4``, ``e2e4``, ``e2 e4``, ``e5xd6 e.p.``, ``e7-e8=Q``, and with the moving piece's letter in front:
``Qd8-d5``, ``Ke1-e2``), castling, and the error for a line that fits no form, which names the line and
the first thing wrong in it. Reading depends on the text alone, never on the position, so an error tells
nothing about pieces a player cannot see; a piece letter is checked against the player's own piece later
(``wrong_piece``), by the play template.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import chess

from app.rules.values import OrderError

COMMON_COMMANDS = {
    "resign": "resign",
    "i resign": "resign",
    "offer draw": "offer-draw",
    "draw offer": "offer-draw",
    "draw?": "offer-draw",
    "accept draw": "accept-draw",
    "decline draw": "decline-draw",
    "refuse draw": "decline-draw",
}
COMMON_NAMES = frozenset(COMMON_COMMANDS.values())
COMMON_WORDS = frozenset({"resign", "offer", "accept", "decline", "refuse", "draw", "draw?", "o-o", "o-o-o"})
PROMOTION_LETTERS = {"q": chess.QUEEN, "r": chess.ROOK, "b": chess.BISHOP, "n": chess.KNIGHT}
PIECE_NAMES = {"K": "king", "Q": "queen", "R": "rook", "B": "bishop", "N": "knight", "P": "pawn"}

_DASHES = str.maketrans({"\u2013": "-", "\u2014": "-", "\u2212": "-", "\u2010": "-", "\u2011": "-"})
_SPACES = re.compile(r"\s+")
_ZERO_LONG = re.compile(r"(?<![0-9a-z])0-0-0(?![0-9])")
_ZERO_SHORT = re.compile(r"(?<![0-9a-z])0-0(?![0-9-])")
# A square name, alone or ending a word such as Nf3, exd5, Qd8-d5 or A:e2: a line with one is meant as an order.
_ORDER_WORD = re.compile(r"(?<![a-z0-9])(?:[kqrbnp]?[a-h]?[1-8]?[x:-]?)?[a-h][1-8](?![0-9])")
# Castling first on the line, or after a world or board: "O-O", "R O-O", "A:O-O>C" (not "it was 0-0 at half time").
_CASTLE_WORD = re.compile(r"^(?:(?:[a-z]|real|mirror)\s*:?\s*)?o-o(?:-o)?(?![a-z0-9])")
# A letter and a number, alone or after a piece letter or "x" (Nf3, exd5): meant as a square.
_SQUARE_LIKE = re.compile(r"(?:(?<![a-z])|(?<=[kqrbnx]))([a-z])([0-9]+)(?![0-9])")

RANK = "[1-8]"  # a rank's number, in a pattern: the board's size is known here, in the rules, alone
_SQUARE_NAME = re.compile(rf"(?<![a-z0-9])[a-h]{RANK}(?![0-9])")

PIECE = r"(?:(?P<piece>[kqrbnp])\s*)?"  # the moving piece's letter, in front of a coordinate move
SQUARES = r"(?P<from>[a-h][1-8])\s*(?:-|x|:|\s)?\s*(?P<to>[a-h][1-8])"
EN_PASSANT = r"(?:\s*e\.?\s?p\.?)?"
TAIL = r"\s*[!?+#.]*$"


def promotion(letters: str) -> str:
    """The promotion suffix a reader accepts: ``=Q``, ``Q``, ``(Q)``, with one of ``letters``."""
    return rf"(?:\s*=?\s*\(?(?P<promo>[{letters}])\)?)?"


def coordinate_move(before: str = "", after: str = "", promotions: str = "qrbn") -> re.Pattern[str]:
    """A coordinate move with the variant's own notation ``before`` it (a world, a board) and ``after`` it
    (a destination board), the piece letter, ``x``, a promotion and ``e.p.`` all read."""
    return re.compile(rf"^{before}{PIECE}{SQUARES}{promotion(promotions)}{EN_PASSANT}{after}{TAIL}")


def castling(before: str = "", after: str = "") -> re.Pattern[str]:
    """``O-O`` or ``O-O-O`` (``0-0`` is read as ``o-o`` by ``normalise``), with the variant's notation around."""
    return re.compile(rf"^{before}(?P<castle>o-o-o|o-o){after}{TAIL}")


@dataclass(frozen=True, slots=True)
class CoordinateMove:
    """A coordinate move as written: from and to squares, the promotion piece (None when no letter was
    written) and the letter of the piece written in front of it (None when none was)."""

    from_square: int
    to_square: int
    promotion: int | None = None
    piece: str | None = None

    def text(self) -> str:
        """The canonical form: ``e2-e4``, ``e7-e8=N``."""
        suffix = "=" + chess.piece_symbol(self.promotion).upper() if self.promotion else ""
        return f"{chess.square_name(self.from_square)}-{chess.square_name(self.to_square)}{suffix}"


@dataclass(frozen=True, slots=True)
class Castle:
    """``O-O`` (long=False) or ``O-O-O``, in a variant whose castling needs no more said."""

    long: bool

    def text(self) -> str:
        return "O-O-O" if self.long else "O-O"


Form = tuple[re.Pattern[str], Callable[[re.Match[str]], Any]]
"""One order form of a variant: its pattern (on the normalised line) and what a match is read as."""


@dataclass(frozen=True, slots=True)
class Command:
    """A word command: a common one (``resign``, ``offer-draw``, ``accept-draw``, ``decline-draw``) or the
    variant's own (``ask``, ``claim-draw``)."""

    name: str

    def text(self) -> str:
        return self.name.replace("-", " ")


@dataclass(frozen=True, slots=True)
class Setup:
    """``setup <letters|index|random>`` (LG-2), for a variant with a setup phase."""

    value: str

    def text(self) -> str:
        return f"setup {self.value}"


def normalise(line: str) -> str:
    """Lower-case, dashes unified, ``0-0`` read as ``o-o``, spaces squeezed."""
    text = _SPACES.sub(" ", line.translate(_DASHES).strip().lower())
    if "0-0" in text:
        text = _ZERO_SHORT.sub("o-o", _ZERO_LONG.sub("o-o-o", text))
    return text


def read_common(text: str, commands: dict[str, str] | None = None, setup: bool = False) -> Command | Setup | None:
    """A normalised line as a command (the common ones and ``commands``), or ``setup`` when the variant has a
    setup phase; None for anything else."""
    line = text.rstrip(".!")
    name = COMMON_COMMANDS.get(line) or (commands or {}).get(line)
    if name:
        return Command(name)
    if setup and text.startswith("setup"):
        value = text[5:].strip()
        if not value:
            raise OrderError("setup needs a value: 8 letters like RNBQKBNR, a number 0..959, or random")
        return Setup(value.upper() if value.isalpha() and value != "random" else value)
    return None


def read_line(line: str, forms: Sequence[Form], accepted: str, commands: dict[str, str] | None = None,
              setup: bool = False, coordinates_only: bool = True) -> Any:
    """One order line read: a command (``read_common``), else the first of the variant's ``forms`` that fits,
    else the error for a line no form fits (``unreadable``)."""
    text = normalise(line)
    common = read_common(text, commands, setup)
    if common:
        return common
    for pattern, build in forms:
        found = pattern.match(text)
        if found:
            return build(found)
    raise unreadable(line, accepted, coordinates_only)


def coordinates(found: re.Match[str], promotions: dict[str, int] = PROMOTION_LETTERS) -> CoordinateMove:
    """The coordinate move a ``coordinate_move`` pattern matched, its promotion suffix checked."""
    return CoordinateMove(chess.parse_square(found["from"]), chess.parse_square(found["to"]),
                          promotion_piece(found["promo"], found["to"], promotions), piece_letter(found["piece"]))


def mentions_order(line: str, command_words: frozenset[str] = COMMON_WORDS) -> bool:
    """Whether a line is meant as an order: it has a square name (alone or ending a word such as Nf3 or
    Qd8-d5), castling, a first word that is a command word, or is a whole command (``I resign.``).
    Anything else is chatter."""
    text = normalise(line)
    if not text:
        return False
    first = text.split(" ", 1)[0].rstrip(":,.!")
    return (first in command_words or text.rstrip(".!") in COMMON_COMMANDS
            or bool(_ORDER_WORD.search(text) or _CASTLE_WORD.search(text)))


def names_square(line: str) -> bool:
    """Whether a line names a square, as a word of its own (``e4``, ``e2-e4``): an order, wherever it is sent."""
    return bool(_SQUARE_NAME.search(line.lower()))


def promotion_piece(letter: str | None, to: str, promotions: dict[str, int] = PROMOTION_LETTERS) -> int | None:
    """The piece a promotion letter names, checked against the to-square (the rules, "Orders by email": a
    suffix on a move that does not reach the last rank is an error)."""
    if letter is None:
        return None
    if to[1] not in "18":
        raise OrderError(f"a promotion suffix belongs only on a move to the last rank, not to {to}")
    return promotions[letter]


def piece_letter(letter: str | None) -> str | None:
    """The piece letter written in front of a move, upper case (None when none was)."""
    return letter.upper() if letter else None


def wrong_piece(named: str | None, own: str | None, square: int) -> str | None:
    """Why a move naming the piece ``named`` on ``square`` is refused: the player's own piece there is
    ``own`` (None: they have none there). None when it fits, or when no piece was named."""
    if named is None or named == own:
        return None
    name, where = PIECE_NAMES[named], chess.square_name(square)
    if own is None:
        return f"the order names your {name} on {where}, but you have no piece there"
    return f"the order names your {name} on {where}, but your piece there is a {PIECE_NAMES[own]}"


def unreadable(line: str, accepted: str, coordinates_only: bool = False) -> OrderError:
    """The error for a line no order form fits, naming the line and the first thing wrong in it that a
    player can fix.

    ``coordinates_only``: the variant reads moves only as two squares (no SAN), so a line naming a single
    square is a move with one square missing.
    """
    text = " ".join(line.lower().split())
    reason = f"could not read {line.strip()!r} as an order"
    squares = []
    for file, rank in _SQUARE_LIKE.findall(text):
        if file > "h" or rank not in "12345678" or len(rank) != 1:
            return OrderError(f"{reason}: {file}{rank} is not a square (files run a to h, ranks 1 to 8)", accepted)
        squares.append(file + rank)
    if coordinates_only and len(squares) == 1:
        return OrderError(f"{reason}: a move names two squares, the one it leaves and the one it goes to, "
                          f"and this names only {squares[0]}", accepted)
    return OrderError(reason, accepted)


_CASTLING = castling()
_ANY_LETTER_MOVE = coordinate_move(promotions="a-z")


def plain_forms(line: str, accepted: str) -> list[Form]:
    """The forms of a variant that reads moves as plain chess does: castling and coordinate moves, a promotion
    letter checked (``checked_coordinates``)."""
    return [
        (_CASTLING, lambda found: Castle(found["castle"] == "o-o-o")),
        (_ANY_LETTER_MOVE, lambda found: checked_coordinates(line, found, accepted)),
    ]


def checked_coordinates(line: str, found: re.Match[str], accepted: str) -> CoordinateMove:
    """A coordinate move read with any letter after it (``coordinate_move(promotions="a-z")``), so that a
    letter no pawn becomes is answered as such: Q, R, B or N, and only on a move to rank 1 or 8."""
    letter = found["promo"]
    if letter is not None and letter not in PROMOTION_LETTERS:
        raise OrderError(f"{line.strip()!r}: a pawn is promoted to Q, R, B or N", accepted)
    if letter is not None and found["to"][1] not in "18":
        raise OrderError(f"{line.strip()!r}: a promotion letter goes only with a move to rank 1 or 8")
    return coordinates(found)
