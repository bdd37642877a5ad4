"""A tournament's terms as its organiser writes them, read into a plain value with a clear answer for each
mistake.

By mail: ``tournament VARIANT [K=V ...] [round-robin|swiss] [players=N] [rounds=N] [rated|unrated]
[starts=YYYY-MM-DD]`` (``read_terms`` takes the words after ``tournament``, split as a challenge's are, so that
a JSON value stays one word); on the command line, ``tournament create`` hands the same values over one by one
(``terms_from``). The game is named as every command names it (``app.rules.variant_names``), each ``key=value``,
the days a move and rated or not read as every game's are (``app.rules.options``), every number by the one
reader of numbers (``app.rules.numbers``); the format as people write it (``round robin``, ``roundrobin``,
``rr``, ``Swiss``). The variant's options are read by the variant's own readers.

The answers repeat nothing the organiser wrote, only the referee's own words (the names of games, options and
limits): an announcement by mail comes from an address not yet proved to be its sender's.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from app.club.tournaments.core.swiss import FEWEST as SWISS_FEWEST
from app.club.tournaments.core.swiss import MOST as SWISS_MOST
from app.club.tournaments.core.swiss import default_swiss_rounds
from app.club.tournaments.core.values import ROUND_ROBIN, SWISS, Format, TournamentError
from app.rules.base import OptionError, RulesError
from app.rules.numbers import NumberError, whole_number
from app.rules.options import DEFAULT_DAYS, RATED_WORDS, days_a_move, key_value
from app.rules.registry import VARIANTS
from app.rules.variant_names import nearest_variant, variant_named

PLAYERS = {ROUND_ROBIN: (3, 16), SWISS: (SWISS_FEWEST, SWISS_MOST)}  # the fewest who can start, the most
DEFAULT_PLAYERS = {ROUND_ROBIN: 6, SWISS: 8}
FURTHEST_START = timedelta(days=365)
MOST_WORDS = 40
FORMAT_WORDS = {"round-robin": ROUND_ROBIN, "roundrobin": ROUND_ROBIN, "round_robin": ROUND_ROBIN,
                "rr": ROUND_ROBIN, "swiss": SWISS}
OUR_KEYS = ("players", "rounds", "starts", "days", "format")
FORMAT_NAMES = {ROUND_ROBIN: "a round robin", SWISS: "a Swiss"}
DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")


class TermsError(TournamentError):
    """The terms cannot be read; the message says what is wrong in the referee's words."""


@dataclass(frozen=True)
class Terms:
    """A tournament's terms, checked: the variant (its name) and its options as the variant reads them (its
    defaults filled in), the days a move, the format, the most players who may enter, the Swiss's rounds as
    given (None: as many as ``default_swiss_rounds`` gives for the entrants; a round robin has none to give),
    rated or not, and the day it starts (None: when the last place is taken, or the organiser starts it)."""

    variant: str
    format: Format
    players: int
    rated: bool = True
    days: int = DEFAULT_DAYS
    rounds: int | None = None
    starts: date | None = None
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def fewest(self) -> int:
        """The fewest entrants it can start with."""
        return PLAYERS[self.format][0]

    def rounds_for(self, entrants: int) -> int:
        """The rounds played with ``entrants``: a round robin's Berger rounds; a Swiss's rounds as given (at most
        one fewer than the entrants) or, when none were given, the default for the entrants."""
        if self.format == ROUND_ROBIN:
            return entrants - 1 + entrants % 2
        return min(self.rounds, entrants - 1) if self.rounds else default_swiss_rounds(entrants)

    def written(self) -> str:
        """The terms in the referee's own form, which ``read_terms`` reads back as these terms (what a held
        announcement keeps until its sender confirms it)."""
        options = [f"{key}={value if isinstance(value, str) else json.dumps(value, separators=(',', ':'))}"
                   for key, value in sorted(self.options.items())]
        return " ".join([self.variant, *options, f"days={self.days}", self.format, f"players={self.players}",
                         *([f"rounds={self.rounds}"] if self.rounds else []), "rated" if self.rated else "unrated",
                         *([f"starts={self.starts.isoformat()}"] if self.starts else [])])


def read_terms(words: Sequence[str], *, today: date) -> Terms:
    """The words after ``tournament``, read and checked against ``today`` (UTC); raises TermsError."""
    if len(words) > MOST_WORDS:
        raise TermsError(f"an announcement has at most {MOST_WORDS} words")
    named: list[str] = []
    given: dict[str, str] = {}
    options: dict[str, str] = {}
    formats: list[str] = []
    rated: list[bool] = []
    lowered = [word.strip().lower() for word in words]
    index = 0
    while index < len(lowered):
        word = lowered[index]
        if "=" in word:
            _take_value(words[index].strip(), given, options)
        elif word == "round" and lowered[index + 1:index + 2] == ["robin"]:
            formats.append(ROUND_ROBIN)
            index += 1
        elif word in FORMAT_WORDS:
            formats.append(FORMAT_WORDS[word])
        elif word in RATED_WORDS:
            rated.append(RATED_WORDS[word])
        elif word:
            named.append(word)
        index += 1
    if "format" in given:
        formats.append(read_format(given.pop("format")))
    if len(set(formats)) > 1:
        raise TermsError("write round-robin or swiss, not both")
    if len(set(rated)) > 1:
        raise TermsError("write rated or unrated, not both")
    return terms_from(" ".join(named), format=formats[0] if formats else ROUND_ROBIN,
                      rated=rated[0] if rated else True, options=options, today=today, **given)


def terms_from(variant: str, *, today: date, format: str = ROUND_ROBIN, players: int | str | None = None,
               rounds: int | str | None = None, rated: bool = True, days: int | str | None = None,
               starts: date | str | None = None, options: Mapping[str, str] | None = None) -> Terms:
    """The terms from values given one by one (the command line's ``tournament create``, and ``read_terms``):
    numbers as whole numbers or their ASCII digits, the date as a date or YYYY-MM-DD; raises TermsError."""
    name = _variant(variant)
    chosen = read_format(format)
    low, high = PLAYERS[chosen]
    most = _whole_number(players, DEFAULT_PLAYERS[chosen], low, high,
                         f"{FORMAT_NAMES[chosen]} has {low} to {high} players: players=N")
    if rounds is not None and chosen == ROUND_ROBIN:
        raise TermsError("in a round robin everyone plays everyone once: leave out rounds=")
    swiss_rounds = None if rounds is None else _whole_number(
        rounds, 0, 1, most - 1, f"a Swiss of {most} players has 1 to {most - 1} rounds: rounds=N")
    return Terms(variant=name, format=chosen, players=most, rated=rated, rounds=swiss_rounds,
                 days=DEFAULT_DAYS if days is None else _days(days),
                 starts=_start(starts, today), options=_variant_options(name, dict(options or {})))


def read_format(text: str) -> Format:
    """``round-robin`` or ``swiss`` as people write them."""
    spelled = re.sub(r"\s+", " ", str(text).strip().lower())
    found = ROUND_ROBIN if spelled == "round robin" else FORMAT_WORDS.get(spelled)
    if found is None:
        raise TermsError("a tournament is a round-robin or a swiss")
    return found


def _variant(text: str) -> str:
    """The variant a phrase names, all of it (``variant_named``); an unknown one is answered with the nearest
    name."""
    words = str(text).split()
    games = ", ".join(sorted(VARIANTS))
    if not words:
        raise TermsError(f"name the game first: tournament <game> ...; the games: {games}")
    found = variant_named(words)
    if found is not None and found[1] == len(words):
        return found[0]
    if found is not None:
        raise TermsError("after the game come its terms, each as key=value (players=8, days=5), and the words "
                         "round-robin or swiss, rated or unrated")
    nearest = nearest_variant(" ".join(words))
    raise TermsError(f"there is no game by that name; did you mean {nearest}? The games: {games}"
                     if nearest else f"there is no game by that name; the games: {games}")


def _take_value(word: str, given: dict[str, str], options: dict[str, str]) -> None:
    try:
        key, value = key_value(word)
    except OptionError:
        raise TermsError("write each term as key=value, e.g. players=8") from None
    if key in ("color", "colour", "as"):
        raise TermsError("colours in a tournament come from its pairings: leave out color=")
    into = given if key in OUR_KEYS else options
    if key in into:
        raise TermsError(f"{key}= is given twice" if key in OUR_KEYS else "an option is given twice")
    into[key] = value


def _whole_number(value: int | str | None, default: int, low: int, high: int, wanted: str) -> int:
    """A number from ``low`` to ``high`` written in ASCII digits (or given as one), ``default`` when absent."""
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise TermsError(wanted)
    try:
        return whole_number(str(value).strip(), low, high)
    except NumberError:
        raise TermsError(wanted) from None


def _days(value: int | str) -> int:
    """A move's time, as every game's is read (``days_a_move``)."""
    try:
        return days_a_move(str(value))
    except OptionError as error:
        raise TermsError(str(error)) from None


def _start(value: date | str | None, today: date) -> date | None:
    """The start day: after today, within a year."""
    if value is None:
        return None
    example = f"starts={(today + timedelta(days=7)).isoformat()}"
    if isinstance(value, date):
        day = value
    else:
        match = DATE.fullmatch(str(value).strip())
        if not match:
            raise TermsError(f"write the start day as year-month-day: {example}")
        try:
            day = date(*(int(part) for part in match.groups()))
        except ValueError:
            raise TermsError(f"the start day given is not a day of the calendar; for example {example}") from None
    if day <= today:
        raise TermsError(f"the start day must be after today ({today.isoformat()}, UTC)")
    if day > today + FURTHEST_START:
        raise TermsError(f"the start day must be within a year, by {(today + FURTHEST_START).isoformat()}")
    return day


def _variant_options(name: str, raw: dict[str, str]) -> dict[str, Any]:
    """The variant's options read by its own readers, and a game they can start; the answer to a wrong one
    names the option and what it takes, never the value as written."""
    variant = VARIANTS[name]
    known = {option.name: option for option in variant.options}
    takes = ", ".join(f"{option.name}={option.values}" for option in variant.options)
    if raw and not known:
        raise TermsError(f"{variant.title} takes no options")
    unknown = sorted(set(raw) - set(known))
    if unknown:
        raise TermsError(f"{variant.title} has no option by that name; its options: {takes}")
    try:
        options = variant.parse_options(raw)
        variant.new_game(options, random.Random(0))
    except RulesError as error:
        raise TermsError(_unrepeated(str(error), raw, takes)) from None
    return options


def _unrepeated(message: str, raw: dict[str, str], takes: str) -> str:
    """The variant's own answer with the value as written taken out, or, where it would still show some of it,
    what the options take."""
    for value in raw.values():
        message = message.replace(repr(value), "the value given")
    for value in raw.values():
        for word in re.findall(r"\w+", value):
            if re.search(rf"(?<!\w){re.escape(word)}(?!\w)", message, re.IGNORECASE) and \
                    not re.search(rf"(?<!\w){re.escape(word)}(?!\w)", takes, re.IGNORECASE):
                return f"an option's value is not one the game takes; its options: {takes}"
    return message
