"""Reading one order line of Through the Looking-Glass ("Orders by email" in RULES.md)."""

from __future__ import annotations

import re
from dataclasses import dataclass

import chess

from app.rules.base import OrderError
from app.rules.common import COMMON_COMMANDS, COMMON_WORDS, unreadable

WORLD_WORDS = {"r": "R", "real": "R", "m": "M", "mirror": "M"}
PROMOTION_LETTERS = {"q": chess.QUEEN, "r": chess.ROOK, "b": chess.BISHOP, "n": chess.KNIGHT, "k": chess.KING}

ACCEPTED_FORMS = (
    "R e2-e4 (a move in the Real world), M:d7-d5 or mirror d7 d5 (in the Mirror world), "
    "e2-e4 (the world where your piece stands), d7-d8=N (promotion), O-O, O-O-O, "
    "ask, resign, offer draw, accept draw, decline draw"
)

_DASHES = str.maketrans({"\u2013": "-", "\u2014": "-", "\u2212": "-", "\u2010": "-", "\u2011": "-"})
_MOVE = re.compile(
    r"^(?:(?P<world>real|mirror|r|m)\s*:?\s*)?"
    r"(?P<from>[a-h][1-8])\s*(?:-|x|:|\s)?\s*(?P<to>[a-h][1-8])"
    r"(?:\s*=?\s*\(?(?P<promo>[qrbnk])\)?)?\s*[!?+#.]*$"
)
_CASTLE = re.compile(r"^(?:(?P<world>real|mirror|r|m)\s*:?\s*)?(?P<castle>o-o-o|o-o)\s*[!?+#.]*$")
_SQUARE = re.compile(r"(?<![a-z0-9])[a-h][1-8](?![0-9])")
_SPACES = re.compile(r"\s+")
_ZERO_LONG = re.compile(r"(?<![0-9a-z])0-0-0(?![0-9])")
_ZERO_SHORT = re.compile(r"(?<![0-9a-z])0-0(?![0-9-])")
COMMAND_WORDS = frozenset({"ask", "setup", "o-o", "o-o-o", *COMMON_WORDS})


@dataclass(frozen=True, slots=True)
class Move:
    """A move order: ``world`` is None when the player left it out."""

    world: str | None
    from_square: int
    to_square: int
    promotion: int | None = None

    def text(self, world: str | None = None) -> str:
        """The order written the way messages write it, e.g. ``M:e4-e6`` or ``R:d7-d8=N``."""
        suffix = "=" + chess.piece_symbol(self.promotion).upper() if self.promotion else ""
        where = world or self.world
        prefix = f"{where}:" if where else ""
        return f"{prefix}{chess.square_name(self.from_square)}-{chess.square_name(self.to_square)}{suffix}"


@dataclass(frozen=True, slots=True)
class Castle:
    """``O-O`` (long=False) or ``O-O-O``; ``world`` as written, if any."""

    long: bool
    world: str | None = None

    def text(self, world: str | None = None) -> str:
        return "O-O-O" if self.long else "O-O"


@dataclass(frozen=True, slots=True)
class Command:
    """A word command: ``ask``, ``resign``, ``offer-draw``, ``accept-draw``, ``decline-draw``."""

    name: str

    def text(self, world: str | None = None) -> str:
        return self.name.replace("-", " ")


@dataclass(frozen=True, slots=True)
class Setup:
    """``setup <letters|index|random>``."""

    value: str

    def text(self, world: str | None = None) -> str:
        return f"setup {self.value}"


Order = Move | Castle | Command | Setup

_COMMANDS = {"ask": "ask", **COMMON_COMMANDS}


def normalise(line: str) -> str:
    """Lower-case, dashes unified, ``0-0`` read as ``O-O``, spaces squeezed."""
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


def read_order(line: str) -> Order:
    """Read one order line; raises OrderError saying what was expected."""
    text = normalise(line)
    if text in _COMMANDS:
        return Command(_COMMANDS[text])
    if text.startswith("setup"):
        value = text[5:].strip()
        if not value:
            raise OrderError("setup needs a value: 8 letters like RNBQKBNR, a number 0..959, or random")
        return Setup(value.upper() if value.isalpha() and value != "random" else value)
    castle = _CASTLE.match(text)
    if castle:
        return Castle(castle["castle"] == "o-o-o", WORLD_WORDS.get(castle["world"] or ""))
    move = _MOVE.match(text)
    if move:
        promo = move["promo"]
        return Move(
            WORLD_WORDS.get(move["world"] or ""),
            chess.parse_square(move["from"]),
            chess.parse_square(move["to"]),
            PROMOTION_LETTERS[promo] if promo else None,
        )
    raise unreadable(line, ACCEPTED_FORMS, coordinates_only=True)
