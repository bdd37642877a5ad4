"""The lobby's desk: mail to the bare address, its commands answered at once or held until confirmed.

A mail to the bare address proves nothing about its From. Its commands (the book's ``lobby`` ones) that
only answer are answered at once, to that address; those that change something are checked,
written again in the referee's words and held (``confirmations``) until their sender replies to
the "please confirm" mail, which only the owner of the address receives.
"""

from __future__ import annotations

from collections.abc import Callable

from app.games.commands.base import CommandBook, InLobby, Jobs, MailCommand, find
from app.games.commands.reading import Command, read_commands
from app.games.commands.registry import help_paragraphs
from app.games.commands.understood import mistyped, mistyped_problem, not_understood
from app.games.errors import ServiceError
from app.games.lobby import confirmations
from app.outbound.compose import Thread
from app.outbound.outbox import Mail, enqueue
from app.outbound.render import Document, render_message

# Whether an answer may go to the sender now: None when not, else the paragraphs to add to it
MayAnswer = Callable[[], list[str] | None]
HELP_POINTER = "Send 'help' to the referee's address for every command, and 'rules GAME' for the rules of a game."
LINES_NOT_READ = ("Some lines could not be read here. Orders for a game go in a reply to that game's move request, "
                  "and 'accept' or 'decline' in a reply to the invitation.")


def unquoted(errors: list[str]) -> list[str]:
    """Reading errors with no line of the mail in them (``read_commands`` quotes a line as its error's start):
    a mail to the bare address may have come from anyone, so its lines are not sent back to its From."""
    kept = [error for error in errors if not error.startswith(("'", "... and"))]
    return [LINES_NOT_READ, *kept] if len(kept) < len(errors) else kept


def held_command(line: str, book: CommandBook) -> tuple[MailCommand, str] | None:
    """The held command a line of a confirmation names, with its argument."""
    kind, _, argument = line.partition(" ")
    found = find(book.lobby, Command(kind, line, argument))
    return (found[0], found[1].argument) if found and found[0].held else None


class Desk:
    """Commands outside any game, each carried out by the job it belongs to."""

    def __init__(self, jobs: Jobs) -> None:
        self.jobs = jobs
        self.work = jobs.work

    def lobby(self, sender: str, sender_name: str, text: str, answering: str | None,
              may_answer: MayAnswer = lambda: [], answers_us: bool = False,
              proven: bool = False) -> tuple[str, str]:
        """The commands of a mail to the bare address: help and the games list answered at once; challenges,
        names and vacations held until the sender confirms them by replying (``confirmations``), or carried
        out at once when the mail is ``proven`` to come from its sender's domain (DKIM or SPF).

        Answers go to ``sender``, threaded under the message they answer (``answering``), each only while
        ``may_answer()`` allows it (None: no answer now), with the paragraphs it adds (that the answer limit is
        reached, in the answer that reaches it). A mail that answers one of our automatic answers (``answers_us``) with
        no command in it gets no answer: two robots answering each other stop at once. Returns (status,
        what was done) for the inbound record.

        Such a mail proves nothing about its From, so nothing in it reaches that address in our mail: the
        answers quote none of its lines, and ``sender_name`` (the From header's name) is not taken as the
        player's name; a player's mail client names them only in a reply to a mail of ours
        (``adopt_client_name``), or they choose a name by a confirmed ``name`` command.
        """
        lobby = self.jobs.book.lobby
        reading = read_commands(text, None, self.jobs.book.lobby_words)
        player = self.work.player(sender)
        if answers_us and all(command.kind == "help" for command in reading.commands):
            return "ignored", "not answered: a reply to an answer of ours with no command in it"

        def notify(kind: str, subject: str, paragraphs: list[str], document: Document | None = None) -> None:
            added = may_answer()
            if added is not None:
                self.jobs.mailer.notify(sender, kind, subject, [*paragraphs, *added], answering, document)

        if not (reading.errors or reading.commands or reading.chatter):  # nothing in it: how to play
            notify("help", "how to play", help_paragraphs(book=self.jobs.book))
            self.work.flush()
            return "done", "lobby help"
        if reading.errors or not reading.commands:  # a short word on what was not understood, not the whole help
            errors = reading.errors if proven else unquoted(reading.errors)
            notify("help", "not understood", [*errors, *not_understood(reading.chatter, lobby, proven),
                                              HELP_POINTER])
            self.work.flush()
            return "rejected" if reading.errors else "done", "not understood"
        context = InLobby(self.jobs, player, notify, proven=proven)
        context.problems += mistyped_problem(mistyped(reading.chatter, lobby), lobby, proven)
        for line in reading.commands:
            found = find(lobby, line)
            if found is None:  # the first word of a command of several words, without the rest
                forms = [f"{spelling} {command.argument}".strip() for command in lobby
                         for spelling in command.spellings if spelling.split()[0] == line.kind]
                context.problems.append(f"{line.kind}: write {' or '.join(forms)}")
                continue
            command, line = found
            if command.held:
                try:
                    context.held.append(f"{command.name} {command.held.check(context, line.argument)}")
                except ServiceError as error:
                    context.problems.append(f"{command.name}: {error.told(proven)}")
            elif command.in_lobby:
                command.in_lobby(context, line)
                context.done.append(command.name)
        if context.problems:
            notify("error", "not carried out", context.problems)
            context.done.append(f"refused: {'; '.join(context.problems)}")
        if context.held and proven:  # its From is proven: no round trip; each command says what it did
            self.carry_out(context, context.held)
            self.work.flush()
            return ("rejected" if context.problems else "done"), "; ".join(context.done)
        asked = bool(context.held) and self.ask_confirmation(sender, context, answering, may_answer)
        if asked:
            context.done.append(f"held for confirmation: {'; '.join(context.held)}")
        elif context.held:
            context.done.append("not held: no more answers to this address now")
        self.work.flush()
        return ("rejected" if context.problems and not asked else "done"), "; ".join(context.done)

    def ask_confirmation(self, sender: str, context: InLobby, answering: str | None, may_answer: MayAnswer) -> bool:
        """Hold the commands ``context`` holds and ask their sender to confirm them by replying (only their address
        receives it); nothing is held when no more answers may go to that address now (False)."""
        added = may_answer()
        if added is None:
            return False
        work, lines = self.work, context.held
        key = confirmations.hold(work.connection, sender, lines, work.now)
        subject = "Mirrorpost: please confirm"
        found = [held_command(line, self.jobs.book) for line in lines]
        described = [each[0].held.described(context, each[1]) for each in found if each and each[0].held]
        text, html = render_message(subject, [
            "The referee was asked, from your address, to:",
            *[f"- {line}" for line in described],
            "To confirm, reply to this mail; your reply needs no text. Nothing is done without your reply, and "
            f"this request expires in {confirmations.LIFETIME.days} days. If you did not ask for this, ignore "
            "this mail.",
        ])
        enqueue(work.connection, self.jobs.settings, Mail(
            sender, None, "confirm", subject, text, html, token=f"confirm.{key}",
            thread=Thread(answering) if answering else None, auto="auto-replied"))
        return True

    def confirmed(self, sender: str, key: str, answering: str | None,
                  may_answer: MayAnswer = lambda: []) -> tuple[str, str]:
        """A reply confirming held commands: carried out once, for their own sender, within their lifetime.

        A reply with a valid key comes from the owner of the address (only they got the key), so what it did
        is always told, whatever mail forgers have made go to that address; the key is used up, so this is at
        most once per confirmation request. A key not valid is answered only while ``may_answer()`` allows.
        """
        work = self.work
        lines = confirmations.take(work.connection, key, sender, work.now)

        def notify(kind: str, subject: str, paragraphs: list[str], document: Document | None = None) -> None:
            self.jobs.mailer.notify(sender, kind, subject, paragraphs, answering, document)

        if lines is None:
            added = may_answer()
            if added is not None:
                notify("error", "nothing to confirm", [
                    "There is nothing to confirm: the request has expired, was confirmed already, or was sent to "
                    "another address. Send your command again.", *added,
                ])
            return "rejected", "confirmation not valid"
        context = InLobby(self.jobs, work.player(sender), notify, proven=True)  # only the sender got the key
        self.carry_out(context, lines)
        work.flush()
        return "done", "confirmed: " + "; ".join(context.done)

    @staticmethod
    def carry_out(context: InLobby, lines: list[str]) -> None:
        """Held command lines carried out, in order, each telling its sender what it did."""
        for line in lines:
            found = held_command(line, context.jobs.book)
            if found is not None and found[0].held:
                context.done.append(found[0].held.carry_out(context, found[1]))
