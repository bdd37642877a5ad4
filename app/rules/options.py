"""A variant's options, declared: each with its name, default and reading (``Variant.options``); and the
terms every game by mail shares, read once for all (``key=value``, the days a move, rated or unrated).

``Variant.parse_options`` reads a challenge's ``key=value`` words (strings) or stored options (their own
output) with these, fills in the defaults, and names what is wrong and what is accepted. A challenge, a seek,
a tournament and the command line read each ``key=value`` with ``key_value``, the days a move with
``days_a_move`` and rated or not with ``RATED_WORDS``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.rules import numbers
from app.rules.values import OptionError

# A move's time in whole days, as every game by mail has it (a challenge, a seek, a tournament): the default, the
# fewest and the most.
DEFAULT_DAYS, FEWEST_DAYS, MOST_DAYS = 3, 1, 30
RATED_WORDS = {"rated": True, "unrated": False}  # whether a game's end changes its players' ratings

NO_DEFAULT = object()
"""The default of an option that is simply absent when not given (e.g. a start position)."""


@dataclass(frozen=True)
class Option:
    """One option: ``read`` turns a given value into the stored one or raises OptionError; ``values`` says
    in a few words what it takes, for help pages (``"1|2|3"``)."""

    name: str
    default: Any
    read: Callable[[Any], Any]
    values: str


def choice(name: str, choices: tuple[Any, ...], default: Any, spoken: str = "") -> Option:
    """One of a few values, read case-blind from their written form (``physics=2`` is the number 2)."""
    written = {str(value).lower(): value for value in choices}
    wanted = spoken or "one of " + ", ".join(str(value) for value in choices)

    def read(value: Any) -> Any:
        text = str(value).strip().lower()
        if isinstance(value, bool) or text not in written:
            raise OptionError(f"{name} must be {wanted}, not {value!r}")
        return written[text]

    return Option(name, default, read, "|".join(str(value) for value in choices))


def whole_number(name: str, low: int, high: int, default: int) -> Option:
    """A whole number from ``low`` to ``high``."""

    def read(value: Any) -> int:
        """A number as written (``whole_number``: digits 0 to 9 alone), or as stored."""
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            try:
                number = numbers.whole_number(value if isinstance(value, str) else "", 0, 10**9)
            except numbers.NumberError:
                raise OptionError(f"{name} must be a whole number, not {value!r}") from None
        if not low <= number <= high:
            raise OptionError(f"{name} must be between {low} and {high}")
        return number

    return Option(name, default, read, "N")


def parse(options: tuple[Option, ...], raw: dict[str, Any], variant: str, title: str) -> dict[str, Any]:
    """``raw`` read and completed with the defaults; parsing the result again gives the result."""
    if raw and not options:
        raise OptionError(f"{title} takes no options, not {', '.join(sorted(raw))}")
    known = {option.name: option for option in options}
    parsed = {option.name: option.default for option in options if option.default is not NO_DEFAULT}
    for key, value in raw.items():
        if key not in known:
            raise OptionError(f"unknown option {key!r} for {variant}; known: {', '.join(known)}")
        parsed[key] = known[key].read(value)
    return parsed


def key_value(item: str) -> tuple[str, str]:
    """``K=V`` as the referee reads an option or a term: the key in lower case, the value as written (a
    position's piece letters are upper and lower case; what reads the value checks it)."""
    key, equals, value = item.partition("=")
    key = key.strip().lower()
    if not equals or not key:
        raise OptionError("write each option as key=value, e.g. days=3")
    return key, value.strip()


def days_a_move(written: str) -> int:
    """A move's time in whole days, as written (``days=5``)."""
    try:
        return numbers.whole_number(written.strip(), FEWEST_DAYS, MOST_DAYS)
    except numbers.NumberError:
        raise OptionError(f"days must be a whole number of days from {FEWEST_DAYS} to {MOST_DAYS}") from None
