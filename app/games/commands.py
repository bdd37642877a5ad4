"""The commands a player can send, as read from the new text of a message, and the registry they come from.

Moves and the referee's own commands (``resign``, draw offers, ``setup`` ...) are read by the
variant. Everything else is a service command from ``SERVICE_COMMANDS`` or one a variant's
presenter adds (``Presenter.commands``); ``help`` and the order forms are made from the same list.
"""

from __future__ import annotations

from dataclasses import dataclass

REFEREE = "order"  # a line for the variant's referee: moves, setup, resign, draw offers
MOVE = "move"  # a referee line that is a move (the variant says which lines are)
GAME, LOBBY = "game", "lobby"  # where a command is understood: a reply in a game, or mail to the bare address


@dataclass(frozen=True)
class Command:
    """One line of a message, understood: ``kind`` is REFEREE, MOVE or a command's name."""

    kind: str
    text: str
    argument: str = ""


@dataclass(frozen=True)
class CommandSpec:
    """A command beside the orders: its name, how its argument is written, one line of help."""

    name: str
    argument: str
    help: str
    where: frozenset[str]

    @property
    def form(self) -> str:
        return f"{self.name} {self.argument}".strip()


def spec(name: str, argument: str, help_line: str, *where: str) -> CommandSpec:
    return CommandSpec(name, argument, help_line, frozenset(where))


SERVICE_COMMANDS = (
    spec("say", "<text>", "a message passed on to your opponent word for word", GAME),
    spec("board", "", "send me my position again", GAME),
    spec("history", "", "a link to your history of this game", GAME),
    spec("public", "on|off", "after the game, show its reveal to anyone with the link (both must agree)", GAME),
    spec("accept", "", "accept an invitation to a game", GAME),
    spec("decline", "", "decline an invitation to a game", GAME),
    spec("help", "", "how to play by mail, and every command", GAME, LOBBY),
    spec("rules", "[game]", "the rules of this game (or of the one named), with a link to the page", GAME, LOBBY),
    spec("vacation", "<days>", "pause your clock in every game for that many days (a yearly allowance)", GAME, LOBBY),
    spec("challenge", "<address> [variant] [days=3] [color=white|black|random] [options]",
         "invite someone to a game", LOBBY),
    spec("games", "", "the list of your games", LOBBY),
    spec("name", "<name>", "the name your opponents see", LOBBY),
)
