"""The mail commands understood in a reply about a game: ``say``, ``board``, ``history``, ``public``, ``rules``,
``vacation``, a stray ``accept`` or ``decline``, and the commands a variant's presenter adds."""

from __future__ import annotations

from app.games.commands.base import ALSO, InGame, MailCommand
from app.games.commands.reading import Command
from app.present.base import VariantCommand
from app.rules import messages
from app.rules.base import other

SAY_LIMIT = 2000  # characters of a ``say`` passed on


def say(context: InGame, command: Command) -> None:
    """Passed on word for word, inside the mail the rest of the reply causes if there is one, and kept in the
    record as told to the opponent."""
    game, side, mails = context.game, context.side, context.mails
    text = command.argument.strip()[:SAY_LIMIT]
    if not text:
        mails.message(side, "error", "nothing to say", ["'say' needs a message after it."])
        return
    said = messages.said(side, text)
    context.jobs.events.record_plain(game, side, command.text, "said", {other(side): [said], side: []})
    name, opponent = game.player(side).name, game.player(other(side)).name
    mails.passed_on(other(side), f"a message from {name}", [f"{name} says:", text], said)
    mails.note(side, "your message was passed on", [f"Your message was passed on to {opponent}."])


def board(context: InGame, command: Command) -> None:
    if context.jobs.work.orderer(context.game) == context.side:
        context.mails.request(context.side, ["Your current move request, as asked."], "your move (as asked)",
                              kind="board")
    else:
        context.mails.message(context.side, "board", "your position", ["Your position, as asked."],
                              show_position=True)


def history(context: InGame, command: Command) -> None:
    context.mails.message(context.side, "history", "your history", [
        f"Your history of game {context.game.id}, move by move: "
        f"{context.jobs.mailer.history_url(context.game, context.side)}",
    ], show_position=True)


def game_rules(context: InGame, command: Command) -> None:
    mailer, game = context.jobs.mailer, context.game
    context.mails.message(context.side, "rules", "the rules", [
        f"The rules of {mailer.title(game)}, as on {mailer.rules_url(game)}:"],
        document=mailer.rules_document(game.variant))


def public(context: InGame, command: Command) -> None:
    """A player's consent to a public reveal; answered with where it stands now (public once both agree)."""
    game, agree = context.game, command.argument.strip().lower() != "off"
    context.jobs.preferences.share_reveal(game, context.side, agree)
    if not agree:
        said = "After the game the reveal is shown to the two players only."
    elif game.public_white and game.public_black:
        where = f": {context.jobs.mailer.reveal_url(game)}" if game.status == "over" else " once the game is over"
        said = f"You both agree: the reveal of this game is public, for anyone with the link{where}."
    else:
        said = ("You agree that, after the game, anyone with the link may see the full reveal "
                "(it is public only if both players agree).")
    context.mails.message(context.side, "notice", "reveal sharing", [said])


def game_vacation(context: InGame, command: Command) -> None:
    context.jobs.clocks.vacation(context.player, command.argument, context.side, context.game, context.mails)


def nothing_to_answer(context: InGame, command: Command) -> None:
    context.mails.message(context.side, "notice", "nothing to " + command.kind, [
        f"There is no invitation in game {context.game.id} to {command.kind}. To answer a draw offer, write "
        f"'{command.kind} draw'."
    ])



def variant_command(command: VariantCommand) -> MailCommand:
    """A command a variant's presenter adds: answered from the player's own view; it may change their
    preferences."""

    def answer(context: InGame, line: Command) -> None:
        work = context.jobs.work
        view = work.variant(context.game).view(work.state(context.game), context.side)
        names = context.jobs.mailer.names(context.game, context.side)
        answered = command.answer(view, line.argument, context.player.preferences, names)
        if answered.preferences:
            context.player.preferences = {**context.player.preferences, **answered.preferences}
        context.mails.message(context.side, "notice", answered.subject, answered.lines)

    return MailCommand(command.name, command.argument, command.help, in_game=answer, form=ALSO)

