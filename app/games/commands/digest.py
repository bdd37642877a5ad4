"""The commands of the daily digest and of reminders: ``digest daily [HOUR]``, ``digest off``, ``remind 24h 2h``.

Each changes the sender's own preferences. To the bare address they are held until the sender
confirms them (a mail there proves nothing about its From); in a reply about a game, whose reply
address only the player received, they are carried out at once, as ``vacation`` is.
"""

from __future__ import annotations

import re

from app.games.commands.base import Held, InGame, InLobby, MailCommand
from app.games.commands.reading import Command
from app.games.errors import ServiceError
from app.games.play.clock import hours_words

DIGEST_FORMS = "write: digest daily HOUR (an hour of the day UTC, 0 to 23; 7 if left out), or digest off"
REMIND_FORMS = ("write: remind and the hours before each deadline to be reminded at, e.g. remind 24h 2h (at most "
                "4, each 1 to 240 hours), or remind default")
DEFAULT_HOUR = 7  # UTC: the digest's hour when the player names none
MOST_REMINDERS = 4
LONGEST_LEAD = 240  # hours: ten days, the longest a reminder may come before a deadline


def read_digest(argument: str) -> int | None:
    """The hour of ``daily [HOUR]``, or None for ``off``; ServiceError (quoting nothing) otherwise."""
    words = argument.lower().split()
    if words == ["off"]:
        return None
    if words[:1] == ["daily"] and len(words) <= 2:
        if len(words) == 1:
            return DEFAULT_HOUR
        hour = re.fullmatch(r"([0-9]{1,2})(?::00)?h?", words[1])
        if hour and int(hour.group(1)) <= 23:
            return int(hour.group(1))
    raise ServiceError(DIGEST_FORMS)


def read_remind(argument: str) -> list[int] | None:
    """The hours of ``remind 24h 2h``, longest first, or None for ``remind default``."""
    words = argument.lower().replace(",", " ").split()
    if words == ["default"]:
        return None
    hours = set()
    for word in words:
        found = re.fullmatch(r"([0-9]{1,3})(?:h|hours?)?", word)
        if not found or not 1 <= int(found.group(1)) <= LONGEST_LEAD:
            raise ServiceError(REMIND_FORMS)
        hours.add(int(found.group(1)))
    if not 1 <= len(hours) <= MOST_REMINDERS:
        raise ServiceError(REMIND_FORMS)
    return sorted(hours, reverse=True)


def digest_words(hour: int | None) -> str:
    return "daily " + str(hour) if hour is not None else "off"


def remind_words(hours: list[int] | None) -> str:
    return " ".join(f"{hour}h" for hour in hours) if hours else "default"


def describe_digest(argument: str) -> str:
    hour = read_digest(argument)
    if hour is None:
        return "send you a mail for each move and notice again, instead of the daily digest (digest off)"
    return (f"send you one mail a day, at {hour:02d}:00 UTC, listing your games where it is your move, instead of "
            "a mail for each move; your time for a move would start with the digest that tells you of it")


def describe_remind(argument: str) -> str:
    hours = read_remind(argument)
    if hours is None:
        return "remind you as by default, 24 hours before each deadline"
    return f"remind you {hours_words(hours)} before each deadline"


# ------------------------------------------------------------------ to the bare address, once confirmed


def check_digest(context: InLobby, argument: str) -> str:
    return digest_words(read_digest(argument))


def digest_subject(hour: int | None) -> str:
    """The subject of the answer to ``digest daily`` or ``digest off``: what the player now gets."""
    return "your daily digest" if hour is not None else "no daily digest: a mail for each move"


def carry_out_digest(context: InLobby, argument: str) -> str:
    hour = read_digest(argument)
    context.tell("notice", digest_subject(hour), [context.jobs.digests.choose(context.player, hour)])
    return f"digest {argument}"


def check_remind(context: InLobby, argument: str) -> str:
    return remind_words(read_remind(argument))


def carry_out_remind(context: InLobby, argument: str) -> str:
    context.tell("notice", "your reminders", [context.jobs.digests.remind(context.player,
                                                                             read_remind(argument))])
    return f"remind {argument}"


# ------------------------------------------------------------------ in a reply about a game, at once


def game_digest(context: InGame, command: Command) -> None:
    try:
        hour = read_digest(command.argument)
    except ServiceError as error:
        context.mails.message(context.side, "error", "digest not changed", [str(error)])
        return
    said = context.jobs.digests.choose(context.player, hour)
    context.mails.message(context.side, "notice", digest_subject(hour), [said])


def game_remind(context: InGame, command: Command) -> None:
    try:
        said = context.jobs.digests.remind(context.player, read_remind(command.argument))
    except ServiceError as error:
        context.mails.message(context.side, "error", "reminders not changed", [str(error)])
        return
    context.mails.message(context.side, "notice", "your reminders", [said])


DIGEST_COMMANDS = (
    MailCommand("digest", "daily [HOUR]|off",
                "one mail a day at HOUR UTC (7 if left out) listing your games where it is your move, instead of a "
                "mail for each move; off: a mail for each move again",
                in_game=game_digest, held=Held(check_digest, describe_digest, carry_out_digest)),
    MailCommand("remind", "<hours>h ...",
                "reminders that many hours before each deadline, e.g. remind 24h 2h (remind default: 24 hours "
                "before)", in_game=game_remind, held=Held(check_remind, describe_remind, carry_out_remind)),
)
