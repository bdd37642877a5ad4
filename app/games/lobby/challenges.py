"""Challenges read and checked: the options (one reader for mail and the command line), the opponent, the
variant, and what a held challenge is, in the referee's own words.

A challenge to the bare address comes from an address not yet proved to be its sender's: what is
answered to it quotes nothing the sender wrote, and what its "please confirm" mail repeats is only
checked values (``held_challenge``, ``describe_challenge``). A challenge's game is unrated unless it says
``rated``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from app.addresses import AddressError, valid_address
from app.config import Settings
from app.games.errors import ServiceError
from app.games.mail.links import rules_link
from app.present.registry import presenter_for
from app.present.rules_pages import rules_text
from app.rules.base import SIDES, OptionError
from app.rules.options import DEFAULT_DAYS, RATED_WORDS, days_a_move, key_value
from app.rules.registry import DEFAULT_VARIANT, VARIANTS, get_variant
from app.rules.variant_names import variant_named

OUR_WORDS = frozenset({"days", "color", "colour", "rated", "unrated", "rating"})  # the game terms every game takes
OPEN, CLOSE = "{[", "}]"  # around a value written as JSON (a start position), which may have spaces in it


def read_option(item: str) -> tuple[str, str]:
    """``K=V`` as the referee reads an option (``key_value``), by mail and on the command line alike."""
    try:
        return key_value(item)
    except OptionError as error:
        raise ServiceError(str(error)) from None


def read_options(items: list[str]) -> dict[str, str]:
    """Options given one by one (``--option K=V``), read as ``read_option`` reads each."""
    return dict(read_option(item) for item in items)


def describe_challenge(argument: str) -> str:
    """A held challenge (``held_challenge``) in the referee's words, for the "please confirm" mail: only checked
    values, the address, the variant and its options, as the invitation will give them."""
    words = challenge_words(argument)
    opponent, variant = words[0], words[1]
    rated = any(RATED_WORDS.get(word, False) for word in words[2:])
    raw = dict(read_option(word) for word in words[2:] if word not in RATED_WORDS)
    color = raw.pop("color", "white")
    days, options = split_options(variant, raw)
    side = {"white": "you play White", "black": "you play Black"}.get(color, "White or Black drawn at random")
    game = f"a rated game of {VARIANTS[variant].title}" if rated else f"a game of {VARIANTS[variant].title}"
    rating = f"; its result changes both players' ratings in {VARIANTS[variant].title}" if rated else ""
    return f"invite {opponent} to {game} ({terms(variant, days, options)}); {side}{rating}"


def challenge_words(text: str) -> list[str]:
    """The words of a challenge, split at spaces, except inside a value in braces or brackets (JSON, whose quoted
    strings may hold anything): ``key={"a": "b c", "d": [1, 2]}`` stays one word. One pass over the text."""
    words: list[str] = []
    word, depth, quoted, escaped = "", 0, False, False
    for character in text:
        if quoted:
            quoted = escaped or character != '"'
            escaped = not escaped and character == "\\"
        elif character == '"' and depth:
            quoted = True
        elif character in OPEN:
            depth += 1
        elif character in CLOSE:
            depth = max(depth - 1, 0)
        elif character.isspace() and not depth:
            words, word = [*words, word] if word else words, ""
            continue
        word += character
    return [*words, word] if word else words


@dataclass(frozen=True)
class ChallengePlan:
    """A challenge as read and checked, before anything is created."""

    opponent: str
    variant: str
    options: dict[str, str]
    color: str
    rated: bool = False  # its end changes both players' ratings (``rated``; ``unrated`` is the default)


def terms(variant_name: str, days: int, options: dict[str, Any]) -> str:
    """A game's time and options in the referee's words ("3 days a move; <each option>"): what an invitation and a
    confirmation say (an option's words may have commas of their own)."""
    time = f"{days} day{'s' if days != 1 else ''} a move"
    return "; ".join([time, *presenter_for(variant_name).option_lines(options)])


def written(value: Any) -> str:
    """A checked option's value as a held challenge keeps it: as it is, or as JSON without spaces."""
    return value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))


@cache
def referee_words(variant_name: str) -> frozenset[str]:
    """Every word of the variant's rules page: what an answer may say without repeating a sender's own words."""
    return frozenset(re.findall(r"[a-z]+", rules_text(variant_name).lower())) | OUR_WORDS


def senders_words(text: str, variant_name: str) -> set[str]:
    """The words of ``text`` that are not the referee's own."""
    return set(re.findall(r"[a-z]+", text.lower())) - referee_words(variant_name)


def unrepeated(message: str, raw: dict[str, str], variant_name: str) -> str | None:
    """An error about options with each key or value the sender wrote taken out (where it has a word that is not
    the referee's own): "... must be a whole number, not the value given". None when it would still repeat
    a word of theirs (a value quoted in pieces, say)."""
    for written_here, instead in ((raw.values(), "the value given"), (raw.keys(), "the option given")):
        for text in sorted(written_here, key=len, reverse=True):
            if senders_words(text, variant_name):
                message = re.sub(rf"'{re.escape(text)}'|(?<!\w){re.escape(text)}(?!\w)", instead, message)
    theirs = senders_words(" ".join([*raw, *raw.values()]), variant_name)
    return None if theirs & set(re.findall(r"[a-z]+", message.lower())) else message


def split_options(variant_name: str, raw: dict[str, str]) -> tuple[int, dict[str, Any]]:
    """The days a move and the variant's options, checked (raises ServiceError saying what is wrong)."""
    if variant_name not in VARIANTS:
        raise ServiceError(f"unknown variant {variant_name!r}; known: {', '.join(sorted(VARIANTS))}")
    options = dict(raw)
    try:
        days = days_a_move(str(options.pop("days", DEFAULT_DAYS)))
        referee_options = get_variant(variant_name).parse_options(options)
    except OptionError as error:
        raise ServiceError(str(error)) from error
    return days, referee_options


def held_challenge(settings: Settings, challenger: str, text: str) -> str:
    """A challenge to hold until its sender confirms it, checked whole and written again in the referee's own
    form: the address, the variant, the days, the colour and every option as checked (``describe_challenge``
    says it in words). Its errors go to an address not yet proved to be the challenger's, so they repeat no
    word the sender wrote (``unrepeated``), or point to the rules instead."""
    plan = read_challenge(settings, challenger, text)
    try:
        days, options = split_options(plan.variant, plan.options)
    except ServiceError as error:
        told = unrepeated(str(error), plan.options, plan.variant)
        title, page = VARIANTS[plan.variant].title, rules_link(settings, plan.variant)
        raise ServiceError(told or f"an option is not one {title} takes, or its value is not allowed; its "
                           f"options are on {page}") from None
    options_written = [f"{key}={written(value)}" for key, value in sorted(options.items())]
    return " ".join([plan.opponent, plan.variant, f"days={days}", f"color={plan.color}", *options_written,
                     *(["rated"] if plan.rated else [])])


def read_challenge(settings: Settings, challenger: str, text: str) -> ChallengePlan:
    """``challenge bob@example.org <variant> days=3 color=black <its options> [rated]``, read but not carried
    out: the opponent a plain address (not the challenger's, not ours), the variant known, the colour one of ours,
    the game rated only if it says so.

    Its errors go to an address not yet proved to be the challenger's, so they quote nothing the challenger
    wrote; the options are checked by ``held_challenge`` and again when the game is created.
    """
    words = challenge_words(text)
    usage = "write: challenge <email address> [variant] [options such as days=3 color=black] [rated]"
    if not words:
        raise ServiceError(usage)
    try:
        opponent = valid_address(words[0].strip("<>"))
    except AddressError:
        raise ServiceError(f"the first word after 'challenge' is not an email address; {usage}") from None
    if opponent == challenger:
        raise ServiceError("a game needs two different players")
    local, _, domain = opponent.rpartition("@")
    if domain == settings.server_domain and (local == settings.server_local
                                             or local.startswith(settings.server_local + "+")):
        raise ServiceError("the referee does not play")
    variant = DEFAULT_VARIANT
    options: dict[str, str] = {}
    color = "white"
    rated = False
    rest = words[1:]
    while rest:
        word, found = rest[0], variant_named(rest)
        if word.lower() in RATED_WORDS:
            rated = RATED_WORDS[word.lower()]
        elif "=" in word:
            key, value = read_option(word)
            if key in ("color", "colour", "as"):
                color = value.lower()
            else:
                options[key] = value
        elif found is not None:  # by its name or its title, in as many words as it takes
            variant, rest = found[0], rest[found[1] - 1:]
        else:
            variant = word.lower()
        rest = rest[1:]
    if variant not in VARIANTS:
        raise ServiceError(f"there is no game by that name; the games: {', '.join(sorted(VARIANTS))}")
    if color not in (*SIDES, "random"):
        raise ServiceError("color must be white, black or random")
    return ChallengePlan(opponent, variant, options, color, rated)
