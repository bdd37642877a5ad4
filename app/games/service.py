"""The game service: the only writer of game state.

Each call runs inside the caller's transaction: it locks the game row, asks the
referee, stores the new state and the event record, and writes the outbox rows
for every mail the change causes. Mail and web both come in through here.

Games and players are plain records (``app.games.records``); every entry point
ends with ``flush``, which writes what changed in the records it handed out.
"""

from __future__ import annotations

import difflib
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, func, select

from app.addresses import AddressError, valid_address
from app.config import Settings
from app.db import utcnow
from app.games import confirmations, records
from app.games.clock import REMINDER_BEFORE, deadline_for, describe_deadline
from app.games.commands import GAME, LOBBY, MOVE, REFEREE, SERVICE_COMMANDS, Command
from app.games.commitment import commitment
from app.games.confirmations import NEEDS_PROOF
from app.games.links import rules_link
from app.games.mailing import Mailer, Mails, help_paragraphs
from app.games.models import Game
from app.games.reading import read_commands
from app.games.records import GameRecord, PlayerRecord
from app.outbound.compose import Thread
from app.outbound.headers import clean_name
from app.outbound.outbox import Mail, enqueue
from app.outbound.render import Document, render_message
from app.present.base import Presenter, VariantCommand
from app.present.registry import presenter_for
from app.present.words import Names, capitalised
from app.rules.base import MOVES, SIDES, OptionError, Outcome, Side, other
from app.rules.registry import DEFAULT_VARIANT, VARIANTS, get_variant
from app.tokens import ReplyToken, TokenSigner

SIDE_TITLE = {"white": "White", "black": "Black"}
GAME_WORDS = frozenset(spec.name for spec in SERVICE_COMMANDS if GAME in spec.where)
LOBBY_WORDS = frozenset(spec.name for spec in SERVICE_COMMANDS if LOBBY in spec.where)
MAX_DAYS = 30


def display_name(name: str, email: str) -> str:
    """How a player is called: the name given (cleaned for headers, bounded), else their address's local
    part, with a capital first letter ("bob@example.org" -> "Bob")."""
    chosen = clean_name(name) or clean_name(email.split("@")[0])
    return chosen[:1].upper() + chosen[1:]


def order_key(text: str) -> str:
    """An order as compared for a guess: letters and digits only, lower case ("M:g8-f6" -> "mg8f6")."""
    return "".join(character for character in text.lower() if character.isalnum())


class ServiceError(ValueError):
    """A request the service answers with a notice instead of carrying out."""


@dataclass(frozen=True)
class ChallengePlan:
    """A challenge as read and checked, before anything is created."""

    opponent: str
    variant: str
    options: dict[str, str]
    color: str

    def line(self) -> str:
        """The challenge in the referee's own words: what a confirmation holds."""
        options = " ".join(f"{key}={value}" for key, value in sorted(self.options.items()))
        return " ".join(part for part in ("challenge", self.opponent, self.variant, options, f"color={self.color}")
                        if part)


def describe_held(line: str) -> str:
    """A held command in the referee's own words, for the confirmation request. That request goes to an address
    that has not yet shown the command is its own, so nothing of the command's text (a name, the address
    challenged, an option) is repeated: a forger cannot use it to send their words to anyone."""
    kind, _, argument = line.partition(" ")
    if kind == "challenge":
        words = argument.split()
        variant = VARIANTS[words[1]].title if len(words) > 1 and words[1] in VARIANTS else "chess"
        return f"invite the address named in your request to a game of {variant}"
    if kind == "vacation":
        return f"pause your clock for {int(argument)} days (vacation)"
    return "set your display name to the name given in your request"


LINES_NOT_READ = ("Some lines could not be read here. Orders for a game go in a reply to that game's move request, "
                  "and 'accept' or 'decline' alone in a reply to the invitation.")


def unquoted(errors: list[str]) -> list[str]:
    """Reading errors with no line of the mail in them (``read_commands`` quotes a line as its error's start):
    a mail to the bare address may have come from anyone, so its lines are not sent back to its From."""
    kept = [error for error in errors if not error.startswith(("'", "... and"))]
    return [LINES_NOT_READ, *kept] if len(kept) < len(errors) else kept


@dataclass
class Reply:
    """What handling one message did, for the inbound record."""

    summary: list[str] = field(default_factory=list)

    def note(self, text: str) -> None:
        self.summary.append(text)


NOT_RETOLD = ("error", "rejected", "setup", "setup-done", "start")  # said once, not repeated in requests


def told_since_move(previous: dict[str, Any], told: dict[str, list], result: str) -> dict[str, Any]:
    """Each side's messages since its own last completed move, after one more event.

    A side's own completed move starts its list afresh; notices only for the moment (errors,
    rejections, setup) are not carried into later move requests.
    """
    carried = {}
    for side in SIDES:
        messages = told.get(side, [])
        if result in MOVES and any(m["kind"] == "moved" and m["color"] == side for m in messages):
            carried[side] = []
        else:
            carried[side] = [*previous.get(side, []), *(m for m in messages if m["kind"] not in NOT_RETOLD)]
    return carried


class GameService:
    """Game lifecycle and orders; every method works inside the caller's transaction."""

    def __init__(self, connection: Connection, settings: Settings, signer: TokenSigner,
                 now: datetime | None = None) -> None:
        self.connection = connection
        self.settings = settings
        self.signer = signer
        self.now = now or utcnow()
        self.mailer = Mailer(connection, settings, signer, self.now)
        self.games: list[GameRecord] = []  # every record handed out, written back by ``flush``
        self.players: list[PlayerRecord] = []

    def flush(self) -> None:
        """Write every change made to the records this service handed out (cheap when there is none)."""
        for game in self.games:
            game.next_clock_at = self.next_look(game)
            records.save_game(self.connection, game)
        for player in self.players:
            records.save_player(self.connection, player)

    # ------------------------------------------------------------------ players

    def player(self, email: str, name: str | None = None) -> PlayerRecord:
        email = email.strip().lower()
        for known in self.players:
            if known.email == email:
                return known
        player = records.find_or_add_player(self.connection, email, display_name(name or "", email))
        return self.known_player(player)

    def adopt_client_name(self, player: PlayerRecord, name: str) -> None:
        """A player still called after their address takes the name their own mail client gives them."""
        if player.name == display_name("", player.email) and name.strip():
            player.name = display_name(name, player.email)

    def known_player(self, player: PlayerRecord) -> PlayerRecord:
        """One record per player in this service, so changes made through either are both written."""
        for known in self.players:
            if known.id == player.id:
                return known
        self.players.append(player)
        return player

    def lock(self, game_id: int) -> GameRecord:
        """The game, its row locked for the rest of the transaction (waiting for another holder)."""
        game = self.held(game_id) or records.lock_game(self.connection, game_id)
        if game is None:
            raise ServiceError(f"there is no game {game_id}")
        return self.known_game(game)

    def try_lock(self, game_id: int) -> GameRecord | None:
        """``lock``, or None when another worker holds the game now (PostgreSQL's SKIP LOCKED)."""
        game = self.held(game_id) or records.lock_game(self.connection, game_id, skip_locked=True)
        return None if game is None else self.known_game(game)

    def lock_quoting(self, game_id: int, message_ids: list[str]) -> tuple[GameRecord, list[str]]:
        """``lock``, with the text parts of this game's mails that have these Message-IDs (what a reply
        quotes), read in the same round trip."""
        game, texts = records.lock_game_quoted(self.connection, game_id, message_ids)
        if game is None:
            raise ServiceError(f"there is no game {game_id}")
        return self.known_game(self.held(game_id) or game), texts

    def held(self, game_id: int) -> GameRecord | None:
        """The record of a game this service already holds: one record per game row."""
        return next((game for game in self.games if game.id == game_id), None)

    def known_game(self, game: GameRecord) -> GameRecord:
        if game not in self.games:
            game.white, game.black = self.known_player(game.white), self.known_player(game.black)
            self.games.append(game)
        return game

    # ------------------------------------------------------------------ creating games

    def split_options(self, variant_name: str, raw: dict[str, str]) -> tuple[int, dict[str, Any]]:
        if variant_name not in VARIANTS:
            raise ServiceError(f"unknown variant {variant_name!r}; known: {', '.join(sorted(VARIANTS))}")
        options = dict(raw)
        days_text = options.pop("days", "3")
        if not str(days_text).isdigit() or not 1 <= int(days_text) <= MAX_DAYS:
            raise ServiceError(f"days must be a whole number of days from 1 to {MAX_DAYS}")
        try:
            referee_options = get_variant(variant_name).parse_options(options)
        except OptionError as error:
            raise ServiceError(str(error)) from error
        return int(days_text), referee_options

    def create_game(
        self, variant: str, white: PlayerRecord, black: PlayerRecord, raw_options: dict[str, str],
        challenger: PlayerRecord | None,
    ) -> GameRecord:
        if white.id == black.id:
            raise ServiceError("a game needs two different players")
        days, options = self.split_options(variant, raw_options)
        state = get_variant(variant).new_game(options, random.SystemRandom())
        game = self.known_game(records.add_game(self.connection, {
            "variant": variant,
            "options": options,
            "days": days,
            "status": "invited",
            "white_id": white.id,
            "black_id": black.id,
            "challenger_id": challenger.id if challenger else None,
            "white_accepted": challenger is not None and challenger.id == white.id,
            "black_accepted": challenger is not None and challenger.id == black.id,
            "state": get_variant(variant).to_json(state),
            "ply": 0,
            "commitments": {},
        }, white, black))
        for side in SIDES:
            if not getattr(game, f"{side}_accepted"):
                self.mailer.send_invitation(game, side)
        if challenger is not None:
            self.mailer.message(
                game, game.side_of(challenger), "challenge-sent",
                f"Game {game.id}: your challenge was sent",
                [f"Your challenge to {game.player(other(game.side_of(challenger))).email} for a game of "
                 f"{get_variant(variant).title} ({self.mailer.options_text(game)}) was sent. You play "
                 f"{SIDE_TITLE[game.side_of(challenger)]}. You will hear when it is accepted or declined."],
            )
        self.flush()
        return game

    def read_challenge(self, challenger: str, words: list[str]) -> ChallengePlan:
        """``challenge bob@example.org <variant> days=3 color=black <its options>``, read but not carried out:
        the opponent a plain address (not the challenger's, not ours), the variant known, the colour one of ours.

        Its errors go to an address not yet proved to be the challenger's, so they quote nothing the challenger
        wrote; the options are checked when the game is created, after the challenger's confirming reply.
        """
        usage = "write: challenge <email address> [variant] [options such as days=3 color=black]"
        if not words:
            raise ServiceError(usage)
        try:
            opponent = valid_address(words[0].strip("<>"))
        except AddressError:
            raise ServiceError(f"the first word after 'challenge' is not an email address; {usage}") from None
        if opponent == challenger:
            raise ServiceError("a game needs two different players")
        local, _, domain = opponent.rpartition("@")
        if domain == self.settings.server_domain and (local == self.settings.server_local
                                                      or local.startswith(self.settings.server_local + "+")):
            raise ServiceError("the referee does not play")
        variant = DEFAULT_VARIANT
        options: dict[str, str] = {}
        color = "white"
        for word in words[1:]:
            if "=" in word:
                key, value = word.split("=", 1)
                if key.lower() in ("color", "colour", "as"):
                    color = value.lower()
                else:
                    options[key.lower()] = value.lower()
            else:
                variant = word.lower()
        if variant not in VARIANTS:
            raise ServiceError(f"there is no game by that name; the games: {', '.join(sorted(VARIANTS))}")
        if color not in (*SIDES, "random"):
            raise ServiceError("color must be white, black or random")
        return ChallengePlan(opponent, variant, options, color)

    def challenges_today(self, challenger: PlayerRecord) -> int:
        """Games this player proposed in the last 24 hours."""
        return self.connection.execute(select(func.count(Game.id)).where(
            Game.challenger_id == challenger.id, Game.created_at >= self.now - timedelta(days=1))).scalar() or 0

    def challenge(self, challenger: PlayerRecord, words: list[str]) -> GameRecord:
        """Create the game a (confirmed) challenge asks for, within the challenger's daily allowance; its options
        are checked now (``create_game``), and what is wrong with them told to the challenger alone."""
        plan = self.read_challenge(challenger.email, words)
        if self.challenges_today(challenger) >= self.settings.challenges_per_day:
            raise ServiceError(f"you have proposed {self.settings.challenges_per_day} games in the last 24 hours, "
                               "the most the referee sends; try again tomorrow")
        opponent = self.player(plan.opponent)
        color = random.SystemRandom().choice(SIDES) if plan.color == "random" else plan.color
        white, black = (challenger, opponent) if color == "white" else (opponent, challenger)
        return self.create_game(plan.variant, white, black, dict(plan.options), challenger)

    # ------------------------------------------------------------------ mail outside any game

    def lobby(self, sender: str, sender_name: str, text: str, answering: str | None,
              may_answer: Callable[[], bool] = lambda: True, answers_us: bool = False) -> tuple[str, str]:
        """The commands of a mail to the bare address: help and the games list answered at once; challenges,
        names and vacations held until the sender confirms them by replying (``confirmations``).

        Answers go to ``sender``, threaded under the message they answer (``answering``), each only while
        ``may_answer()`` allows it. A mail that answers one of our automatic answers (``answers_us``) with
        no command in it gets no answer: two robots answering each other stop at once. Returns (status,
        what was done) for the inbound record.

        Such a mail proves nothing about its From, so nothing in it reaches that address in our mail: the
        answers quote none of its lines, and ``sender_name`` (the From header's name) is not taken as the
        player's name; a player's mail client names them only in a reply to a mail of ours
        (``adopt_client_name``), or they choose a name by a confirmed ``name`` command.
        """
        reading = read_commands(text, None, LOBBY_WORDS)
        player = self.player(sender)
        if answers_us and all(command.kind == "help" for command in reading.commands):
            return "ignored", "not answered: a reply to an answer of ours with no command in it"

        def notify(kind: str, subject: str, paragraphs: list[str], document: Document | None = None) -> None:
            if may_answer():
                self.mailer.notify(sender, kind, subject, paragraphs, answering, document)

        if reading.errors or not reading.commands:
            notify("help", "how to play", [*unquoted(reading.errors), *help_paragraphs()])
            self.flush()
            return "rejected" if reading.errors else "done", "lobby help"
        done, held, problems = [], [], []
        for command in reading.commands:
            if command.kind in NEEDS_PROOF:
                try:
                    held.append(self.held_line(player, command, len(held)))
                except ServiceError as error:
                    problems.append(f"{command.kind}: {error}")
            elif command.kind == "games":
                notify("games", "your games", self.games_list(player))
                done.append("games")
            elif command.kind == "rules":
                name = command.argument.strip().lower() or DEFAULT_VARIANT
                if name in VARIANTS:
                    notify("rules", f"the rules of {VARIANTS[name].title}", [
                        f"The rules of {VARIANTS[name].title}, as on {rules_link(self.settings, name)}:"],
                        document=self.mailer.rules_document(name))
                else:
                    problems.append(f"rules: there is no game by that name; the games: {', '.join(sorted(VARIANTS))}")
                done.append("rules")
            else:
                notify("help", "how to play", help_paragraphs())
                done.append(command.kind)
        if problems:
            notify("error", "not carried out", problems)
            done.append(f"refused: {'; '.join(problems)}")
        asked = bool(held) and self.ask_confirmation(sender, held, answering, may_answer)
        if asked:
            done.append(f"held for confirmation: {'; '.join(held)}")
        elif held:
            done.append("not held: no more answers to this address now")
        self.flush()
        return ("rejected" if problems and not asked else "done"), "; ".join(done)

    def held_line(self, player: PlayerRecord, command: Command, held_before: int) -> str:
        """A command to hold, checked and written again in the referee's own words (no free text but a name and
        a challenge's options, which only its confirmed owner sees again)."""
        if command.kind == "challenge":
            if held_before >= self.settings.challenges_per_day:
                raise ServiceError(f"at most {self.settings.challenges_per_day} challenges at once")
            return self.read_challenge(player.email, command.argument.split()).line()
        if command.kind == "vacation":
            days = command.argument.strip()
            if not days.isdigit() or not 1 <= int(days) <= self.settings.vacation_days_per_year:
                raise ServiceError("write: vacation <number of days>")
            return f"vacation {int(days)}"
        name = clean_name(command.argument)
        if not name:
            raise ServiceError("write: name <your name>")
        return f"name {name}"

    def ask_confirmation(self, sender: str, lines: list[str], answering: str | None,
                         may_answer: Callable[[], bool]) -> bool:
        """Hold ``lines`` and ask their sender to confirm them by replying (only their address receives it);
        nothing is held when no more answers may go to that address now (False)."""
        if not may_answer():
            return False
        key = confirmations.hold(self.connection, sender, lines, self.now)
        subject = "Mirrorpost: please confirm"
        text, html = render_message(subject, [
            "The referee was asked, from your address, to:",
            *[f"- {describe_held(line)}" for line in lines],
            "To confirm, reply to this mail; your reply needs no text. Nothing is done without your reply, and "
            f"this request expires in {confirmations.LIFETIME.days} days. If you did not ask for this, ignore "
            "this mail.",
        ])
        enqueue(self.connection, self.settings, Mail(
            sender, None, "confirm", subject, text, html, token=f"confirm.{key}",
            thread=Thread(answering) if answering else None, auto="auto-replied"))
        return True

    def confirmed(self, sender: str, key: str, answering: str | None,
                  may_answer: Callable[[], bool] = lambda: True) -> tuple[str, str]:
        """A reply confirming held commands: carried out once, for their own sender, within their lifetime.

        A reply with a valid key comes from the owner of the address (only they got the key), so what it did
        is always told, whatever mail forgers have made go to that address; the key is used up, so this is at
        most once per confirmation request. A key not valid is answered only while ``may_answer()`` allows.
        """
        lines = confirmations.take(self.connection, key, sender, self.now)

        def notify(kind: str, subject: str, paragraphs: list[str]) -> None:
            self.mailer.notify(sender, kind, subject, paragraphs, answering)

        if lines is None:
            if may_answer():
                notify("error", "nothing to confirm", [
                    "There is nothing to confirm: the request has expired, was confirmed already, or was sent to "
                    "another address. Send your command again.",
                ])
            return "rejected", "confirmation not valid"
        player = self.player(sender)
        done = []
        for line in lines:
            kind, _, argument = line.partition(" ")
            if kind == "challenge":
                try:
                    game = self.challenge(player, argument.split())
                    done.append(f"challenge: game {game.id}")
                except ServiceError as error:
                    notify("error", "challenge not sent", [str(error)])
                    done.append(f"challenge refused: {error}")
            elif kind == "vacation":
                notify("vacation", "vacation", [self.vacation(player, argument, "white", None, None)])
                done.append("vacation")
            elif kind == "name":
                player.name = display_name(argument, player.email)
                notify("notice", "name changed", [f"You are now called {player.name}."])
                done.append("name")
        self.flush()
        return "done", "confirmed: " + "; ".join(done)

    def games_list(self, player: PlayerRecord) -> list[str]:
        games = self.connection.execute(
            select(Game.id, Game.variant, Game.status, Game.result)
            .where((Game.white_id == player.id) | (Game.black_id == player.id)).order_by(Game.id)
        ).all()
        if not games:
            return [f"You have no games yet. Send 'challenge friend@example.org {DEFAULT_VARIANT}' to start one."]
        return [f"Game {g.id}: {get_variant(g.variant).title}, {g.status}"
                + (f", {g.result}" if g.result else "") for g in games]

    # ------------------------------------------------------------------ handling a message

    def handle(self, game: GameRecord, player: PlayerRecord, commands: list[Command], token: ReplyToken) -> Reply:
        """Carry out the commands of one authenticated message about a game locked with ``lock``."""
        side = game.side_of(player)
        assert side is not None and side == token.side
        reply = Reply()
        moves = [command for command in commands if command.kind == MOVE]
        if len(moves) > 1:
            self.mailer.notice(game, side, "error", "two move orders in one message", [
                "Your message had two move orders: " + ", ".join(c.text for c in moves) + ".",
                "Send one move order per message. Nothing in that message was applied.",
            ])
            reply.note("error: two move orders")
            return reply
        if game.status == "invited":
            return self.handle_invitation(game, side, commands, reply)
        if game.status in ("declined",):
            self.mailer.notice(game, side, "not-accepted", "this game was declined",
                        ["That game was declined and never started."])
            return reply
        if game.status == "over" and any(command.kind in (REFEREE, MOVE) for command in commands):
            self.after_the_end(game, side, next(c for c in commands if c.kind in (REFEREE, MOVE)))
            reply.note("an order after the end")
            commands = [command for command in commands if command.kind not in (REFEREE, MOVE)]
            if not commands:
                return reply
        if moves and token.ply < game.ply and game.status != "over":
            self.stale(game, side, moves[0])
            reply.note("stale reply")
            return reply
        mails = Mails()
        for command in commands:
            if command.kind in (REFEREE, MOVE):
                self.referee_order(game, side, command, mails, reply)
            else:
                self.service_command(game, side, player, command, mails, reply)
            if game.status == "over" and command.kind in (REFEREE, MOVE):
                break
        self.send(game, mails)
        return reply

    def submit_text(self, game: GameRecord, player: PlayerRecord, text: str, token: ReplyToken,
                    error_notice: Callable[[], bool] = lambda: True) -> tuple[str, str]:
        """Read a player's new text and carry it out: the one path for mail and the web form.

        ``error_notice`` says whether an error notice may be sent now (rate limits), asked only when needed.
        Returns (status, what was done) for the inbound record.
        """
        outcome = self.carry_out(game, player, text, token, error_notice)
        self.flush()
        return outcome

    def carry_out(self, game: GameRecord, player: PlayerRecord, text: str, token: ReplyToken,
                  error_notice: Callable[[], bool]) -> tuple[str, str]:
        presenter = presenter_for(game.variant)
        reading = read_commands(text, get_variant(game.variant), self.game_words(presenter))
        if game.status == "over" and (reading.errors or not reading.commands):  # "Thanks, good game!"
            if error_notice():
                self.after_the_end(game, token.side, None)
            return "rejected", "a reply after the end with no command in it"
        if reading.errors:
            if error_notice():
                guesses = self.guesses(game, token.side, reading.unreadable)
                self.mailer.message(game, token.side, "error", f"Game {game.id}: your order could not be read", [
                    *(capitalised(error) + "." for error in reading.errors),
                    *(f"Did you mean {guess}?" for guess in guesses),
                    "Nothing in your message was applied, and it costs you nothing. Send it again in one of "
                    "these forms:",
                ], show_forms=True)
            return "rejected", "unreadable: " + "; ".join(reading.errors)
        if not reading.commands:
            if error_notice():
                self.mailer.message(game, token.side, "error", f"Game {game.id}: no order found", [
                    "Your message had no order or command in it that the referee could find. Put your order on "
                    "the first line of your reply. Quoted text is never read.",
                ], show_forms=True)
            return "rejected", "no command found"
        try:
            reply = self.handle(game, player, reading.commands, token)
        except ServiceError as error:
            self.mailer.notice(game, token.side, "error", "not carried out", [str(error)])
            return "rejected", str(error)
        return "done", "; ".join(reply.summary)

    def guesses(self, game: GameRecord, side: Side, lines: list[str]) -> list[str]:
        """For each unreadable order line, the closest order the player might have meant, worked out from
        their own view (so a guess tells nothing the view does not)."""
        variant = get_variant(game.variant)
        if game.status != "active":
            return []
        plausible = variant.plausible_orders(variant.view(variant.from_json(game.state), side), side)
        keyed = {order_key(order): order for order in plausible}
        found = []
        for line in lines:
            close = difflib.get_close_matches(order_key(line), list(keyed), n=1, cutoff=0.75)
            if close and keyed[close[0]] not in found:
                found.append(keyed[close[0]])
        return found

    @staticmethod
    def game_words(presenter: Presenter) -> frozenset[str]:
        """The command names understood in a reply: the service's and the variant's own."""
        return GAME_WORDS | {command.name for command in presenter.commands()}

    def handle_invitation(self, game: GameRecord, side: str, commands: list[Command], reply: Reply) -> Reply:
        words = [command.kind for command in commands]
        if "decline" in words:
            game.status = "declined"
            reply.note("declined")
            for each in SIDES:
                self.mailer.message(game, each, "declined", f"Game {game.id}: declined", [
                    f"{game.player(side).name} declined the game of {self.mailer.title(game)}."
                    if each != side else f"You declined game {game.id}."
                ])
            return reply
        if "accept" in words:
            setattr(game, f"{side}_accepted", True)
            reply.note("accepted")
            if game.white_accepted and game.black_accepted:
                self.start_setup(game)
            else:
                self.mailer.message(game, side, "accepted", f"Game {game.id}: accepted", [
                    f"You accepted game {game.id}. It starts when {game.player(other(side)).name} accepts too."
                ])
            return reply
        self.mailer.notice(game, side, "not-accepted", "accept or decline first", [
            f"Game {game.id} has not started yet. Reply 'accept' to play or 'decline' to refuse."
        ])
        return reply

    def start_setup(self, game: GameRecord) -> None:
        variant = get_variant(game.variant)
        state = variant.from_json(game.state)
        if any(variant.needs_setup(state, side) for side in SIDES):
            game.status = "setup"
            for side in SIDES:
                self.mailer.send_setup_request(game, side)
            return
        game.status = "active"
        mails = Mails()
        self.announce_start(game, state, "Both have accepted", mails)
        self.send(game, mails)

    def announce_start(self, game: GameRecord, state: Any, why: str, mails: Mails) -> None:
        """Play begins: the first to move gets the first move request, the other a word that it has begun."""
        orderer = get_variant(game.variant).orderer(state)
        assert orderer is not None
        for each in SIDES:
            if each == orderer:
                mails.request(each, [f"{why}: the game has started. You move first."],
                              f"the game has started - your move ({SIDE_TITLE[each]})")
            else:
                mails.message(each, "started", f"the game has started - waiting for {SIDE_TITLE[orderer]}", [
                    f"{why}: the game has started. {SIDE_TITLE[orderer]} moves first; you will get your move "
                    f"request after {SIDE_TITLE[orderer]}'s move."], show_position=True)

    # ------------------------------------------------------------------ referee orders

    def referee_order(self, game: GameRecord, side: Side, command: Command, mails: Mails, reply: Reply) -> None:
        variant = get_variant(game.variant)
        state = variant.from_json(game.state)
        before = variant.orderer(state)
        number = variant.move_number(state)  # the move this order belongs to, as the player's request said
        outcome = variant.play(state, side, command.text, random.SystemRandom())
        reply.note(f"{command.text}: {outcome.result}")
        self.apply(game, side, outcome.order or command.text, outcome, state, number)
        if outcome.result == "setup" and variant.orderer(state) is not None:
            self.begin_play(game, state)
        while True:  # events the referee makes on its own, e.g. a pass for a player who is home
            number = variant.move_number(state)
            made = variant.automatic(state)
            if made is None:
                break
            self.apply(game, made[0], None, made[1], state, number)
        result, reason = variant.result(state)
        if result is not None:
            self.finish(game, result, reason, mails)
            return
        self.mails_for(game, side, outcome.order or command.text, outcome, state, before, mails)

    def apply(self, game: GameRecord, by: Side, order: str | None, outcome: Outcome, state: Any,
              move_number: int) -> None:
        """The state after one event, and the event in the record (at the move it was made in)."""
        if outcome.result in MOVES:
            game.ply += 1
        game.state = get_variant(game.variant).to_json(state)
        self.record(game, by, order or "", outcome, state, move_number=move_number)

    def begin_play(self, game: GameRecord, state: Any) -> None:
        """Both setups are in: commit to hidden ones (tamper evidence) and start the clock."""
        game.status = "active"
        rows = get_variant(game.variant).hidden_setups(state)
        if not rows:
            return
        commitments = {}
        for side in SIDES:
            salt = secrets.token_hex(16)
            commitments[side] = {"salt": salt, "sha256": commitment(salt, game.variant, side, rows[side])}
        game.commitments = commitments

    def mails_for(self, game: GameRecord, side: Side, order: str, outcome: Outcome, state: Any,
                  before: Side | None, mails: Mails) -> None:
        """Who hears what at once: the variant's presenter words it, the turn decides request or notice."""
        variant = get_variant(game.variant)
        presenter = presenter_for(game.variant)
        orderer = variant.orderer(state)
        standing = self.mailer.standing(game, state)
        if outcome.result == "setup" and orderer is not None:
            self.announce_start(game, state, "Both setups are in", mails)
            return
        for each in SIDES:
            names = self.names(game, each)
            tidings = presenter.tell(outcome.result, outcome.to[each], each == side, order, names, standing)
            if each == orderer and (each == side or before != each or tidings is not None):
                if outcome.result in MOVES or tidings is None:  # the turn has come to them
                    mails.request(each, [], f"your move ({SIDE_TITLE[each]})")
                elif each == side:  # their order did not end their turn
                    mails.request(each, [*tidings.lines, "It is still your move."],
                                  f"{tidings.subject} - your move again", kind=tidings.kind)
                elif before != each:  # the turn has come to them otherwise than by a move
                    mails.request(each, tidings.lines, tidings.subject)
                else:  # news while they are to move: their request again, their clock running on
                    mails.request(each, tidings.lines, tidings.subject, kind=tidings.kind)
            elif tidings is not None:
                mails.message(each, tidings.kind, tidings.subject, tidings.lines, show_position=tidings.show_position,
                              told=outcome.to[each])

    def after_the_end(self, game: GameRecord, side: str, order: Command | None) -> None:
        """An order, or a reply with none, sent after the game ended: a short word to the sender alone, nothing
        recorded and no order forms."""
        end = presenter_for(game.variant).end_words(game.result, game.reason)
        what = f"Your order {get_variant(game.variant).written(order.text)[:80]} was not played." if order else \
            "Nothing in your reply was carried out, and replies are not passed on to your opponent."
        self.mailer.notice(game, side, "notice", "this game is over", [
            f"Game {game.id} is already over: {end}. {what}",
            f"The whole game, move by move: {self.mailer.history_url(game, side)}",
        ])

    def stale(self, game: GameRecord, side: str, move: Command) -> None:
        mails = Mails()
        variant = get_variant(game.variant)
        state = variant.from_json(game.state)
        notice = [
            f"Your order {variant.written(move.text)[:80]} answered an old move request, so it was not applied: "
            "the game has moved on since that mail."
        ]
        if variant.orderer(state) == side:
            notice.append("Here is your current move request. Reply to this mail with your order.")
            mails.request(side, notice, "reply to an old move request - here is the current one", kind="stale")
        else:
            notice.append(f"It is now {self.name(game, other(side))}'s turn; wait for your next move request.")
            mails.message(side, "stale", "reply to an old move request", notice, show_position=True)
        self.send(game, mails)

    # ------------------------------------------------------------------ service commands

    def service_command(
        self, game: GameRecord, side: Side, player: PlayerRecord, command: Command, mails: Mails, reply: Reply
    ) -> None:
        """A command from the registry (``SERVICE_COMMANDS``) or one the variant's presenter adds."""
        reply.note(command.kind)
        handler = GAME_HANDLERS.get(command.kind)
        if handler is not None:
            handler(self, game, side, player, command, mails)
            return
        for variant_command in presenter_for(game.variant).commands():
            if variant_command.name == command.kind:
                self.variant_command(game, side, player, command, variant_command, mails)
                return
        mails.message(side, "notice", "not understood here", [f"'{command.text}' is not used in a game reply."])

    def say(self, game: GameRecord, side: Side, player: PlayerRecord, command: Command, mails: Mails) -> None:
        text = command.argument.strip()[:2000]
        if not text:
            mails.message(side, "error", "nothing to say", ["'say' needs a message after it."])
            return
        self.record_plain(game, side, command.text, "said",
                          {other(side): [{"kind": "said", "color": side, "text": text}], side: []})
        mails.message(other(side), "said", f"a message from {self.name(game, side)}", [
            f"{self.name(game, side)} says:", text])
        mails.message(side, "notice", "your message was passed on", [
            f"Your message was passed on to {self.name(game, other(side))}."])

    def board(self, game: GameRecord, side: Side, player: PlayerRecord, command: Command, mails: Mails) -> None:
        variant = get_variant(game.variant)
        if variant.orderer(variant.from_json(game.state)) == side:
            mails.request(side, ["Your current move request, as asked."], "your move (as asked)", kind="board")
        else:
            mails.message(side, "board", "your position", ["Your position, as asked."], show_position=True)

    def history(self, game: GameRecord, side: Side, player: PlayerRecord, command: Command, mails: Mails) -> None:
        mails.message(side, "history", "your history", [
            f"Your history of game {game.id}, move by move: {self.mailer.history_url(game, side)}",
        ], show_position=True)

    def help(self, game: GameRecord, side: Side, player: PlayerRecord, command: Command, mails: Mails) -> None:
        mails.message(side, "help", "help", help_paragraphs(presenter_for(game.variant)), show_forms=True)

    def rules(self, game: GameRecord, side: Side, player: PlayerRecord, command: Command, mails: Mails) -> None:
        mails.message(side, "rules", "the rules", [f"The rules of {self.mailer.title(game)}, as on "
                                                   f"{self.mailer.rules_url(game)}:"],
                      document=self.mailer.rules_document(game.variant))

    def public(self, game: GameRecord, side: Side, player: PlayerRecord, command: Command, mails: Mails) -> None:
        agree = command.argument.strip().lower() != "off"
        self.share_reveal(game, side, agree)
        mails.message(side, "notice", "reveal sharing", [
            "You agree that, after the game, anyone with the link may see the full reveal "
            "(it is public only if both players agree)." if agree else
            "After the game the reveal is shown to the two players only."
        ])

    def vacation_in_game(self, game: GameRecord, side: Side, player: PlayerRecord, command: Command,
                         mails: Mails) -> None:
        self.vacation(player, command.argument, side, game, mails)

    def nothing_to_answer(self, game: GameRecord, side: Side, player: PlayerRecord, command: Command,
                          mails: Mails) -> None:
        mails.message(side, "notice", "nothing to " + command.kind, [
            f"There is no invitation in game {game.id} to {command.kind}. To answer a draw offer, write "
            f"'{command.kind} draw'."
        ])

    def variant_command(self, game: GameRecord, side: Side, player: PlayerRecord, command: Command,
                        variant_command: VariantCommand, mails: Mails) -> None:
        """A command of the variant's: answered from the player's own view; it may change their preferences."""
        variant = get_variant(game.variant)
        view = variant.view(variant.from_json(game.state), side)
        answer = variant_command.answer(view, command.argument, player.preferences, self.names(game, side))
        if answer.preferences:
            player.preferences = {**player.preferences, **answer.preferences}
        mails.message(side, "notice", answer.subject, answer.lines)

    def share_reveal(self, game: GameRecord, side: str, agree: bool) -> None:
        """A player's consent to show the reveal to anyone with the link (both must agree)."""
        setattr(game, f"public_{side}", agree)
        self.flush()

    def vacation(self, player: PlayerRecord, argument: str, side: str, game: GameRecord | None,
                 mails: Mails | None) -> str:
        """Pause the player's clock for N days (a yearly allowance)."""
        if not argument.strip().isdigit() or int(argument) < 1:
            text = "write: vacation <number of days>"
        else:
            days = int(argument)
            year = self.now.year
            if player.vacation_year != year:
                player.vacation_year, player.vacation_days_used = year, 0
            left = self.settings.vacation_days_per_year - player.vacation_days_used
            if days > left:
                text = f"you have {left} vacation day{'s' if left != 1 else ''} left this year, not {days}"
            else:
                start = max(self.now, player.vacation_until) if player.vacation_until else self.now
                player.vacation_until = start + timedelta(days=days)
                player.vacation_days_used += days
                for running in self.running_games(player):
                    variant = get_variant(running.variant)
                    running_side = running.side_of(player)
                    moved = variant.orderer(variant.from_json(running.state)) == running_side and running.deadline
                    if moved:
                        running.deadline += timedelta(days=days)
                        running.reminded = False
                    self.tell_vacation(running, running_side, player, moved)
                text = (f"Your clock is paused until {describe_deadline(player.vacation_until)} "
                        f"({player.vacation_days_used} of {self.settings.vacation_days_per_year} days used this year).")
        if mails is not None:
            mails.message(side, "vacation", "vacation", [text])
        self.flush()
        return text

    def tell_vacation(self, game: GameRecord, side: str, player: PlayerRecord, moved: bool) -> None:
        """The opponent hears that the player's clock is paused (and their deadline moved, when it did)."""
        assert player.vacation_until is not None
        until = describe_deadline(player.vacation_until)
        mails = Mails()
        mails.message(other(side), "vacation", f"{player.name} is on vacation", [
            f"{player.name} is on vacation until {until}: their clock is paused."
            + (f" Their move in this game is now due by {describe_deadline(game.deadline)}." if moved and
               game.deadline else " You move as usual."),
        ])
        self.send(game, mails)

    def running_games(self, player: PlayerRecord) -> list[GameRecord]:
        """The player's running games, each locked (in id order, so two transactions never wait on each other)."""
        ids = self.connection.execute(
            select(Game.id).where((Game.white_id == player.id) | (Game.black_id == player.id), Game.status == "active")
            .order_by(Game.id)
        ).scalars().all()
        return [self.lock(game_id) for game_id in ids]

    # ------------------------------------------------------------------ the end

    def finish(self, game: GameRecord, result: str, reason: str | None, mails: Mails) -> None:
        game.status = "over"
        game.result, game.reason = result, reason
        game.deadline = None
        for side in SIDES:
            mails.game_over(side)

    def timeout(self, game: GameRecord) -> None:
        """The orderer's time ran out: they lose (LG-11, the correspondence clock)."""
        variant = get_variant(game.variant)
        state = variant.from_json(game.state)
        loser = variant.orderer(state)
        if loser is None:
            return
        number = variant.move_number(state)
        outcome = variant.forfeit(state, loser, "time")
        game.state = variant.to_json(state)
        self.record(game, None, "", outcome, state, result="timeout", move_number=number)
        mails = Mails()
        self.finish(game, *variant.result(state), mails)
        self.send(game, mails)

    # ------------------------------------------------------------------ clocks

    def next_look(self, game: GameRecord) -> datetime | None:
        """When the clock must next look at the game, kept in ``games.next_clock_at`` by ``flush``.

        A day before the deadline for the reminder, then the deadline itself for the loss on time; not before
        the player to move is back from vacation (their clock is paused); never for a game that is not running
        or has no one to move. Each periodic round then reads only the games due (``due_games``, a partial
        index holding the running games alone), and ``tick`` acts on exactly those: a game looked at is either
        acted on or given its next look, so no game is taken up again and again for nothing.
        """
        if game.status != "active" or game.deadline is None:
            return None
        variant = get_variant(game.variant)
        side = variant.orderer(variant.from_json(game.state))
        if side is None:
            return None
        look = game.deadline if game.reminded else game.deadline - REMINDER_BEFORE
        away_until = game.player(side).vacation_until
        return max(look, away_until) if away_until else look

    def due_games(self) -> list[int]:
        """The games whose clock needs a look now (a reminder or a loss on time), soonest first."""
        return records.due_games(self.connection, self.now)

    def tick_game(self, game_id: int) -> int:
        """A reminder 24 hours before the deadline, or the loss on time after it (1 if acted)."""
        acted = self.tick(game_id)
        self.flush()
        return acted

    def tick(self, game_id: int) -> int:
        game = self.try_lock(game_id)
        if game is None:  # another worker has it now
            return 0
        look = self.next_look(game)
        if look is None or look > self.now or game.deadline is None:  # nothing due: ``flush`` writes its next look
            return 0
        if game.deadline <= self.now:
            self.timeout(game)
            return 1
        variant = get_variant(game.variant)
        side = variant.orderer(variant.from_json(game.state))
        assert side is not None  # ``next_look`` has none for a game without a player to move
        game.reminded = True
        mails = Mails()
        mails.request(side, [
            f"Reminder: your move is due by {describe_deadline(game.deadline)}, "
            "less than 24 hours from now. Without a move by then you lose on time."
        ], "reminder: your move is due within 24 hours", kind="reminder")
        self.send(game, mails)
        return 1

    # ------------------------------------------------------------------ mails

    def send(self, game: GameRecord, mails: Mails) -> None:
        """Start the orderer's clock and mark first fingerprints shown, then have the mails written."""
        variant = get_variant(game.variant)
        orderer = variant.orderer(variant.from_json(game.state)) if game.status == "active" else None
        for side, item in mails.items:
            if item["type"] != "request" and item["kind"] != "started":
                continue
            if item["kind"] == "request" and side == orderer:
                game.deadline = deadline_for(game.player(side), game.days, self.now)
                game.reminded = False
            shown = game.commitments.get("shown", {})
            if side in game.commitments and not shown.get(side):
                item["commitments"] = True
                game.commitments = {**game.commitments, "shown": {**shown, side: True}}
        self.mailer.send(game, mails)

    def name(self, game: GameRecord, side: str | None) -> str:
        return self.mailer.name(game, side)

    def names(self, game: GameRecord, side: str) -> Names:
        return self.mailer.names(game, side)

    # ------------------------------------------------------------------ event record

    def next_seq(self, game: GameRecord) -> int:
        """The next event number: kept on the (locked) game row, so no query is needed."""
        game.last_seq = (game.last_seq or 0) + 1
        return game.last_seq

    def record(self, game: GameRecord, by: str | None, order: str, outcome: Outcome, state: Any,
               result: str | None = None, move_number: int | None = None) -> None:
        """One event: what happened, what each player was told and what each now sees; ``move_number`` is the
        move it belongs to (by default the move being played now)."""
        variant = get_variant(game.variant)
        told = {side: outcome.to[side] for side in SIDES}
        result = result or outcome.result
        records.add_event(self.connection, {
            "game_id": game.id,
            "seq": self.next_seq(game),
            "by": by,
            "order": order,
            "result": result,
            "move_number": variant.move_number(state) if move_number is None else move_number,
            "ply": game.ply,
            "told": told,
            "views": {side: variant.view(state, side) for side in SIDES},
            "position": variant.position(state),
            "created_at": self.now,
        })
        game.told_since_move = told_since_move(game.told_since_move or {}, told, result)

    def record_plain(self, game: GameRecord, by: str, order: str, result: str, told: dict[str, list]) -> None:
        variant = get_variant(game.variant)
        state = variant.from_json(game.state)
        outcome = Outcome(result)  # type: ignore[arg-type]
        for side in SIDES:
            outcome.to[side] = told.get(side, [])
        self.record(game, by, order, outcome, state)

    # ------------------------------------------------------------------ mails


# The handler of each command of the registry understood in a game reply (``GAME`` in ``SERVICE_COMMANDS``):
# the registry says what a command is, this says what carries it out; a test holds the two to each other.
GAME_HANDLERS: dict[str, Callable[[GameService, GameRecord, Side, PlayerRecord, Command, Mails], None]] = {
    "say": GameService.say, "board": GameService.board, "history": GameService.history, "help": GameService.help,
    "public": GameService.public, "vacation": GameService.vacation_in_game, "rules": GameService.rules,
    "accept": GameService.nothing_to_answer, "decline": GameService.nothing_to_answer,
}
