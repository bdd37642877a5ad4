"""The game service: the only writer of game state.

Each call runs inside the caller's transaction: it locks the game row, asks the
referee, stores the new state and the event record, and writes the outbox rows
for every mail the change causes. Mail and web both come in through here.

Games and players are plain records (``app.games.records``); every entry point
ends with ``flush``, which writes what changed in the records it handed out.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, select

from app.config import Settings
from app.db import utcnow
from app.games import present, records
from app.games.clock import REMINDER_BEFORE, deadline_for, describe_deadline
from app.games.commands import MOVE, REFEREE, Command
from app.games.commitment import commitment
from app.games.mailing import Mailer, Mails, help_paragraphs
from app.games.models import Game
from app.games.reading import read_commands
from app.games.records import GameRecord, PlayerRecord
from app.rules.base import SIDES, OptionError, Outcome, other
from app.rules.looking_glass.orders import ACCEPTED_FORMS
from app.rules.registry import VARIANTS, get_variant
from app.tokens import ReplyToken, TokenSigner

SIDE_TITLE = {"white": "White", "black": "Black"}
MAX_DAYS = 30


class ServiceError(ValueError):
    """A request the service answers with a notice instead of carrying out."""


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
        if result in ("moved", "shortened") and any(m["kind"] == "moved" and m["color"] == side for m in messages):
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
        player = records.find_or_add_player(self.connection, email, (name or email.split("@")[0])[:100])
        return self.known_player(player)

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

    def challenge(self, challenger: PlayerRecord, words: list[str]) -> GameRecord:
        """``challenge bob@example.org looking-glass days=3 strikes=3 color=black``."""
        if not words or "@" not in words[0]:
            raise ServiceError("write: challenge <email address> [variant] [options such as days=3 strikes=3]")
        opponent = self.player(words[0].strip("<>"))
        variant = "looking-glass"
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
        if color == "random":
            color = random.SystemRandom().choice(SIDES)
        if color not in SIDES:
            raise ServiceError("color must be white, black or random")
        white, black = (challenger, opponent) if color == "white" else (opponent, challenger)
        return self.create_game(variant, white, black, options, challenger)

    # ------------------------------------------------------------------ mail outside any game

    def lobby(self, sender: str, sender_name: str, text: str, answering: str | None,
              error_notice: Callable[[], bool] = lambda: True) -> tuple[str, str]:
        """The commands of a mail to the bare address: challenges, help, vacations, names, the games list.

        Answers go to ``sender``, threaded under the message they answer (``answering``); an error notice
        only while ``error_notice()`` allows it. Returns (status, what was done) for the inbound record.
        """
        reading = read_commands(text, None)
        player = self.player(sender, sender_name)

        def notify(kind: str, subject: str, paragraphs: list[str], error: bool = False) -> None:
            if not error or error_notice():
                self.mailer.notify(sender, kind, subject, paragraphs, answering)

        if reading.errors or not reading.commands:
            notify("help", "how to play", [*reading.errors, *help_paragraphs()], error=bool(reading.errors))
            self.flush()
            return "rejected" if reading.errors else "done", "lobby help"
        done = []
        for command in reading.commands:
            if command.kind == "challenge":
                try:
                    game = self.challenge(player, command.argument.split())
                    done.append(f"challenge: game {game.id}")
                except ServiceError as error:
                    notify("error", "challenge not sent", [str(error)], error=True)
                    done.append(f"challenge refused: {error}")
            elif command.kind == "vacation":
                notify("vacation", "vacation", [self.vacation(player, command.argument, "white", None, None)])
                done.append("vacation")
            elif command.kind == "name" and command.argument.strip():
                player.name = command.argument.strip()[:100]
                notify("notice", "name changed", [f"You are now called {player.name}."])
                done.append("name")
            elif command.kind == "games":
                notify("games", "your games", self.games_list(player))
                done.append("games")
            else:
                notify("help", "how to play", help_paragraphs())
                done.append(command.kind)
        self.flush()
        return "done", "; ".join(done)

    def games_list(self, player: PlayerRecord) -> list[str]:
        games = self.connection.execute(
            select(Game.id, Game.variant, Game.status, Game.result)
            .where((Game.white_id == player.id) | (Game.black_id == player.id)).order_by(Game.id)
        ).all()
        if not games:
            return ["You have no games yet. Send 'challenge friend@example.org looking-glass' to start one."]
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
        reading = read_commands(text, get_variant(game.variant))
        if reading.errors:
            if error_notice():
                self.mailer.notice(game, token.side, "error", "your order could not be read", [
                    "Nothing in your message was applied, and it costs no strike. This could not be read:",
                    *reading.errors,
                    f"Accepted forms: {ACCEPTED_FORMS}. Other commands: say <text>, board, history, help.",
                ])
            return "rejected", "unreadable: " + "; ".join(reading.errors)
        if not reading.commands:
            if error_notice():
                self.mailer.notice(game, token.side, "error", "no order found", [
                    "Your message had no order or command in it that the referee could find. Put your order on "
                    "the first line of your reply, for example R e2-e4. Quoted text is never read.",
                ])
            return "rejected", "no command found"
        try:
            reply = self.handle(game, player, reading.commands, token)
        except ServiceError as error:
            self.mailer.notice(game, token.side, "error", "not carried out", [str(error)])
            return "rejected", str(error)
        return "done", "; ".join(reply.summary)

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
        game.status = "setup" if any(variant.needs_setup(state, side) for side in SIDES) else "active"
        for side in SIDES:
            self.mailer.send_setup_request(game, side)

    # ------------------------------------------------------------------ referee orders

    def referee_order(self, game: GameRecord, side: str, command: Command, mails: Mails, reply: Reply) -> None:
        variant = get_variant(game.variant)
        state = variant.from_json(game.state)
        outcome = variant.play(state, side, command.text, random.SystemRandom())
        reply.note(f"{command.text}: {outcome.result}")
        if outcome.result in ("moved", "shortened"):
            game.ply += 1
        game.state = variant.to_json(state)
        self.record(game, side, command.text, outcome, state)
        if outcome.result == "setup" and variant.orderer(state) is not None:
            self.begin_play(game, state)
        result, reason = variant.result(state)
        if result is not None:
            self.finish(game, result, reason, mails)
            return
        self.mails_for(game, side, command, outcome, state, mails)

    def begin_play(self, game: GameRecord, state: Any) -> None:
        """Both setups are in: commit to them (tamper evidence) and start the clock."""
        game.status = "active"
        rows = get_variant(game.variant).hidden_setups(state)
        if not rows:
            return
        commitments = {}
        for side in SIDES:
            salt = secrets.token_hex(16)
            commitments[side] = {"salt": salt, "sha256": commitment(salt, game.variant, side, rows[side])}
        game.commitments = commitments

    def mails_for(self, game: GameRecord, side: str, command: Command, outcome: Outcome, state: Any,
                  mails: Mails) -> None:
        variant = get_variant(game.variant)
        orderer = variant.orderer(state)
        result = outcome.result
        opponent = other(side)
        told = [present.describe(m, self.names(game, side)) for m in outcome.to[side]]
        if result in ("error", "rejected"):
            heading = "could not be read" if result == "error" else "was not accepted"
            notice = [f"Your order '{command.text}' {heading}.", *told]
            if orderer == side:
                notice.append("It is still your move.")
                mails.request(side, notice, "your order " + heading + " - your move again")
            else:
                mails.message(side, "notice", f"your order {heading}", notice)
        elif result == "strike":
            count = state.strikes[side]
            limit = game.options.get("strikes", 3)
            mails.request(side, [
                f"Your order {command.text} was impossible. That is strike {count} of {limit}: "
                f"strike {limit} loses the game. The referee does not say why. It is still your move."
            ], f"impossible order, strike {count} of {limit} - your move again")
        elif result == "forfeit-order":
            mails.message(side, "notice", "impossible order - your opponent orders for you", [
                f"Your order {command.text} was impossible. {self.name(game, opponent)} now orders one move "
                "for your army; you will hear what it was."
            ])
            mails.request(opponent, [], "your opponent's order was impossible - you order for their army")
        elif result == "impossible":
            mails.message(side, "notice", "proxy order impossible", told)
            mails.request(opponent, told, "the proxy order was impossible - your move again")
        elif result in ("moved", "shortened"):
            proxy = any(m["kind"] == "moved" and m.get("proxy") for m in outcome.to[side])
            if proxy:  # the army's owner hears at once what was ordered for them
                mails.message(opponent, "proxy-move", f"{self.name(game, side)} ordered a move for your army", [
                    present.describe(m, self.names(game, opponent)) for m in outcome.to[opponent]
                ], show_position=True)
            if orderer == side:
                mails.request(side, told, f"your move ({SIDE_TITLE[side]})")
            else:
                mails.message(side, "move-received", f"your move was made - waiting for {self.name(game, orderer)}",
                              told, show_position=True)
                if orderer is not None:
                    mails.request(orderer, [], f"your move ({SIDE_TITLE[orderer]})")
        elif result == "answered":
            mails.message(side, "answer", "your question was answered", told, show_position=True)
        elif result == "setup":
            if game.status == "active":
                mails.request("white", ["Both setups are in: the game has started. You move first."],
                              "the game has started - your move (White)")
                mails.message("black", "started", "the game has started - waiting for White", [
                    "Both setups are in: the game has started. White moves first; "
                    "you will get your move request after White's move."
                ], show_position=True)
            else:
                mails.message(side, "setup-received", "your setup is in", [
                    *told, f"The game starts when {self.name(game, opponent)} has sent their setup."
                ])
        elif result == "offered":
            mails.message(opponent, "draw-offer", f"{self.name(game, side)} offers a draw", [
                f"{self.name(game, side)} offers a draw. Reply 'accept draw' or 'decline draw'. "
                "A move also answers the offer.",
            ])
            mails.message(side, "notice", "your draw offer was sent", ["Your draw offer was passed on."])
        elif result == "declined":
            mails.message(opponent, "notice", "draw declined", [
                f"{self.name(game, side)} declined your draw offer."
            ])

    def stale(self, game: GameRecord, side: str, move: Command) -> None:
        mails = Mails()
        variant = get_variant(game.variant)
        state = variant.from_json(game.state)
        notice = [
            f"Your order '{move.text}' answered an old move request, so it was not applied: "
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
        self, game: GameRecord, side: str, player: PlayerRecord, command: Command, mails: Mails, reply: Reply
    ) -> None:
        kind = command.kind
        reply.note(kind)
        opponent = other(side)
        if kind == "say":
            if not command.argument.strip():
                mails.message(side, "error", "nothing to say", ["'say' needs a message after it."])
                return
            message = {"kind": "said", "color": side, "text": command.argument.strip()[:2000]}
            self.record_plain(game, side, command.text, "said", {opponent: [message], side: []})
            mails.message(opponent, "said", f"a message from {self.name(game, side)}", [
                f"{self.name(game, side)} says:", command.argument.strip()[:2000],
            ])
        elif kind == "board":
            variant = get_variant(game.variant)
            if variant.orderer(variant.from_json(game.state)) == side:
                mails.request(side, ["Your current move request, as asked."], "your move (as asked)")
            else:
                mails.message(side, "board", "your position", ["Your position, as asked."], show_position=True)
        elif kind == "history":
            mails.message(side, "history", "your history", [
                f"Your history of game {game.id}, move by move: {self.mailer.history_url(game, side)}",
            ], show_position=True)
        elif kind == "help":
            mails.message(side, "help", "help", help_paragraphs(), show_forms=True)
        elif kind == "notebook":
            shown = command.argument.strip().lower() != "off"
            player.preferences = {**player.preferences, "notebook": shown}
            mails.message(side, "notice", "notebook " + ("on" if shown else "off"), [
                "Your notebook of the other world is now " + ("shown." if shown else
                "hidden: you will see your own world and the announcements only.")
            ])
        elif kind == "public":
            agree = command.argument.strip().lower() != "off"
            self.share_reveal(game, side, agree)
            mails.message(side, "notice", "reveal sharing", [
                "You agree that, after the game, anyone with the link may see the full reveal "
                "(it is public only if both players agree)." if agree else
                "After the game the reveal is shown to the two players only."
            ])
        elif kind == "vacation":
            self.vacation(player, command.argument, side, game, mails)
        elif kind in ("accept", "decline"):
            mails.message(side, "notice", "nothing to " + kind, [
                f"There is no invitation in game {game.id} to {kind}. To answer a draw offer, write "
                f"'{kind} draw'."
            ])
        else:
            mails.message(side, "notice", "not understood here", [f"'{command.text}' is not used in a game reply."])

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
                    if variant.orderer(variant.from_json(running.state)) == running_side and running.deadline:
                        running.deadline += timedelta(days=days)
                        running.reminded = False
                text = (f"Your clock is paused until {describe_deadline(player.vacation_until)} "
                        f"({player.vacation_days_used} of {self.settings.vacation_days_per_year} days used this year).")
        if mails is not None:
            mails.message(side, "vacation", "vacation", [text])
        self.flush()
        return text

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
        outcome = variant.forfeit(state, loser, "time")
        game.state = variant.to_json(state)
        self.record(game, None, "", outcome, state, result="timeout")
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
            if item["type"] != "request":
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

    def names(self, game: GameRecord, side: str) -> present.Names:
        return self.mailer.names(game, side)

    # ------------------------------------------------------------------ event record

    def next_seq(self, game: GameRecord) -> int:
        """The next event number: kept on the (locked) game row, so no query is needed."""
        game.last_seq = (game.last_seq or 0) + 1
        return game.last_seq

    def record(self, game: GameRecord, by: str | None, order: str, outcome: Outcome, state: Any,
               result: str | None = None) -> None:
        """One event: what happened, what each player was told and what each now sees."""
        variant = get_variant(game.variant)
        told = {side: outcome.to[side] for side in SIDES}
        result = result or outcome.result
        records.add_event(self.connection, {
            "game_id": game.id,
            "seq": self.next_seq(game),
            "by": by,
            "order": order,
            "result": result,
            "move_number": variant.move_number(state),
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

