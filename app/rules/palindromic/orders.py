"""Reading one order line of Palindromic Chess (PAL-6 and "Orders by email" in RULES.md).

Reading is syntax only: what the line asks for. Whether it is legal is the referee's question,
so a SAN line is kept as written and resolved against the position there. Orders are
case-insensitive; the one clash that creates is a leading ``b``, which may be the b-file or a
bishop, and ``San.readings`` gives both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import chess

from app.rules.base import OrderError
from app.rules.common import COMMON_COMMANDS, COMMON_WORDS, unreadable

ACCEPTED_FORMS = (
    "e2-e4, e2e4 or e2 e4 (from and to squares), Nf3, e4 or Rh2 (algebraic notation), "
    "O-O, O-O-O (also 0-0), resign, offer draw, accept draw, decline draw"
)
PROMOTION_LETTERS = {"q": chess.QUEEN, "r": chess.ROOK, "b": chess.BISHOP, "n": chess.KNIGHT}

_DASHES = str.maketrans({"\u2013": "-", "\u2014": "-", "\u2212": "-", "\u2010": "-", "\u2011": "-"})
_SPACES = re.compile(r"\s+")
_MOVE_NUMBER = re.compile(r"^\d+\s*\.+\s*")  # "12. Nf3", "12...Nf6", as games are written down
_ZERO_LONG = re.compile(r"(?<![0-9a-z])0-0-0(?![0-9])")
_ZERO_SHORT = re.compile(r"(?<![0-9a-z])0-0(?![0-9-])")
_TAIL = r"\s*(?:e\.?\s?p\.?)?\s*[!?+#.]*$"
_CASTLE = re.compile(r"^(?P<castle>o-o-o|o-o)" + _TAIL)
_COORDINATE = re.compile(
    r"^(?P<from>[a-h][1-8])\s*(?:-|x|:|\s)?\s*(?P<to>[a-h][1-8])(?:\s*=?\s*\(?(?P<promo>[qrbn])\)?)?" + _TAIL
)
_SAN = re.compile(
    r"^(?P<piece>[nbrqk])?(?P<file>[a-h])?(?P<rank>[1-8])?[x:-]?(?P<to>[a-h][1-8])"
    r"(?:=?\(?(?P<promo>[qrbn])\)?)?" + _TAIL
)
# A square name standing alone, or the square at the end of a SAN word such as nf3 or bxe5.
_SQUARE_WORD = re.compile(r"(?<![a-z0-9])(?:[nbrqk]?[a-h]?[1-8]?[x:-]?)?[a-h][1-8](?![0-9a-z])")
COMMAND_WORDS = frozenset({"o-o", "o-o-o", *COMMON_WORDS})


@dataclass(frozen=True, slots=True)
class Coordinate:
    """``e2-e4``: from and to squares, with the promotion letter if one was written."""

    from_square: chess.Square
    to_square: chess.Square
    promotion: chess.PieceType | None = None


@dataclass(frozen=True, slots=True)
class Castle:
    """``O-O`` (long=False) or ``O-O-O``."""

    long: bool


@dataclass(frozen=True, slots=True)
class San:
    """A move in algebraic notation, as python-chess's ``parse_san`` would read it."""

    readings: tuple[str, ...]  # the ways to read it, the usual one first (more than one only for a leading b)
    written: str


@dataclass(frozen=True, slots=True)
class Command:
    """A common command: ``resign``, ``offer-draw``, ``accept-draw``, ``decline-draw``."""

    name: str


Order = Coordinate | Castle | San | Command


def order_text(order: Order) -> str | None:
    """A move order as the referee writes it back (``e7-e8=Q``, ``O-O``, ``Nf3``); None for a command."""
    if isinstance(order, Coordinate):
        suffix = "=" + chess.piece_symbol(order.promotion).upper() if order.promotion else ""
        return f"{chess.square_name(order.from_square)}-{chess.square_name(order.to_square)}{suffix}"
    if isinstance(order, Castle):
        return "O-O-O" if order.long else "O-O"
    if isinstance(order, San):  # as written, a piece's letter in capitals (not b: a pawn's file, or a bishop)
        return order.written[0].upper() + order.written[1:] if order.written[:1] in "nrqk" else order.written
    return None


def normalise(line: str) -> str:
    """Lower-case, dashes unified, ``0-0`` read as ``o-o``, spaces squeezed."""
    text = _SPACES.sub(" ", line.translate(_DASHES).strip().lower())
    if "0-0" in text:
        text = _ZERO_SHORT.sub("o-o", _ZERO_LONG.sub("o-o-o", text))
    return text


def mentions_order(line: str) -> bool:
    """Whether a line looks meant as an order: a square name (alone or ending a SAN word such as Nf3)
    or a first word that is a command word. Words without a digit are never read as moves."""
    text = normalise(line)
    if not text:
        return False
    first = text.split(" ", 1)[0].rstrip(":,.!")
    return first in COMMAND_WORDS or bool(_SQUARE_WORD.search(text))


def _san_readings(match: re.Match[str]) -> tuple[str, ...]:
    """The SAN strings python-chess should try, in order: piece letters upper case, files lower case."""
    promo = "=" + match["promo"].upper() if match["promo"] else ""
    body = f"{match['file'] or ''}{match['rank'] or ''}{match['to']}{promo}"  # parse_san needs no "x"
    piece = match["piece"]
    if piece is None:
        return (body,)
    if piece == "b" and not match["file"]:
        # "bxc4" is a b-pawn capturing in SAN as written, "Bxc4" a bishop: lower case tries the pawn first.
        return (f"b{match['rank'] or ''}{match['to']}{promo}", "B" + body)
    return (piece.upper() + body,)


def _promotion_suffix_checked(to: str, promotion: str | None) -> None:
    """RULES.md, "Orders by email": a promotion suffix on a move that does not reach the last rank is an error."""
    if promotion and to[1] not in "18":
        raise OrderError(f"a promotion suffix belongs only on a move to the last rank, not to {to}")


def read_order(line: str) -> Order:
    """Read one order line; raises OrderError saying what is accepted."""
    written = _MOVE_NUMBER.sub("", line.strip(), count=1)
    text = normalise(written)
    command = COMMON_COMMANDS.get(text.rstrip(".!"))
    if command:
        return Command(command)
    castle = _CASTLE.match(text)
    if castle:
        return Castle(castle["castle"] == "o-o-o")
    coordinate = _COORDINATE.match(text)
    if coordinate:
        promo = coordinate["promo"]
        _promotion_suffix_checked(coordinate["to"], promo)
        return Coordinate(
            chess.parse_square(coordinate["from"]),
            chess.parse_square(coordinate["to"]),
            PROMOTION_LETTERS[promo] if promo else None,
        )
    san = _SAN.match(text)
    if san:
        _promotion_suffix_checked(san["to"], san["promo"])
        readings = _san_readings(san)
        if written.startswith("B"):
            readings = readings[-1:]  # an upper-case B is the bishop
        return San(readings, written)
    raise unreadable(line, ACCEPTED_FORMS)
