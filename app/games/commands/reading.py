"""Reading the commands of a message's new text (the rules, "Orders by email").

What a sender wrote comes back to them, or goes on to others, only in bounded form: an
order is kept as read (spaces run together, trailing annotation marks left out), a line
too long to be an order is an error quoting a short excerpt, at most ``LINE_LIMIT``
characters of a ``say`` line are read, and at most a few errors are listed.

Each line is folded before it is read (``lookalikes``): ``ｅ２`` and ``е2`` in Cyrillic
letters read as ``e2``, and the reading says so (``Reading.notes``). What ``say`` and ``name``
pass on is kept as written; an address in a command keeps its letters. A line that writes a square
with a letter of another script that has no Latin look-alike is an error naming the line, not chatter.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field

from app.games.commands.lookalikes import compatible, folded, foreign_letter
from app.games.errors import ServiceError
from app.rules.base import OrderError, Variant
from app.rules.numbers import NumberError, whole_number
from app.rules.reading import names_square

REFEREE = "order"  # a line for the variant's referee: moves, setup, resign, draw offers
MOVE = "move"  # a referee line that is a move (the variant says which lines are)

NO_ARGUMENT = ("accept", "decline", "board", "history", "help", "games")  # anything after these is a mistake
ORDER_LINE_LIMIT = 100  # characters: the longest order of any variant fits in 30
LINE_LIMIT = 2000  # characters of a command line read (what ``say`` passes on)
EXCERPT = 60  # characters of a line quoted back in an error
ERRORS_LISTED = 5
COMMANDS_READ = 20  # command lines in one message; a longer list is an error
ANNOTATION = "!?+#."  # chess annotation marks after an order, which the referee ignores
AS_WRITTEN = ("say", "name")  # commands whose argument is passed on or shown word for word: never folded
NOTES_LISTED = 5
CHATTER_KEPT = 10  # lines that are no command nor order, kept to say what was not understood
SENTENCE_END = ".!?"  # after a command's argument: the end of the sentence, not the argument's


@dataclass(frozen=True)
class Command:
    """One line of a message, understood: ``kind`` is REFEREE, MOVE or a command's (first) word."""

    kind: str
    text: str
    argument: str = ""


@dataclass
class Reading:
    """The commands of a message, what could not be read, and how lines were read that were not written plainly.

    ``notes``: one sentence for each command or order line that was read other than as written (look-alike
    letters or fullwidth forms folded), e.g. "'е2 е4' was read as 'e2 e4'", at most ``NOTES_LISTED``, each
    quoting at most ``EXCERPT`` characters. They are for the sender alone, beside what was done (the answer
    to a reply in a game); like ``errors``, they quote the sender's own lines, so they are not sent to the
    From address of a mail to the bare address, which proves nothing.
    """

    commands: list[Command] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # what could not be read, and why, one sentence each
    unreadable: list[str] = field(default_factory=list)  # the order lines among them, as read
    notes: list[str] = field(default_factory=list)  # lines read other than as written, one sentence each
    chatter: list[str] = field(default_factory=list)  # the first lines read as no command nor order, as written

    def note(self, written: str, read: str) -> None:
        """Say that ``written`` was read as ``read``, when they differ (bounded)."""
        if " ".join(written.split()) != " ".join(read.split()) and len(self.notes) < NOTES_LISTED:
            self.notes.append(f"'{excerpt(written)}' was read as '{excerpt(read)}'")


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """The start of what someone wrote, on one line, at most ``limit`` characters (with ... when cut)."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 3].rstrip() + "..."


def quoted(text: str, limit: int = EXCERPT) -> str:
    """What someone wrote, to quote back to them: printable characters only, on one line, bounded, in quotes.
    Only for a sender whose mail is proven theirs (see ``ServiceError.told``)."""
    return f"'{excerpt(''.join(char if char.isprintable() else ' ' for char in text[: limit * 4]), limit)}'"


def listed_number(written: str, listed: str, command: str, letter: str = "") -> int:
    """The number of one of the things a list shows (a seek, a tournament) as written after a command: "12",
    "#12", or after the list's ``letter`` ("T12"), by the one reader of numbers; a ServiceError says how to
    write it."""
    digits = written.strip().removeprefix("#")
    if letter:
        digits = digits.removeprefix(letter.upper()).removeprefix(letter.lower())
    try:
        return whole_number(digits, 1)
    except NumberError:
        raise ServiceError(f"write the {listed}'s number, as '{listed}s' lists it: {command} 12") from None


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
        written = raw.strip().strip("*_").strip()[:LINE_LIMIT]
        if not written:
            continue
        line = folded(written)[:LINE_LIMIT]
        first = re.split(r"[\s:,.!]+", line[:40].lower(), maxsplit=1)[0]
        if first in words and not re.fullmatch(r"(accept|decline)\s+draw\W*", line[:40].lower()):
            if first in AS_WRITTEN:  # the command word folded, what follows it as written
                line = line.split(None, 1)[0] + written[len(written.split(None, 1)[0]):]
            elif not written.isascii():  # an address keeps its letters: only its compatibility forms folded
                line = " ".join(compatible(word) if "@" in compatible(word) else folded(word)
                                for word in written.split())[:LINE_LIMIT]
            rest = line[len(line.split(None, 1)[0]):].strip() if line.split() else ""
            if first not in AS_WRITTEN:  # "Join 5." as "join 5": a sentence's end is no part of the argument
                rest = rest.rstrip(SENTENCE_END + " ")
            if first in ("accept", "decline") and rest.strip(" .!").strip():
                reading.errors.append(f"'{excerpt(written)}': write just '{first}' (or '{first} draw')")
                continue
            reading.note(written, line)
            reading.commands.append(Command(first, line, "" if first in NO_ARGUMENT else rest))
            continue
        if variant is None:
            if names_square(line) or foreign_letter(line):
                reading.errors.append(f"'{excerpt(written)}': orders for a game go in a reply to that game's move "
                                      "request")
            elif len(reading.chatter) < CHATTER_KEPT:
                reading.chatter.append(written)
            continue
        if not variant.is_order(line):
            letter = foreign_letter(line)
            if letter is not None:
                reading.errors.append(f"'{excerpt(written)}' could not be read: squares are written with the "
                                      f"Latin letters a to h, and '{letter}' is not one")
            elif len(reading.chatter) < CHATTER_KEPT:
                reading.chatter.append(written)
            continue  # else plain chatter
        order = as_read(line)
        if len(order) > ORDER_LINE_LIMIT:
            reading.errors.append(f"'{excerpt(written)}' is {len(order)} characters long: an order is one short line")
            continue
        reading.note(written, order)
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
