"""Every mail command as one object: its name, argument, one line of help and what carries it out.

``GAME_COMMANDS`` are understood in a reply about a game, with those the variant's presenter adds
(``game_commands``); ``LOBBY_COMMANDS`` in a mail to the bare address, where a command that changes
something is held until its sender confirms (``Held``). Help and the order forms are written from
these lists, so a new command is one more object here.
"""

from __future__ import annotations

from app.games.challenges import describe_challenge
from app.games.clock import vacation_days
from app.games.commands import (
    ALSO,
    FORM,
    Command,
    Held,
    InGame,
    InLobby,
    MailCommand,
    first_words,
    help_line,
)
from app.games.digest_commands import DIGEST_COMMANDS
from app.games.errors import ServiceError
from app.games.links import rules_link
from app.games.mails import one_full_stop
from app.games.profile_commands import PROFILE
from app.games.rating_commands import RATING
from app.games.seek_commands import SEEK_COMMANDS
from app.games.work import display_name
from app.outbound.headers import clean_name
from app.present.base import Presenter, VariantCommand
from app.present.registry import presenter_for
from app.rules import messages
from app.rules.base import other
from app.rules.registry import DEFAULT_VARIANT, VARIANTS

SAY_LIMIT = 2000  # characters of a ``say`` passed on

# ------------------------------------------------------------------ in a reply about a game


def say(context: InGame, command: Command) -> None:
    """Passed on word for word, inside the mail the rest of the reply causes if there is one, and kept in the
    record as told to the opponent."""
    game, side, mails = context.game, context.side, context.mails
    text = command.argument.strip()[:SAY_LIMIT]
    if not text:
        mails.message(side, "error", "nothing to say", ["'say' needs a message after it."])
        return
    said = messages.said(side, text)
    context.service.events.record_plain(game, side, command.text, "said", {other(side): [said], side: []})
    name, opponent = game.player(side).name, game.player(other(side)).name
    mails.passed_on(other(side), f"a message from {name}", [f"{name} says:", text], said)
    mails.note(side, "your message was passed on", [f"Your message was passed on to {opponent}."])


def board(context: InGame, command: Command) -> None:
    if context.service.work.orderer(context.game) == context.side:
        context.mails.request(context.side, ["Your current move request, as asked."], "your move (as asked)",
                              kind="board")
    else:
        context.mails.message(context.side, "board", "your position", ["Your position, as asked."],
                              show_position=True)


def history(context: InGame, command: Command) -> None:
    context.mails.message(context.side, "history", "your history", [
        f"Your history of game {context.game.id}, move by move: "
        f"{context.service.mailer.history_url(context.game, context.side)}",
    ], show_position=True)


def game_help(context: InGame, command: Command) -> None:
    context.mails.message(context.side, "help", "help", help_paragraphs(presenter_for(context.game.variant)),
                          show_forms=True)


def game_rules(context: InGame, command: Command) -> None:
    mailer, game = context.service.mailer, context.game
    context.mails.message(context.side, "rules", "the rules", [
        f"The rules of {mailer.title(game)}, as on {mailer.rules_url(game)}:"],
        document=mailer.rules_document(game.variant))


def public(context: InGame, command: Command) -> None:
    """A player's consent to a public reveal; answered with where it stands now (public once both agree)."""
    game, agree = context.game, command.argument.strip().lower() != "off"
    context.service.desk.share_reveal(game, context.side, agree)
    if not agree:
        said = "After the game the reveal is shown to the two players only."
    elif game.public_white and game.public_black:
        where = f": {context.service.mailer.reveal_url(game)}" if game.status == "over" else " once the game is over"
        said = f"You both agree: the reveal of this game is public, for anyone with the link{where}."
    else:
        said = ("You agree that, after the game, anyone with the link may see the full reveal "
                "(it is public only if both players agree).")
    context.mails.message(context.side, "notice", "reveal sharing", [said])


def game_vacation(context: InGame, command: Command) -> None:
    context.service.clocks.vacation(context.player, command.argument, context.side, context.game, context.mails)


def nothing_to_answer(context: InGame, command: Command) -> None:
    context.mails.message(context.side, "notice", "nothing to " + command.kind, [
        f"There is no invitation in game {context.game.id} to {command.kind}. To answer a draw offer, write "
        f"'{command.kind} draw'."
    ])


def variant_command(command: VariantCommand) -> MailCommand:
    """A command a variant's presenter adds: answered from the player's own view; it may change their
    preferences."""

    def answer(context: InGame, line: Command) -> None:
        work = context.service.work
        view = work.variant(context.game).view(work.state(context.game), context.side)
        names = context.service.mailer.names(context.game, context.side)
        answered = command.answer(view, line.argument, context.player.preferences, names)
        if answered.preferences:
            context.player.preferences = {**context.player.preferences, **answered.preferences}
        context.mails.message(context.side, "notice", answered.subject, answered.lines)

    return MailCommand(command.name, command.argument, command.help, in_game=answer, form=ALSO)


# ------------------------------------------------------------------ in a mail to the bare address


def lobby_help(context: InLobby, command: Command) -> None:
    context.tell("help", "how to play", help_paragraphs())


def lobby_rules(context: InLobby, command: Command) -> None:
    name = command.argument.strip().lower() or DEFAULT_VARIANT
    if name in VARIANTS:
        context.tell("rules", f"the rules of {VARIANTS[name].title}", [
            f"The rules of {VARIANTS[name].title}, as on {rules_link(context.service.settings, name)}:"],
            context.service.mailer.rules_document(name))
    else:
        context.problems.append(f"rules: there is no game by that name; the games: {', '.join(sorted(VARIANTS))}")


def games(context: InLobby, command: Command) -> None:
    context.tell("games", "your games", context.service.desk.games_list(context.player))


def check_challenge(context: InLobby, argument: str) -> str:
    limit = context.service.settings.challenges_per_day
    if len(context.held) >= limit:
        raise ServiceError(f"at most {limit} challenges at once")
    return context.service.invitations.held_challenge(context.player.email, argument)


def carry_out_challenge(context: InLobby, argument: str) -> str:
    try:
        game = context.service.invitations.challenge(context.player, argument)
    except ServiceError as error:
        context.tell("error", "challenge not sent", [str(error)])
        return f"challenge refused: {error}"
    return f"challenge: game {game.id}"


def check_vacation(context: InLobby, argument: str) -> str:
    days = vacation_days(argument)
    if days is None or days > context.service.settings.vacation_days_per_year:
        raise ServiceError("write: vacation <number of days>")
    return str(days)


def carry_out_vacation(context: InLobby, argument: str) -> str:
    context.tell("vacation", "vacation", [context.service.clocks.vacation(context.player, argument, "white", None,
                                                                          None)])
    return "vacation"


def check_name(context: InLobby, argument: str) -> str:
    name = clean_name(argument)
    if not name:
        raise ServiceError("write: name <your name>")
    return name


def carry_out_name(context: InLobby, argument: str) -> str:
    context.player.name = display_name(argument, context.player.email)
    context.tell("notice", "name changed", [one_full_stop(f"You are now called {context.player.name}.",
                                                          [context.player.name])])
    return "name"


# ------------------------------------------------------------------ the lists

VACATION = Held(check_vacation, lambda days: f"pause your clock in every game for {int(days)} days (vacation)",
                carry_out_vacation)

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
    RATING,
    *SEEK_COMMANDS,
    PROFILE,
)
GAME_COMMANDS = tuple(command for command in MAIL_COMMANDS if command.in_game)
LOBBY_COMMANDS = tuple(command for command in MAIL_COMMANDS if command.in_lobby or command.held)
GAME_WORDS = first_words(GAME_COMMANDS)  # the first words of the service's commands in a game reply
LOBBY_WORDS = first_words(LOBBY_COMMANDS)


def game_commands(presenter: Presenter) -> tuple[MailCommand, ...]:
    """The commands of a reply about a game of this variant: the service's, then the variant's own."""
    return (*GAME_COMMANDS, *(variant_command(command) for command in presenter.commands()))


def help_paragraphs(presenter: Presenter | None = None) -> list[str]:
    """How to play by mail, the game's own rules in brief, and every command with its line of help (in a game,
    the variant's too)."""
    commands = game_commands(presenter) if presenter else LOBBY_COMMANDS
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
