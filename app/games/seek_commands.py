"""The club's seeks by mail: ``seeks`` answered at once; ``seek``, ``join N`` and ``cancel seek N`` held until
their sender confirms them (each changes something, and a mail to the bare address proves nothing of its From).
"""

from __future__ import annotations

from app.games.commands import Command, Held, InLobby, MailCommand
from app.games.errors import ServiceError
from app.games.seeks import LIFETIME, MOST_OPEN, read_number, read_seek


def list_seeks(context: InLobby, command: Command) -> None:
    base = context.service.settings.base_url
    context.tell("seeks", "open seeks", [*context.service.seeks.listing(),
                                         f"To take one: join N. All of them, on the web: {base}/seeks"])


def check_seek(context: InLobby, argument: str) -> str:
    return context.service.seeks.check_post(context.player, argument).written()


def describe_seek(argument: str) -> str:
    return f"post an open seek: {read_seek(argument).described()}"


def carry_out_seek(context: InLobby, argument: str) -> str:
    try:
        number = context.service.seeks.post(context.player, argument)
    except ServiceError as error:
        context.tell("error", "seek not posted", [f"Your seek was not posted: {error}."])
        return f"seek refused: {error}"
    context.tell("seek", f"your seek {number}", [
        f"Your seek {number} is open: {read_seek(argument).described()}. The first player who joins it starts "
        f"the game at once; you will get its first mail then. It lapses in {LIFETIME.days} days; to withdraw it: "
        f"cancel seek {number}.",
        f"You are known in the club as {context.player.name}; 'name <your name>' changes it.",
    ])
    return f"seek {number}"


def check_join(context: InLobby, argument: str) -> str:
    number = read_number(argument)
    context.service.seeks.check_join(context.player, number)
    return str(number)


def carry_out_join(context: InLobby, argument: str) -> str:
    try:
        game = context.service.seeks.join(context.player, int(argument))
    except ServiceError as error:
        context.tell("error", "seek not joined", [f"You did not join: {error}."])
        return f"join refused: {error}"
    return f"joined seek {argument}: game {game.id}"


def check_cancel(context: InLobby, argument: str) -> str:
    number = read_number(argument, "cancel seek")
    context.service.seeks.check_cancel(context.player, number)
    return str(number)


def carry_out_cancel(context: InLobby, argument: str) -> str:
    try:
        context.service.seeks.cancel(context.player, int(argument))
    except ServiceError as error:
        context.tell("error", "seek not cancelled", [f"Nothing was cancelled: {error}."])
        return f"cancel refused: {error}"
    context.tell("seek", f"seek {argument} cancelled", [f"Your seek {argument} is withdrawn."])
    return f"cancelled seek {argument}"


SEEK_COMMANDS = (
    MailCommand("seek", "<variant> [days=3] [options] [rated|unrated] [rating LOW-HIGH]",
                f"offer a game to anyone (rated unless you say unrated; at most {MOST_OPEN} open at once)",
                held=Held(check_seek, describe_seek, carry_out_seek)),
    MailCommand("seeks", "", "the open seeks, each with its number", in_lobby=list_seeks),
    MailCommand("join", "<N>", "take seek N: the game starts at once",
                held=Held(check_join, lambda number: f"join seek {number}: its game starts at once", carry_out_join)),
    MailCommand("cancel seek", "<N>", "withdraw your seek N",
                held=Held(check_cancel, lambda number: f"withdraw your seek {number}", carry_out_cancel)),
)
