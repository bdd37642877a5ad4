"""Every mail command of the game service as one object: its name, argument, one line of help and what carries
it out.

``GAME_COMMANDS`` are understood in a reply about a game, with those the variant's presenter adds
(``game_commands``); ``LOBBY_COMMANDS`` in a mail to the bare address, where a command that changes
something is held until its sender confirms (``Held``). Help and the order forms are written from
the commands a service reads (its ``CommandBook``: these, and the club's in the service the doors use,
``app.service``), so a new command is one more object.
"""

from __future__ import annotations

from app.games.commands.base import (
    ALSO,
    FORM,
    CommandBook,
    Held,
    InGame,
    InLobby,
    MailCommand,
    help_line,
    order_forms,
)
from app.games.commands.digest import DIGEST_COMMANDS
from app.games.commands.game import (
    board,
    game_rules,
    game_vacation,
    history,
    nothing_to_answer,
    public,
    say,
    variant_command,
)
from app.games.commands.lobby import (
    VACATION,
    carry_out_challenge,
    carry_out_name,
    check_challenge,
    check_name,
    games,
    lobby_rules,
)
from app.games.commands.reading import Command
from app.games.lobby.challenges import describe_challenge
from app.games.records.work import display_name
from app.present.base import Presenter
from app.present.registry import presenter_for
from app.rules.registry import DEFAULT_VARIANT, VARIANTS


def game_help(context: InGame, command: Command) -> None:
    context.mails.message(context.side, "help", "help",
                          help_paragraphs(presenter_for(context.game.variant), context.jobs.book), show_forms=True)


def lobby_help(context: InLobby, command: Command) -> None:
    context.tell("help", "how to play", help_paragraphs(book=context.jobs.book))



MAIL_COMMANDS = (
    MailCommand("say", "<text>", "a message passed on to your opponent word for word", in_game=say, form=FORM),
    MailCommand("board", "", "send me my position again", in_game=board, form=FORM),
    MailCommand("history", "", "a link to your history of this game", in_game=history, form=ALSO),
    MailCommand("public", "on|off", "after the game, show its reveal to anyone with the link (both must agree)",
                in_game=public),
    MailCommand("accept", "", "accept an invitation to a game", in_game=nothing_to_answer),
    MailCommand("decline", "", "decline an invitation to a game", in_game=nothing_to_answer),
    MailCommand("help", "", "how to play by mail, and every command", in_game=game_help, in_lobby=lobby_help,
                form=ALSO),
    MailCommand("rules", "[game]", "the rules of this game (or of the one named), with a link to the page",
                in_game=game_rules, in_lobby=lobby_rules),
    MailCommand("vacation", "<days>", "pause your clock in every game for that many days (a yearly allowance)",
                in_game=game_vacation, held=VACATION),
    MailCommand("challenge", "<address> [variant] [days=3] [color=white|black|random] [options] [rated]",
                "invite someone to a game (rated: its end changes both players' ratings)",
                held=Held(check_challenge, describe_challenge, carry_out_challenge)),
    MailCommand("games", "", "the list of your games", in_lobby=games),
    MailCommand("name", "<name>", "the name your opponents see", held=Held(
        check_name, lambda name: f"set your display name to: {display_name(name, name)}", carry_out_name)),
    *DIGEST_COMMANDS,
)
BOOK = CommandBook(MAIL_COMMANDS)  # the game service's own commands
GAME_COMMANDS, LOBBY_COMMANDS = BOOK.game, BOOK.lobby


def game_commands(presenter: Presenter, book: CommandBook = BOOK) -> tuple[MailCommand, ...]:
    """The commands of a reply about a game of this variant: the service's, then the variant's own."""
    return (*book.game, *(variant_command(command) for command in presenter.commands()))


def help_paragraphs(presenter: Presenter | None = None, book: CommandBook = BOOK) -> list[str]:
    """How to play by mail, the game's own rules in brief, and every command with its line of help (in a game,
    the variant's too)."""
    commands = game_commands(presenter, book) if presenter else book.lobby
    variants = ", ".join(f"{name} ({variant.title})" for name, variant in sorted(VARIANTS.items()))
    most = presenter.variant.move_lines if presenter else 1
    moves = (f"up to {most} moves, one to a line, are tried in your order until one can be played" if most > 1
             else "one move a reply")
    return [
        "Mirrorpost referees your game by email. Reply to your latest move request with your order on the first "
        f"line ({moves}), and any other command on a line of its own. Lines with a square name or a command word "
        "are read as orders; other lines are ignored as chatter. Quoted text and signatures are never read.",
        *(presenter.help() if presenter else []),
        help_line(commands),
        f"To start a new game, send 'challenge friend@example.org {DEFAULT_VARIANT} days=3' to the referee's "
        f"address, or 'seek {DEFAULT_VARIANT}' to offer a game to anyone ('seeks' lists the open ones). The games: "
        f"{variants}.",
    ]


def command_forms(presenter: Presenter, book: CommandBook = BOOK) -> list[tuple[str, str]]:
    """The command lines of the order forms of a game of this variant (the mailer writes them after the variant's
    own forms)."""
    return order_forms(game_commands(presenter, book))
