"""Reading the commands of a message's new text (RULES.md, "Orders by email")."""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field

from app.games.commands import MOVE, REFEREE, Command
from app.rules.base import OrderError, Variant

NO_ARGUMENT = ("accept", "decline", "board", "history", "help", "games")  # anything after these is a mistake


@dataclass
class Reading:
    commands: list[Command] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # what could not be read, and why, one sentence each
    unreadable: list[str] = field(default_factory=list)  # the order lines among them, as written


def read_commands(text: str, variant: Variant | None, words: Collection[str]) -> Reading:
    """Every command line, in order; chatter is skipped, unreadable order lines are errors.

    ``words`` are the command names understood here; ``variant`` reads every other line (None outside
    a game, where a line with a square name is an order sent to the wrong place).
    """
    reading = Reading()
    for raw in text.splitlines():
        line = raw.strip().strip("*_").strip()
        if not line:
            continue
        first = re.split(r"[\s:,.!]+", line.lower(), maxsplit=1)[0]
        rest = line[len(line.split(None, 1)[0]):].strip() if line.split() else ""
        if first in words and not re.fullmatch(r"(accept|decline)\s+draw\W*", line.lower()):
            if first in ("accept", "decline") and rest.strip(" .!").strip():
                reading.errors.append(f"'{line}': write just '{first}' (or '{first} draw')")
                continue
            reading.commands.append(Command(first, line, "" if first in NO_ARGUMENT else rest))
            continue
        if variant is None:
            if re.search(r"(?<![a-z0-9])[a-h][1-8](?![0-9])", line.lower()):
                reading.errors.append(f"'{line}': orders for a game go in a reply to that game's move request")
            continue
        if not variant.is_order(line):
            continue  # plain chatter
        try:
            kind = variant.order_kind(line)
        except OrderError as error:
            reading.errors.append(error.reason)
            reading.unreadable.append(line)
            continue
        reading.commands.append(Command(MOVE if kind == "move" else REFEREE, line))
    return reading
