"""Reading one order line of Palindromic Chess (PAL-6 and "Orders by email" in the rules).

Reading is syntax only: what the line asks for. Whether it is legal is the referee's question,
so a SAN line is kept as written and resolved against the position there. Orders are
case-insensitive; the one clash that creates is a leading ``b``, which may be the b-file or a
bishop, and ``San.readings`` gives both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import chess

from app.rules import reading
from app.rules.reading import EN_PASSANT, TAIL, Command, CoordinateMove

__all__ = ["Castle", "Command", "Coordinate", "Order", "San", "mentions_order", "order_text", "read_order"]

ACCEPTED_FORMS = (
    "e2-e4, e2e4 or e2 e4 (from and to squares), Nf3, e4 or Rh2 (algebraic notation), "
    "O-O, O-O-O (also 0-0), resign, offer draw, accept draw, decline draw"
)

_MOVE_NUMBER = re.compile(r"^\d+\s*\.+\s*")  # "12. Nf3", "12...Nf6", as games are written down
_SAN = re.compile(
    r"^(?P<piece>[nbrqk])?(?P<file>[a-h])?(?P<rank>[1-8])?[x:-]?(?P<to>[a-h][1-8])"
    r"(?:=?\(?(?P<promo>[qrbn])\)?)?" + EN_PASSANT + TAIL
)

_CASTLE = reading.castling(after=EN_PASSANT)
_COORDINATE = reading.coordinate_move()
Coordinate = CoordinateMove  # ``e2-e4``: from and to squares, with the promotion letter if one was written


@dataclass(frozen=True, slots=True)
class Castle:
    """``O-O`` (long=False) or ``O-O-O``."""

    long: bool

    def text(self) -> str:
        return order_text(self) or ""


@dataclass(frozen=True, slots=True)
class San:
    """A move in algebraic notation, as python-chess's ``parse_san`` would read it."""

    readings: tuple[str, ...]  # the ways to read it, the usual one first (more than one only for a leading b)
    written: str

    def text(self) -> str:
        return order_text(self) or ""


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


def mentions_order(line: str) -> bool:
    """Whether a line looks meant as an order: a square name (alone or ending a SAN word such as Nf3)
    or a first word that is a command word. Words without a digit are never read as moves."""
    return reading.mentions_order(line)


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


def read_order(line: str) -> Order:
    """Read one order line; raises OrderError saying what is accepted."""
    written = _MOVE_NUMBER.sub("", line.strip(), count=1)

    def san(found: re.Match[str]) -> San:
        reading.promotion_piece(found["promo"], found["to"])
        readings = _san_readings(found)
        if written.startswith("B"):
            readings = readings[-1:]  # an upper-case B is the bishop
        return San(readings, written)

    forms: list[reading.Form] = [
        (_CASTLE, lambda found: Castle(found["castle"] == "o-o-o")),
        (_COORDINATE, reading.coordinates),
        (_SAN, san),
    ]
    order: Order = reading.read_line(written, forms, ACCEPTED_FORMS, coordinates_only=False)
    return order
