"""The tournaments' mail commands: ``tournaments`` and ``standings T`` answered at once (they only read, and
name players by club name alone); ``tournament ...``, ``enter T``, ``withdraw T`` and ``start T`` change
something, so to the bare address they are held until their sender confirms them (or carried out at once for a
proven sender), as seeks are. Their answers repeat nothing the sender wrote but checked values.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from app.club.jobs import club
from app.club.tournaments.core import read_terms
from app.club.tournaments.core.terms import FORMAT_NAMES
from app.club.tournaments.rows import UNDER_WAY, listed
from app.club.tournaments.words import listing_line
from app.games.commands.base import Held, InLobby, MailCommand
from app.games.commands.reading import Command, listed_number
from app.games.errors import ServiceError
from app.games.lobby.challenges import challenge_words
from app.rules.registry import DEFAULT_VARIANT, VARIANTS

LISTED = 30  # tournaments listed by ``tournaments`` (all of them on the web)


def list_tournaments(context: InLobby, command: Command) -> None:
    rows = listed(context.jobs.work.connection, UNDER_WAY, LISTED + 1)
    base = context.jobs.settings.base_url
    lines = [listing_line(row) for row in rows[:LISTED]] or [
        f"There are no tournaments open or under way. Announce one: tournament <game>, e.g. "
        f"'tournament {DEFAULT_VARIANT} players=6'."]
    more = [f"... and more on the web: {base}/tournaments"] if len(rows) > LISTED else []
    context.tell("tournaments", "tournaments", [*lines, *more, f"To enter one: enter T. All of them, finished ones "
                                                              f"too, on the web: {base}/tournaments"])


def standings(context: InLobby, command: Command) -> None:
    try:
        number = listed_number(command.argument, "tournament", "standings", "T")
        subject, paragraphs, table = club(context.jobs).tournaments.standings_lines(number)
    except ServiceError as error:
        context.problems.append(f"standings: {error}")
        return
    context.tell("standings", f"standings of {subject}", paragraphs, table.document())


# ------------------------------------------------------------------ announcing


def check_announce(context: InLobby, argument: str) -> str:
    limit = context.jobs.settings.challenges_per_day
    if len(context.held) >= limit:
        raise ServiceError(f"at most {limit} announcements at once")
    return club(context.jobs).tournaments.check_announce(context.player, argument).written()


def describe_announce(argument: str) -> str:
    terms = read_terms(challenge_words(argument), today=_today_of(argument))
    rounds = f" of {terms.rounds} rounds" if terms.rounds else ""
    start = f", starting on {terms.starts.isoformat()} at the latest" if terms.starts else ""
    return (f"announce {'a rated' if terms.rated else 'an unrated'} tournament, {FORMAT_NAMES[terms.format]}"
            f"{rounds} of {VARIANTS[terms.variant].title} ({terms.days} days a move), for up to {terms.players} "
            f"players{start}; you organise it and are its first entrant")


def _today_of(argument: str) -> date:
    """The day a held announcement is read back as of: its start day, where it names one, was checked against
    the day it was sent; read back, it is taken as it was written."""
    for word in argument.split():
        if word.startswith("starts="):
            return date.fromisoformat(word.removeprefix("starts=")) - timedelta(days=1)
    return datetime.now(UTC).date()


def carry_out_announce(context: InLobby, argument: str) -> str:
    jobs = club(context.jobs)
    try:
        terms = jobs.tournaments.check_announce(context.player, argument)
        number = jobs.tournaments.announce(context.player, terms)
    except ServiceError as error:
        context.tell("error", "tournament not announced", [f"Your tournament was not announced: {error}."])
        return f"tournament refused: {error}"
    return f"tournament {number}"


# ------------------------------------------------------------------ entering, withdrawing, starting


def numbered(command: str):
    """The check of a held command that takes a tournament's number: the number, the tournament checked."""

    def check(context: InLobby, argument: str) -> str:
        number = listed_number(argument, "tournament", command, "T")
        tournaments = club(context.jobs).tournaments
        {"enter": tournaments.check_enter, "withdraw": tournaments.check_withdraw,
         "start": tournaments.check_start}[command](context.player, number)
        return str(number)

    return check


def carry_out_enter(context: InLobby, argument: str) -> str:
    try:
        club(context.jobs).tournaments.enter(context.player, int(argument))
    except ServiceError as error:
        context.tell("error", "not entered", [f"You did not enter: {error}."])
        return f"enter refused: {error}"
    return f"entered tournament {argument}"


def carry_out_withdraw(context: InLobby, argument: str) -> str:
    try:
        said = club(context.jobs).tournaments.withdraw(context.player, int(argument))
    except ServiceError as error:
        context.tell("error", "not withdrawn", [f"Nothing was done: {error}."])
        return f"withdraw refused: {error}"
    context.tell("tournament", f"withdrawn from tournament {argument}", [said])
    return f"withdrew from tournament {argument}"


def carry_out_start(context: InLobby, argument: str) -> str:
    try:
        club(context.jobs).tournaments.start(context.player, int(argument))
    except ServiceError as error:
        context.tell("error", "not started", [f"Tournament {argument} was not started: {error}."])
        return f"start refused: {error}"
    return f"started tournament {argument}"


def describe_numbered(what: str):
    return lambda number: f"{what} tournament {number}"


TOURNAMENT_COMMANDS = (
    MailCommand("tournament", "<variant> [options] [round-robin|swiss] [players=N] [rounds=N] [rated|unrated] "
                "[starts=YYYY-MM-DD]", "announce a tournament: you organise it and are its first entrant",
                held=Held(check_announce, describe_announce, carry_out_announce)),
    MailCommand("tournaments", "", "the tournaments open for entry and under way, each with its number",
                in_lobby=list_tournaments),
    MailCommand("enter", "<T>", "enter tournament T; it starts when its last place is taken",
                held=Held(numbered("enter"), describe_numbered("enter"), carry_out_enter)),
    MailCommand("withdraw", "<T>", "leave tournament T (once it has started, your unfinished games in it are "
                "resigned)", held=Held(numbered("withdraw"), describe_numbered("withdraw from"), carry_out_withdraw)),
    MailCommand("start", "<T>", "start your tournament T now, with whoever has entered",
                held=Held(numbered("start"), describe_numbered("start"), carry_out_start)),
    MailCommand("standings", "<T>", "the standings of tournament T: place, name, points, tie-breaks, games",
                in_lobby=standings),
)
