"""Reading the commands of a message's new text (RULES.md, "Orders by email").

What a sender wrote comes back to them, or goes on to others, only in bounded form: an
order is kept as read (spaces run together, trailing annotation marks left out), a line
too long to be an order is an error quoting a short excerpt, at most ``LINE_LIMIT``
characters of a ``say`` line are read, and at most a few errors are listed.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field

from app.games.commands import MOVE, REFEREE, Command
from app.rules.base import OrderError, Variant

NO_ARGUMENT = ("accept", "decline", "board", "history", "help", "games")  # anything after these is a mistake
ORDER_LINE_LIMIT = 100  # characters: the longest order of any variant fits in 30
LINE_LIMIT = 2000  # characters of a command line read (what ``say`` passes on)
EXCERPT = 60  # characters of a line quoted back in an error
ERRORS_LISTED = 5
COMMANDS_READ = 20  # command lines in one message; a longer list is an error
ANNOTATION = "!?+#."  # chess annotation marks after an order, which the referee ignores


@dataclass
class Reading:
    commands: list[Command] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # what could not be read, and why, one sentence each
    unreadable: list[str] = field(default_factory=list)  # the order lines among them, as read


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """The start of what someone wrote, on one line, at most ``limit`` characters (with ... when cut)."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 3].rstrip() + "..."


def as_read(line: str) -> str:
    """An order line as the referee reads it: spaces run together, annotation marks after it left out."""
    return " ".join(line.split()).rstrip(ANNOTATION + " ") or line.strip()


def read_commands(text: str, variant: Variant | None, words: Collection[str]) -> Reading:
    """Every command line, in order; chatter is skipped, unreadable order lines are errors.

    ``words`` are the command names understood here; ``variant`` reads every other line (None outside
    a game, where a line with a square name is an order sent to the wrong place).
    """
    reading = Reading()
    for raw in text.splitlines():
        line = raw.strip().strip("*_").strip()[:LINE_LIMIT]
        if not line:
            continue
        first = re.split(r"[\s:,.!]+", line[:40].lower(), maxsplit=1)[0]
        rest = line[len(line.split(None, 1)[0]):].strip() if line.split() else ""
        if first in words and not re.fullmatch(r"(accept|decline)\s+draw\W*", line[:40].lower()):
            if first in ("accept", "decline") and rest.strip(" .!").strip():
                reading.errors.append(f"'{excerpt(line)}': write just '{first}' (or '{first} draw')")
                continue
            reading.commands.append(Command(first, line, "" if first in NO_ARGUMENT else rest))
            continue
        if variant is None:
            if re.search(r"(?<![a-z0-9])[a-h][1-8](?![0-9])", line.lower()):
                reading.errors.append(f"'{excerpt(line)}': orders for a game go in a reply to that game's move request")
            continue
        if not variant.is_order(line):
            continue  # plain chatter
        order = as_read(line)
        if len(order) > ORDER_LINE_LIMIT:
            reading.errors.append(f"'{excerpt(line)}' is {len(order)} characters long: an order is one short line")
            continue
        try:
            kind = variant.order_kind(order)
        except OrderError as error:
            reading.errors.append(error.reason)
            reading.unreadable.append(order)
            continue
        reading.commands.append(Command(MOVE if kind == "move" else REFEREE, order))
    if len(reading.commands) > COMMANDS_READ:
        reading.errors.append(f"{len(reading.commands)} commands in one message: send at most {COMMANDS_READ}")
        reading.commands = []
    if len(reading.errors) > ERRORS_LISTED:
        more = len(reading.errors) - ERRORS_LISTED
        reading.errors = [*reading.errors[:ERRORS_LISTED], f"... and {more} more line{'s' if more > 1 else ''}"]
    return reading
