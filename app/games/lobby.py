"""The lobby: mail to the bare address, confirmations, names and preferences.

A mail to the bare address proves nothing about its From. Its commands (``LOBBY_COMMANDS``) that
only answer are answered at once, to that address; those that change something are checked,
written again in the referee's words and held (``confirmations``) until their sender replies to
the "please confirm" mail, which only the owner of the address receives.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import select

from app.games import confirmations
from app.games.commands import Command, InLobby, MailCommand, find
from app.games.errors import ServiceError
from app.games.job import Job
from app.games.listing import game_line
from app.games.mail_commands import LOBBY_COMMANDS, LOBBY_WORDS, help_paragraphs
from app.games.models import Game
from app.games.reading import read_commands
from app.games.records import GameRecord, PlayerRecord
from app.games.work import display_name
from app.outbound.compose import Thread
from app.outbound.outbox import Mail, enqueue
from app.outbound.render import Document, render_message
from app.rules.registry import DEFAULT_VARIANT

GAMES_LISTED = 100  # games listed in the answer to ``games`` (the rest are on the web page)
# Whether an answer may go to the sender now: None when not, else the paragraphs to add to it
MayAnswer = Callable[[], list[str] | None]
LINES_NOT_READ = ("Some lines could not be read here. Orders for a game go in a reply to that game's move request, "
                  "and 'accept' or 'decline' in a reply to the invitation.")


def unquoted(errors: list[str]) -> list[str]:
    """Reading errors with no line of the mail in them (``read_commands`` quotes a line as its error's start):
    a mail to the bare address may have come from anyone, so its lines are not sent back to its From."""
    kept = [error for error in errors if not error.startswith(("'", "... and"))]
    return [LINES_NOT_READ, *kept] if len(kept) < len(errors) else kept


def held_command(line: str) -> tuple[MailCommand, str] | None:
    """The held command a line of a confirmation names, with its argument."""
    kind, _, argument = line.partition(" ")
    found = find(LOBBY_COMMANDS, Command(kind, line, argument))
    return (found[0], found[1].argument) if found and found[0].held else None


class Lobby(Job):
    """Commands outside any game, and the preferences of players."""

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
        reading = read_commands(text, None, LOBBY_WORDS)
        player = self.service.player(sender)
        if answers_us and all(command.kind == "help" for command in reading.commands):
            return "ignored", "not answered: a reply to an answer of ours with no command in it"

        def notify(kind: str, subject: str, paragraphs: list[str], document: Document | None = None) -> None:
            added = may_answer()
            if added is not None:
                self.service.mailer.notify(sender, kind, subject, [*paragraphs, *added], answering, document)

        if reading.errors or not reading.commands:
            notify("help", "how to play", [*unquoted(reading.errors), *help_paragraphs()])
            self.service.flush()
            return "rejected" if reading.errors else "done", "lobby help"
        context = InLobby(self.service, player, notify)
        for line in reading.commands:
            found = find(LOBBY_COMMANDS, line)
            if found is None:  # the first word of a command of several words, without the rest
                forms = [command.usage for command in LOBBY_COMMANDS if command.name.split()[0] == line.kind]
                context.problems.append(f"{line.kind}: write {' or '.join(forms)}")
                continue
            command, line = found
            if command.held:
                try:
                    context.held.append(f"{command.name} {command.held.check(context, line.argument)}")
                except ServiceError as error:
                    context.problems.append(f"{command.name}: {error}")
            elif command.in_lobby:
                command.in_lobby(context, line)
                context.done.append(command.name)
        if context.problems:
            notify("error", "not carried out", context.problems)
            context.done.append(f"refused: {'; '.join(context.problems)}")
        if context.held and proven:  # its From is proven: no round trip; each command says what it did
            self.carry_out(context, context.held)
            self.service.flush()
            return ("rejected" if context.problems else "done"), "; ".join(context.done)
        asked = bool(context.held) and self.ask_confirmation(sender, context.held, answering, may_answer)
        if asked:
            context.done.append(f"held for confirmation: {'; '.join(context.held)}")
        elif context.held:
            context.done.append("not held: no more answers to this address now")
        self.service.flush()
        return ("rejected" if context.problems and not asked else "done"), "; ".join(context.done)

    def ask_confirmation(self, sender: str, lines: list[str], answering: str | None,
                         may_answer: MayAnswer) -> bool:
        """Hold ``lines`` and ask their sender to confirm them by replying (only their address receives it);
        nothing is held when no more answers may go to that address now (False)."""
        added = may_answer()
        if added is None:
            return False
        service = self.service
        key = confirmations.hold(service.connection, sender, lines, service.now)
        subject = "Mirrorpost: please confirm"
        described = [found[0].held.describe(found[1]) for found in map(held_command, lines)
                     if found and found[0].held]
        text, html = render_message(subject, [
            "The referee was asked, from your address, to:",
            *[f"- {line}" for line in described],
            "To confirm, reply to this mail; your reply needs no text. Nothing is done without your reply, and "
            f"this request expires in {confirmations.LIFETIME.days} days. If you did not ask for this, ignore "
            "this mail.",
        ])
        enqueue(service.connection, service.settings, Mail(
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
        service = self.service
        lines = confirmations.take(service.connection, key, sender, service.now)

        def notify(kind: str, subject: str, paragraphs: list[str], document: Document | None = None) -> None:
            service.mailer.notify(sender, kind, subject, paragraphs, answering, document)

        if lines is None:
            added = may_answer()
            if added is not None:
                notify("error", "nothing to confirm", [
                    "There is nothing to confirm: the request has expired, was confirmed already, or was sent to "
                    "another address. Send your command again.", *added,
                ])
            return "rejected", "confirmation not valid"
        context = InLobby(service, service.player(sender), notify)
        self.carry_out(context, lines)
        service.flush()
        return "done", "confirmed: " + "; ".join(context.done)

    @staticmethod
    def carry_out(context: InLobby, lines: list[str]) -> None:
        """Held command lines carried out, in order, each telling its sender what it did."""
        for line in lines:
            found = held_command(line)
            if found is not None and found[0].held:
                context.done.append(found[0].held.carry_out(context, found[1]))

    def games_list(self, player: PlayerRecord) -> list[str]:
        """Each game of the player in a line: whose move it is and by when (games under way locked, in id order)."""
        games = self.service.connection.execute(
            select(Game.id, Game.status)
            .where((Game.white_id == player.id) | (Game.black_id == player.id)).order_by(Game.id)
        ).all()
        if not games:
            return [f"You have no games yet. Send 'challenge friend@example.org {DEFAULT_VARIANT}' to start one."]
        lines = []
        for game_id, _status in games[:GAMES_LISTED]:
            game = self.service.work.lock(game_id)
            lines.append(game_line(self.service.work, game, game.side_of(player) or "white"))
        if len(games) > GAMES_LISTED:
            more = len(games) - GAMES_LISTED
            lines.append(f"... and {more} more, on the web: {self.service.settings.base_url}/games")
        return lines

    # ------------------------------------------------------------------ preferences

    def adopt_client_name(self, player: PlayerRecord, name: str) -> None:
        """A player still called after their address takes the name their own mail client gives them."""
        if player.name == display_name("", player.email) and name.strip():
            player.name = display_name(name, player.email)

    def set_profile(self, player: PlayerRecord, public: bool) -> str:
        """Show or hide the player's page on the web; says what was done."""
        player.profile_public = public
        self.service.flush()
        url = f"{self.service.settings.base_url}/players/{player.id}"
        return (f"Your page is public: anyone may see your name, ratings and finished games at {url}." if public
                else f"Your page is private: only you see it, signed in, at {url}.")

    def prove(self, player: PlayerRecord) -> None:
        """Mail in the player's name was proven: from now on their mail that is not proven is refused (unless
        they choose, signed in, to have it accepted)."""
        if player.proven_at is None:
            player.proven_at = self.service.now
            self.service.flush()

    def accept_unsigned(self, player: PlayerRecord, accept: bool) -> str:
        """The player's choice about their mail that is not proven; says what was done."""
        player.unsigned_ok = accept
        self.service.flush()
        return ("Your mail is accepted again without your provider's signature." if accept else
                "Mail in your name that your provider did not sign is refused again.")

    def share_reveal(self, game: GameRecord, side: str, agree: bool) -> None:
        """A player's consent to show the reveal to anyone with the link (both must agree)."""
        setattr(game, f"public_{side}", agree)
        self.service.flush()
