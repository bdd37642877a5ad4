"""A player's reply about a game, read and carried out: the one path for mail and the web form.

The new text is read into commands (``read_commands``); what cannot be read is answered with a
guess from the player's own view; the rest goes, in order, to the invitation, the turn (orders for
the referee) or the mail commands (``game_commands``).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable

from app.games.commands.base import CommandBook, InGame, Jobs, find, first_words
from app.games.commands.reading import MOVE, REFEREE, Reading, read_commands
from app.games.commands.registry import game_commands
from app.games.errors import ServiceError
from app.games.mail.mails import Mails
from app.games.records.rows import GameRecord, PlayerRecord
from app.present.base import Presenter
from app.present.registry import presenter_for
from app.present.words import capitalised
from app.rules.base import Side
from app.tokens import ReplyToken


def order_key(text: str) -> str:
    """An order as compared for a guess: letters and digits only, lower case ("M:g8-f6" -> "mg8f6")."""
    return "".join(character for character in text.lower() if character.isalnum())


def read_as(reading: Reading) -> list[str]:
    """What was read other than as written (look-alike letters, full-width forms), in one sentence for the
    sender: their own lines, so it goes to them alone."""
    return [f"Read as: {'; '.join(reading.notes)}."] if reading.notes else []


def game_words(presenter: Presenter, book: CommandBook) -> frozenset[str]:
    """The command words understood in a reply: the service's and the variant's own."""
    return first_words(game_commands(presenter, book))


class Replies:
    """Replies about a game, each in the transaction that locked the game."""

    def __init__(self, jobs: Jobs) -> None:
        self.jobs = jobs
        self.work = jobs.work

    def carry_out(self, game: GameRecord, player: PlayerRecord, text: str, token: ReplyToken,
                  error_notice: Callable[[], bool]) -> tuple[str, str]:
        """Read the new text and carry it out; ``error_notice`` says whether an error notice may be sent now.
        Returns (status, what was done) for the inbound record."""
        mailer = self.jobs.mailer
        reading = read_commands(text, self.work.variant(game), game_words(presenter_for(game.variant), self.jobs.book))
        if game.status == "invited":
            return self.jobs.invitations.reply(game, token.side, reading, text, error_notice)
        if game.status == "over" and (reading.errors or not reading.commands):  # "Thanks, good game!"
            if error_notice():
                self.jobs.turn.after_the_end(game, token.side, None)
            return "rejected", "a reply after the end with no command in it"
        if reading.errors:
            if error_notice():
                guesses = self.guesses(game, token.side, reading.unreadable)
                forms = game.status == "active"  # the order forms are shown once play has begun
                mailer.message(game, token.side, "error", f"Game {game.id}: your order could not be read", [
                    *read_as(reading),
                    *(capitalised(error) + "." for error in reading.errors),
                    *(f"Did you mean {guess}?" for guess in guesses),
                    "Nothing in your message was applied, and it costs you nothing. "
                    + ("Send it again in one of these forms:" if forms else "Send it again."),
                ], show_forms=forms)
            return "rejected", "unreadable: " + "; ".join(reading.errors)
        if not reading.commands:
            if error_notice():
                mailer.message(game, token.side, "error", f"Game {game.id}: no order found", [
                    "Your message had no order or command in it that the referee could find. Put your order on "
                    "the first line of your reply. Quoted text is never read.",
                ], show_forms=True)
            return "rejected", "no command found"
        try:
            summary = self.handle(game, player, reading, token)
        except ServiceError as error:
            mailer.notice(game, token.side, "error", "not carried out", [str(error)])
            return "rejected", str(error)
        return "done", "; ".join(summary)

    def handle(self, game: GameRecord, player: PlayerRecord, reading: Reading, token: ReplyToken) -> list[str]:
        """Carry out the commands of one authenticated message about a game locked with ``lock``; returns what
        was done."""
        commands = reading.commands
        side = game.side_of(player)
        assert side is not None and side == token.side
        turn, mailer = self.jobs.turn, self.jobs.mailer
        moves = [command for command in commands if command.kind == MOVE]
        most = self.work.variant(game).move_lines  # more than one: tried in turn (KS-5)
        if len(moves) > most and most == 1:
            mailer.notice(game, side, "error", "two move orders in one message", [
                "Your message had two move orders: " + ", ".join(c.text for c in moves) + ".",
                "Send one move order per message. Nothing in that message was applied.",
            ])
            return ["error: two move orders"]
        if len(moves) > most:
            mailer.notice(game, side, "error", f"{len(moves)} moves in one message", [
                f"Your message had {len(moves)} move lines; a reply may hold at most {most}, one move to a line, "
                "tried in your order until one can be played. Nothing in that message was applied.",
            ])
            return [f"error: {len(moves)} move lines"]
        if game.status in ("declined",):
            mailer.notice(game, side, "not-accepted", "this game was declined",
                          ["That game was declined and never started."])
            return []
        summary = []
        if game.status == "over" and any(command.kind in (REFEREE, MOVE) for command in commands):
            turn.after_the_end(game, side, next(c for c in commands if c.kind in (REFEREE, MOVE)))
            summary.append("an order after the end")
            commands = [command for command in commands if command.kind not in (REFEREE, MOVE)]
            if not commands:
                return summary
        if moves and token.ply < game.ply and game.status != "over":
            turn.stale(game, side, moves[0])
            return ["stale reply"]
        mails = Mails()
        if reading.notes:  # to the sender alone, inside the mail their reply gives them
            mails.note(side, "how your reply was read", read_as(reading))
        context = InGame(self.jobs, game, side, player, mails)
        known = game_commands(presenter_for(game.variant), self.jobs.book)
        for command in commands:
            if command.kind == MOVE and command is not moves[0]:
                continue  # tried with the first, in turn
            if command.kind in (REFEREE, MOVE):
                summary.append(turn.order(game, side, command, mails, moves[1:] if command.kind == MOVE else ()))
                if game.status == "over":
                    break
                continue
            summary.append(command.kind)
            found = find(known, command)
            if found is not None and found[0].in_game:
                found[0].in_game(context, found[1])
            else:
                mails.message(side, "notice", "not understood here", [f"'{command.text}' is not used in a game reply."])
        turn.send(game, mails)
        return summary

    def guesses(self, game: GameRecord, side: Side, lines: list[str]) -> list[str]:
        """For each unreadable order line, the closest order the player might have meant, worked out from
        their own view (so a guess tells nothing the view does not)."""
        if game.status != "active":
            return []
        variant = self.work.variant(game)
        plausible = variant.plausible_orders(variant.view(self.work.state(game), side), side)
        keyed = {order_key(order): order for order in plausible}
        found = []
        for line in lines:
            close = difflib.get_close_matches(order_key(line), list(keyed), n=1, cutoff=0.75)
            if close and keyed[close[0]] not in found:
                found.append(keyed[close[0]])
        return found

