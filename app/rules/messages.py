"""The messages every variant sends in common, typed: how they are made, and how the rest of the server reads them.

A message is one thing a player is told, a JSON object with a ``kind`` (the public interface). The kinds here are
common to every variant: the end, a refusal, an error, a draw offer and its answer, the setup news, a message
passed on, a loss on time or a forfeit, the referee's pass, and three that every variant of chess tells with
details of its own beside them: ``moved`` (a move told in full), ``opponent-moved`` (a move told only as
made) and ``check``. Each names in ``color`` the side it is about; the rest of such a message (squares,
captures, a check's directions or board) is the variant's, read by its presenter alone.

The game service, the mailer and the web pages read messages only through the readers at the bottom
(``moved_by``, ``is_end``, ``retold`` ...), never a key of a variant's own nor a board's size, so a variant
with other details, or another board, changes nothing there. The JSON is exactly as before: these are plain
dicts, typed.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal, TypedDict

from app.rules.sides import Side

Message = dict[str, Any]
"""One thing a player is told, e.g. ``{"kind": "draw-offered", "color": "white"}``."""

MOVED = "moved"
OPPONENT_MOVED = "opponent-moved"
CHECK = "check"
END = "end"
REJECTED = "rejected"
ERROR = "error"
PASSED = "passed"
DRAW_OFFERED = "draw-offered"
DRAW_DECLINED = "draw-declined"
SETUP = "setup"
SETUP_DONE = "setup-done"
START = "start"
SAID = "said"
TIMEOUT = "timeout"
FORFEIT = "forfeit"

COMMON_KINDS = frozenset({MOVED, OPPONENT_MOVED, CHECK, END, REJECTED, ERROR, PASSED, DRAW_OFFERED, DRAW_DECLINED,
                          SETUP, SETUP_DONE, START, SAID, TIMEOUT, FORFEIT})
COMMON_KEYS = frozenset({"kind", "color", "result", "reason", "text", "row", "index", "to_move"})
"""The keys of the common kinds; any other key of a message is a variant's detail."""

SAID_ONCE = frozenset({ERROR, REJECTED, SETUP, SETUP_DONE, START})
"""Kinds told at the moment only: not told again among what happened since a player's last move."""


class End(TypedDict):
    kind: Literal["end"]
    result: str  # "1-0", "0-1" or "1/2-1/2"
    reason: str


class Refusal(TypedDict):
    kind: Literal["rejected", "error"]
    reason: str


class News(TypedDict):
    """A kind that needs no more than the side it is about: a draw offer or decline, a setup sent, a loss on
    time, a forfeit, the referee's pass."""

    kind: str
    color: Side


class Said(TypedDict):
    kind: Literal["said"]
    color: Side
    text: str


class SetupIn(TypedDict):
    kind: Literal["setup"]
    row: str
    index: int


class Start(TypedDict):
    kind: Literal["start"]
    to_move: Side | None


# --------------------------------------------------------------------------- making them


def end(result: str, reason: str) -> End:
    return {"kind": END, "result": result, "reason": reason}


def rejected(reason: str) -> Refusal:
    """An order read but not played: to the orderer alone."""
    return {"kind": REJECTED, "reason": reason}


def error(reason: str) -> Refusal:
    """A line that could not be read: to the sender alone."""
    return {"kind": ERROR, "reason": reason}


def news(kind: str, side: Side) -> News:
    """One of the kinds that say only which side they are about (``News``)."""
    return {"kind": kind, "color": side}


def said(side: Side, text: str) -> Said:
    """A message passed on word for word from ``side``."""
    return {"kind": SAID, "color": side, "text": text}


def setup_in(row: str, index: int) -> SetupIn:
    """A player's own back rank, in: told to them alone."""
    return {"kind": SETUP, "row": row, "index": index}


def start(to_move: Side | None) -> Start:
    return {"kind": START, "to_move": to_move}


def moved(details: dict[str, Any]) -> Message:
    """A move told in full, to its mover (and to both where the rules show it): the variant's details with
    ``color``, the army that moved, among them, in the variant's own order (the JSON keeps it)."""
    if details.get("color") not in ("white", "black"):
        raise ValueError(f"a moved message names the army that moved in 'color', not in {sorted(details)}")
    return {"kind": MOVED, **details}


def opponent_moved(side: Side, **details: Any) -> Message:
    """A move told only as made, to the player who did not make it; ``side`` made it."""
    return {"kind": OPPONENT_MOVED, "color": side, **details}


def check(side: Side, **details: Any) -> Message:
    """``side``'s king is in check; ``details`` are the variant's (a board, directions)."""
    return {"kind": CHECK, "color": side, **details}


# --------------------------------------------------------------------------- reading them


def kind_of(message: Message) -> str:
    return str(message["kind"])


def moved_by(message: Message) -> Side | None:
    """The army a move told in full was made by; None for any other message."""
    return message.get("color") if message["kind"] == MOVED else None


def is_end(message: Message) -> bool:
    return bool(message["kind"] == END)


def ending(messages: Iterable[Message]) -> End | None:
    """The end among these messages, if they tell it."""
    return next((message for message in messages if message["kind"] == END), None)


def is_refusal(message: Message) -> bool:
    """An order refused or a line not read: told to its sender alone."""
    return message["kind"] in (REJECTED, ERROR)


def refusal(messages: Iterable[Message]) -> str | None:
    """Why an order was refused or a line not read, as these messages say; None when they say neither."""
    return next((str(message["reason"]) for message in messages if is_refusal(message)), None)


def checked(message: Message) -> Side | None:
    """The side a check message says is in check; None for any other message."""
    return message.get("color") if message["kind"] == CHECK else None


def mates(messages: Iterable[Message]) -> bool:
    """Whether these messages end the game by checkmate."""
    found = ending(messages)
    return found is not None and found["reason"] == "checkmate"


def retold(message: Message) -> bool:
    """Whether a message is told again among what happened since a player's last move (``SAID_ONCE``: not)."""
    return message["kind"] not in SAID_ONCE
