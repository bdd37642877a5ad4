"""The mail commands of a mail to the bare address: ``rules`` and ``games`` answered at once; ``challenge``,
``vacation`` and ``name`` held until their sender confirms them (``Held``)."""

from __future__ import annotations

from app.games.commands.base import Held, InLobby
from app.games.commands.reading import Command
from app.games.errors import ServiceError
from app.games.mail.links import rules_link
from app.games.mail.listing import games_list
from app.games.mail.mails import one_full_stop
from app.games.play.clock import vacation_days
from app.games.records.work import display_name
from app.outbound.headers import clean_name
from app.rules.registry import DEFAULT_VARIANT, VARIANTS
from app.rules.variant_names import variant_named


def lobby_rules(context: InLobby, command: Command) -> None:
    found = variant_named(command.argument.split())
    name = found[0] if found else command.argument.strip().lower() or DEFAULT_VARIANT
    if name in VARIANTS:
        context.tell("rules", f"the rules of {VARIANTS[name].title}", [
            f"The rules of {VARIANTS[name].title}, as on {rules_link(context.jobs.settings, name)}:"],
            context.jobs.mailer.rules_document(name))
    else:
        context.problems.append(f"rules: there is no game by that name; the games: {', '.join(sorted(VARIANTS))}")


def games(context: InLobby, command: Command) -> None:
    context.tell("games", "your games", games_list(context.jobs.work, context.jobs.settings, context.player))


def check_challenge(context: InLobby, argument: str) -> str:
    limit = context.jobs.settings.challenges_per_day
    if len(context.held) >= limit:
        raise ServiceError(f"at most {limit} challenges at once")
    return context.jobs.invitations.held_challenge(context.player.email, argument)


def carry_out_challenge(context: InLobby, argument: str) -> str:
    try:
        game = context.jobs.invitations.challenge(context.player, argument)
    except ServiceError as error:
        context.tell("error", "challenge not sent", [str(error)])
        return f"challenge refused: {error}"
    return f"challenge: game {game.id}"


def check_vacation(context: InLobby, argument: str) -> str:
    days = vacation_days(argument)
    if days is None or days > context.jobs.settings.vacation_days_per_year:
        raise ServiceError("write: vacation <number of days>")
    return str(days)


def carry_out_vacation(context: InLobby, argument: str) -> str:
    context.tell("vacation", "vacation", [context.jobs.clocks.vacation(context.player, argument, "white", None, None)])
    return "vacation"


def check_name(context: InLobby, argument: str) -> str:
    name = clean_name(argument)
    if not name:
        raise ServiceError("write: name <your name>")
    refused = context.jobs.preferences.name_refused(context.player, display_name(name, context.player.email))
    if refused:
        raise ServiceError(refused)
    return name


def carry_out_name(context: InLobby, argument: str) -> str:
    name = display_name(argument, context.player.email)
    refused = context.jobs.preferences.give_name(context.player, name, chosen=True)
    if refused:
        context.tell("error", "name not changed", [f"Your name was not changed: {refused}."])
        return f"name refused: {refused}"
    context.tell("notice", "name changed", [one_full_stop(f"You are now called {context.player.name}.",
                                                          [context.player.name])])
    return "name"



VACATION = Held(check_vacation, lambda days: f"pause your clock in every game for {int(days)} days (vacation)",
                carry_out_vacation)

