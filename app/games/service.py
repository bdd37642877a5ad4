"""The game service: the only writer of game state.

Each call runs inside the caller's transaction: it locks the game row, asks the
referee, stores the new state and the event record, and writes the outbox rows
for every mail the change causes. Mail and web both come in through here.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, joinedload, load_only

from app.config import Settings
from app.db import is_postgres, utcnow
from app.games import present
from app.games.clock import REMINDER_BEFORE, deadline_for, describe_deadline
from app.games.commands import MOVE, REFEREE, Command
from app.games.links import history_link
from app.games.models import Event, Game, Player
from app.games.reading import read_commands
from app.mail.compose import thread_id
from app.mail.models import OutboundMessage
from app.mail.outbox import Mail, enqueue
from app.mail.render import render
from app.rules.base import SIDES, OptionError, Outcome, other
from app.rules.looking_glass.orders import ACCEPTED_FORMS
from app.rules.registry import VARIANTS, get_variant
from app.tokens import ReplyToken, TokenSigner

SIDE_TITLE = {"white": "White", "black": "Black"}
MAX_DAYS = 30
ERROR_KINDS = ("error", "stale", "refused", "not-accepted")


class ServiceError(ValueError):
    """A request the service answers with a notice instead of carrying out."""


@dataclass
class Reply:
    """What handling one message did, for the inbound record."""

    summary: list[str] = field(default_factory=list)

    def note(self, text: str) -> None:
        self.summary.append(text)


def order_forms(game: Game, side: str) -> list[tuple[str, str]]:
    """The accepted order forms, with examples fitted to the player's side."""
    if side == "white":
        home, away, pawn = "R e2-e4", "M d4-d5", "M e7-e8=N"
        home_name, away_name = "Real", "Mirror"
    else:
        home, away, pawn = "M e7-e5", "R d5-d4", "R d2-d1=N"
        home_name, away_name = "Mirror", "Real"
    return [
        (home, f"move in the {home_name} world (your world)"),
        (away, f"move in the {away_name} world: you cannot see it, and an impossible order costs a strike"),
        (pawn, "promotion (Q, R, B or N; queen if left out)"),
        ("O-O", "castle (O-O-O the other side)"),
        ("ask", f"do I have any legal move in the {away_name} world?"),
        ("resign", "also: offer draw, accept draw, decline draw"),
        ("say <text>", "a message passed on to your opponent"),
        ("board", "send me my position again; also: history, help"),
    ]


def commitment(salt: str, variant: str, side: str, row: str) -> str:
    """SHA-256 over a salted setup: published at the start, the salt revealed at the end."""
    return hashlib.sha256(f"{salt}:{variant}:{side}:{row}".encode()).hexdigest()


class GameService:
    """Game lifecycle and orders; every method works inside the caller's transaction."""

    def __init__(self, session: Session, settings: Settings, signer: TokenSigner, now: datetime | None = None) -> None:
        self.session = session
        self.settings = settings
        self.signer = signer
        self.now = now or utcnow()

    # ------------------------------------------------------------------ players

    def player(self, email: str, name: str | None = None) -> Player:
        email = email.strip().lower()
        player = self.session.scalar(select(Player).where(Player.email == email))
        if player is None:
            player = Player(email=email, name=(name or email.split("@")[0])[:100], notebook=True)
            self.session.add(player)
            self.session.flush()
        return player

    def lock(self, game_id: int, skip_locked: bool = False) -> Game:
        """The game row, locked for the rest of the transaction (None if skipping a locked one)."""
        query = (
            select(Game)
            .options(joinedload(Game.white, innerjoin=True), joinedload(Game.black, innerjoin=True))
            .where(Game.id == game_id)
            .with_for_update(of=Game, skip_locked=skip_locked and is_postgres(self.session))
            .execution_options(populate_existing=True)
        )
        game = self.session.scalars(query).unique().one_or_none()
        if game is None and not skip_locked:
            raise ServiceError(f"there is no game {game_id}")
        return game  # type: ignore[return-value]

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
        self, variant: str, white: Player, black: Player, raw_options: dict[str, str], challenger: Player | None
    ) -> Game:
        if white.id == black.id:
            raise ServiceError("a game needs two different players")
        days, options = self.split_options(variant, raw_options)
        state = get_variant(variant).new_game(options)
        game = Game(
            variant=variant,
            options=options,
            days=days,
            status="invited",
            white_id=white.id,
            black_id=black.id,
            challenger_id=challenger.id if challenger else None,
            white_accepted=challenger is not None and challenger.id == white.id,
            black_accepted=challenger is not None and challenger.id == black.id,
            state=get_variant(variant).to_json(state),
            ply=0,
            commitments={},
        )
        self.session.add(game)
        self.session.flush()
        game.white, game.black = white, black
        for side in SIDES:
            if not getattr(game, f"{side}_accepted"):
                self.send_invitation(game, side)
        if challenger is not None:
            self.message(
                game, game.side_of(challenger), "challenge-sent",
                f"Game {game.id}: your challenge was sent",
                [f"Your challenge to {game.player(other(game.side_of(challenger))).email} for a game of "
                 f"{get_variant(variant).title} ({self.options_text(game)}) was sent. You play "
                 f"{SIDE_TITLE[game.side_of(challenger)]}. You will hear when it is accepted or declined."],
            )
        return game

    def challenge(self, challenger: Player, words: list[str]) -> Game:
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

    def options_text(self, game: Game) -> str:
        parts = [f"{game.days} day{'s' if game.days != 1 else ''} a move"]
        parts += [f"{key}={value}" for key, value in sorted(game.options.items())]
        return ", ".join(parts)

    # ------------------------------------------------------------------ handling a message

    def handle(self, game: Game, player: Player, commands: list[Command], token: ReplyToken) -> Reply:
        """Carry out the commands of one authenticated message about a game locked with ``lock``."""
        side = game.side_of(player)
        assert side is not None and side == token.side
        reply = Reply()
        moves = [command for command in commands if command.kind == MOVE]
        if len(moves) > 1:
            self.notice(game, side, "error", "two move orders in one message", [
                "Your message had two move orders: " + ", ".join(c.text for c in moves) + ".",
                "Send one move order per message. Nothing in that message was applied.",
            ])
            reply.note("error: two move orders")
            return reply
        if game.status == "invited":
            return self.handle_invitation(game, side, commands, reply)
        if game.status in ("declined",):
            self.notice(game, side, "not-accepted", "this game was declined",
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

    def submit_text(self, game: Game, player: Player, text: str, token: ReplyToken,
                    error_notice: Callable[[], bool] = lambda: True) -> tuple[str, str]:
        """Read a player's new text and carry it out: the one path for mail and the web form.

        ``error_notice`` says whether an error notice may be sent now (rate limits), asked only when needed.
        """
        reading = read_commands(text, get_variant(game.variant))
        if reading.errors:
            if error_notice():
                self.notice(game, token.side, "error", "your order could not be read", [
                    "Nothing in your message was applied, and it costs no strike. This could not be read:",
                    *reading.errors,
                    f"Accepted forms: {ACCEPTED_FORMS}. Other commands: say <text>, board, history, help.",
                ])
            return "rejected", "unreadable: " + "; ".join(reading.errors)
        if not reading.commands:
            if error_notice():
                self.notice(game, token.side, "error", "no order found", [
                    "Your message had no order or command in it that the referee could find. Put your order on "
                    "the first line of your reply, for example R e2-e4. Quoted text is never read.",
                ])
            return "rejected", "no command found"
        try:
            reply = self.handle(game, player, reading.commands, token)
        except ServiceError as error:
            self.notice(game, token.side, "error", "not carried out", [str(error)])
            return "rejected", str(error)
        return "done", "; ".join(reply.summary)

    def handle_invitation(self, game: Game, side: str, commands: list[Command], reply: Reply) -> Reply:
        words = [command.kind for command in commands]
        if "decline" in words:
            game.status = "declined"
            reply.note("declined")
            for each in SIDES:
                self.message(game, each, "declined", f"Game {game.id}: declined", [
                    f"{game.player(side).name} declined the game of {self.title(game)}."
                    if each != side else f"You declined game {game.id}."
                ])
            return reply
        if "accept" in words:
            setattr(game, f"{side}_accepted", True)
            reply.note("accepted")
            if game.white_accepted and game.black_accepted:
                self.start_setup(game)
            else:
                self.message(game, side, "accepted", f"Game {game.id}: accepted", [
                    f"You accepted game {game.id}. It starts when {game.player(other(side)).name} accepts too."
                ])
            return reply
        self.notice(game, side, "not-accepted", "accept or decline first", [
            f"Game {game.id} has not started yet. Reply 'accept' to play or 'decline' to refuse."
        ])
        return reply

    def start_setup(self, game: Game) -> None:
        variant = get_variant(game.variant)
        game.status = "setup" if getattr(variant, "has_setup", False) else "active"
        for side in SIDES:
            self.send_setup_request(game, side)

    # ------------------------------------------------------------------ referee orders

    def referee_order(self, game: Game, side: str, command: Command, mails: Mails, reply: Reply) -> None:
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

    def begin_play(self, game: Game, state: Any) -> None:
        """Both setups are in: commit to them (tamper evidence) and start the clock."""
        game.status = "active"
        rows = state.rows
        commitments = {}
        for side in SIDES:
            salt = secrets.token_hex(16)
            commitments[side] = {"salt": salt, "sha256": commitment(salt, game.variant, side, rows[side])}
        game.commitments = commitments

    def mails_for(self, game: Game, side: str, command: Command, outcome: Outcome, state: Any, mails: Mails) -> None:
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
                for each in SIDES:
                    if each == "white":
                        mails.request("white", ["Both setups are in: the game has started. You move first."],
                                      "the game has started - your move (White)")
                    else:
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

    def stale(self, game: Game, side: str, move: Command) -> None:
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
        self, game: Game, side: str, player: Player, command: Command, mails: Mails, reply: Reply
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
                f"Your history of game {game.id}, move by move: {self.history_url(game, side)}",
            ], show_position=True)
        elif kind == "help":
            mails.message(side, "help", "help", help_paragraphs(), show_forms=True)
        elif kind == "notebook":
            player.notebook = command.argument.strip().lower() != "off"
            mails.message(side, "notice", "notebook " + ("on" if player.notebook else "off"), [
                "Your notebook of the other world is now " + ("shown." if player.notebook else
                "hidden: you will see your own world and the announcements only.")
            ])
        elif kind == "public":
            agree = command.argument.strip().lower() != "off"
            setattr(game, f"public_{side}", agree)
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

    def vacation(self, player: Player, argument: str, side: str, game: Game | None, mails: Mails | None) -> str:
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
        return text

    def running_games(self, player: Player) -> list[Game]:
        return list(self.session.scalars(
            select(Game).where((Game.white_id == player.id) | (Game.black_id == player.id), Game.status == "active")
        ))

    # ------------------------------------------------------------------ the end

    def finish(self, game: Game, result: str, reason: str | None, mails: Mails) -> None:
        game.status = "over"
        game.result, game.reason = result, reason
        game.deadline = None
        for side in SIDES:
            mails.game_over(side)

    def timeout(self, game: Game) -> None:
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

    def due_games(self) -> list[int]:
        """Running games whose deadline is within the reminder window (or past)."""
        return list(self.session.scalars(
            select(Game.id).where(Game.status == "active", Game.deadline.is_not(None),
                                  Game.deadline <= self.now + REMINDER_BEFORE)
        ))

    def tick_game(self, game_id: int) -> int:
        """A reminder 24 hours before the deadline, or the loss on time after it (1 if acted)."""
        game = self.lock(game_id, skip_locked=True)
        if game is None or game.status != "active" or game.deadline is None:
            return 0
        variant = get_variant(game.variant)
        side = variant.orderer(variant.from_json(game.state))
        if side is None:
            return 0
        player = game.player(side)
        if player.vacation_until and player.vacation_until > self.now:
            return 0
        if game.deadline <= self.now:
            self.timeout(game)
            return 1
        if game.reminded or game.deadline > self.now + REMINDER_BEFORE:
            return 0
        game.reminded = True
        mails = Mails()
        mails.request(side, [
            f"Reminder: your move is due by {describe_deadline(game.deadline)}, "
            "less than 24 hours from now. Without a move by then you lose on time."
        ], "reminder: your move is due within 24 hours", kind="reminder")
        self.send(game, mails)
        return 1

    # ------------------------------------------------------------------ event record

    def next_seq(self, game: Game) -> int:
        """The next event number: kept on the (locked) game row, so no query is needed."""
        game.last_seq = (game.last_seq or 0) + 1
        return game.last_seq

    def record(self, game: Game, by: str | None, order: str, outcome: Outcome, state: Any,
               result: str | None = None) -> Event:
        variant = get_variant(game.variant)
        event = Event(
            game_id=game.id,
            seq=self.next_seq(game),
            by=by,
            order=order,
            result=result or outcome.result,
            move_number=variant.move_number(state),
            ply=game.ply,
            told={side: outcome.to[side] for side in SIDES},
            views={side: variant.view(state, side) for side in SIDES},
            position=variant.position(state),
            created_at=self.now,
        )
        self.session.add(event)
        return event

    def record_plain(self, game: Game, by: str, order: str, result: str, told: dict[str, list]) -> Event:
        variant = get_variant(game.variant)
        state = variant.from_json(game.state)
        outcome = Outcome(result)  # type: ignore[arg-type]
        for side in SIDES:
            outcome.to[side] = told.get(side, [])
        return self.record(game, by, order, outcome, state)

    # ------------------------------------------------------------------ mails

    def title(self, game: Game) -> str:
        return get_variant(game.variant).title

    def name(self, game: Game, side: str | None) -> str:
        return game.player(side).name if side else "nobody"

    def names(self, game: Game, side: str) -> present.Names:
        return present.Names(side, game.white.name, game.black.name)

    def token(self, game: Game, side: str) -> str:
        return self.signer.reply_token(ReplyToken(game.id, side, game.ply))

    def history_url(self, game: Game, side: str) -> str:
        return history_link(self.settings, game.id, game.player(side).id)

    def send(self, game: Game, mails: Mails) -> None:
        """Render and queue the mails; the event is flushed first so "since your last move" sees it,
        and the outbox rows then go in together at commit."""
        self.session.flush()
        with self.session.no_autoflush:
            self._send(game, mails)

    def _send(self, game: Game, mails: Mails) -> None:
        for side, item in mails.items:
            if item["type"] == "request":
                self.send_request(game, side, item["notice"], item["subject"], item["kind"])
            elif item["type"] == "game-over":
                self.send_game_over(game, side)
            else:
                self.message(game, side, item["kind"], f"Game {game.id}: {item['subject']}", item["paragraphs"],
                             show_position=item["show_position"], show_forms=item["show_forms"])

    def mail(self, game: Game, side: str, kind: str, subject: str, text: str, html: str,
             auto: str = "auto-generated") -> OutboundMessage:
        player = game.player(side)
        return enqueue(self.session, self.settings, Mail(
            recipient=player.email, recipient_name=player.name, kind=kind, subject=subject, text=text, html=html,
            game_id=game.id, token=self.token(game, side), references=(thread_id(self.settings, game.id, side),),
            auto=auto,
        ))

    def request_context(self, game: Game, side: str, notice: list[str]) -> dict[str, Any]:
        variant = get_variant(game.variant)
        state = variant.from_json(game.state)
        view = variant.view(state, side)
        player = game.player(side)
        opponent = other(side)
        names = self.names(game, side)
        strikes = variant.strikes(state)
        limit = game.options.get("strikes", 3)
        commitments = []
        shown = game.commitments.get("shown", {})
        if game.commitments and not shown.get(side):
            commitments = [
                f"Your setup is committed as sha256 {game.commitments[side]['sha256']}; "
                f"{self.name(game, opponent)}'s as sha256 {game.commitments[opponent]['sha256']}. "
                "The keys are sent when the game ends, so either of you can check that no setup was changed."
            ]
            game.commitments = {**game.commitments, "shown": {**shown, side: True}}
        diagrams = present.looking_glass_diagrams(view, side, player.notebook)
        return {
            "subject": "",
            "notice": notice,
            "game": {
                "id": game.id,
                "title": self.title(game),
                "side_title": SIDE_TITLE[side],
                "world": "Real" if side == "white" else "Mirror",
                "opponent": self.name(game, opponent),
                "move_number": variant.move_number(state),
                "strikes_line": f"you {strikes[side]} of {limit}, "
                                f"{self.name(game, opponent)} {strikes[opponent]} of {limit}",
                "deadline": describe_deadline(game.deadline)
                if game.deadline and variant.orderer(state) == side else None,
                "days": game.days,
                "proxy": getattr(state, "proxy", False) and variant.orderer(state) == side,
            },
            "since": self.since(game, side, names),
            "diagrams": diagrams,
            "diagram_lines": present.side_by_side(diagrams),
            "notes": present.notebook_notes(view, side, self.name(game, opponent)) if player.notebook else "",
            "tray": present.tray_words(view["tray"]),
            "forms": order_forms(game, side),
            "history_url": self.history_url(game, side),
            "commitments": commitments,
        }

    def since(self, game: Game, side: str, names: present.Names) -> list[str]:
        """Every message the player was told since their own last completed move."""
        # Only events from the ply of the player's last move on can follow it.
        events = list(self.session.scalars(
            select(Event).options(load_only(Event.seq, Event.result, Event.told))
            .where(Event.game_id == game.id, Event.ply >= game.ply - 1).order_by(Event.seq)
        ))
        start = 0
        for index, event in enumerate(events):
            if event.result in ("moved", "shortened") and any(
                m["kind"] == "moved" and m["color"] == side for m in event.told.get(side, [])
            ):
                start = index + 1
        lines = []
        for event in events[start:]:
            for message in event.told.get(side, []):
                if message["kind"] not in ("error", "rejected", "setup", "setup-done", "start"):
                    lines.append(present.describe(message, names))
        return lines

    def send_request(self, game: Game, side: str, notice: list[str], subject_tail: str, kind: str) -> None:
        variant = get_variant(game.variant)
        state = variant.from_json(game.state)
        if kind == "request" and variant.orderer(state) == side:
            game.deadline = deadline_for(game.player(side), game.days, self.now)
            game.reminded = False
        context = self.request_context(game, side, notice)
        subject = f"Game {game.id}, move {variant.move_number(state)}: {subject_tail} - {self.title(game)}"
        context["subject"] = subject
        text, html = render("move_request", context)
        self.mail(game, side, kind, subject, text, html)

    def message(self, game: Game, side: str, kind: str, subject: str, paragraphs: list[str],
                show_position: bool = False, show_forms: bool = False) -> None:
        lines: list[str] = []
        if show_position and game.status in ("active", "over"):
            variant = get_variant(game.variant)
            view = variant.view(variant.from_json(game.state), side)
            diagrams = present.looking_glass_diagrams(view, side, game.player(side).notebook)
            lines = [*present.side_by_side(diagrams), "", "Captured: " + present.tray_words(view["tray"])]
        if show_forms:
            lines += ["", "Orders:"] + [f"  {example:<12} {meaning}" for example, meaning in order_forms(game, side)]
        text, html = render("message", {"subject": subject, "paragraphs": paragraphs, "lines": lines})
        self.mail(game, side, kind, subject, text, html)

    def send_login_link(self, player: Player, link: str, minutes: int) -> None:
        """A sign-in link for the web pages (asked for at /login)."""
        subject = "Mirrorpost: your sign-in link"
        text, html = render("message", {"subject": subject, "lines": [], "show_marker": False, "paragraphs": [
            f"Here is your link to sign in to your games: {link}",
            f"It works once, for {minutes} minutes. If you did not ask for it, ignore this mail.",
        ]})
        enqueue(self.session, self.settings, Mail(player.email, player.name, "login", subject, text, html))

    def notice(self, game: Game, side: str, kind: str, subject_tail: str, paragraphs: list[str]) -> None:
        self.message(game, side, kind, f"Game {game.id}: {subject_tail}", paragraphs)

    def send_invitation(self, game: Game, side: str) -> None:
        inviter = game.player(other(side)) if game.challenger_id else None
        who = f"{inviter.name} ({inviter.email}) invites you" if inviter else "You are invited"
        self.message(game, side, "invitation", f"Game {game.id}: an invitation to {self.title(game)}", [
            f"{who} to a game of {self.title(game)} by email. You would play {SIDE_TITLE[side]}; "
            f"{self.options_text(game)}.",
            "Reply 'accept' to play or 'decline' to refuse.",
            "The rules in brief: two boards, the Real world (White's) and the Mirror world (Black's). "
            "You see only your own; pieces fall through portals into the other world, and you order "
            "moves there blind. Capture the enemy king to win.",
        ])

    def send_setup_request(self, game: Game, side: str) -> None:
        world = "Real" if side == "white" else "Mirror"
        rank = "1" if side == "white" else "8"
        self.message(game, side, "setup-request", f"Game {game.id}: choose your setup - {self.title(game)}", [
            f"The game is on. You play {SIDE_TITLE[side]}; your army stands in the {world} world, "
            f"pieces on rank {rank}. Choose the order of your back rank, a-file to h-file, in private:",
            "setup RNBQKBNR   (eight letters: bishops on squares of opposite colour, the king between the rooks)",
            "setup 518        (a Chess960 number from 0 to 959; 518 is the standard row)",
            "setup random",
            f"Your opponent's setup is hidden from you, and yours from them. {self.name(game, other(side))} "
            "does not learn your choice; its fingerprint is shown to both of you when play starts.",
        ])

    def send_game_over(self, game: Game, side: str) -> None:
        variant = get_variant(game.variant)
        state = variant.from_json(game.state)
        result_words = present.RESULT_WORDS.get(game.result or "", game.result)
        reason = present.REASONS.get(game.reason or "", game.reason)
        position = variant.position(state)
        reveal = [
            present.Diagram(f"{present.WORLD_NAMES[world]} world (true position)", present.cells(fen), {}, set())
            for world, fen in position.items()
        ]
        lines = [*present.side_by_side(reveal), "", "Setups and their keys:"]
        for each in SIDES:
            row = state.rows.get(each) if hasattr(state, "rows") else None
            entry = game.commitments.get(each)
            if entry:
                lines.append(f"  {SIDE_TITLE[each]}: {row}  salt {entry['salt']}  sha256 {entry['sha256']}")
                lines.append(f"    check: sha256 of \"{entry['salt']}:{game.variant}:{each}:{row}\"")
        lines += ["", "Every event, with what each player was told:"]
        events = self.session.scalars(select(Event).where(Event.game_id == game.id).order_by(Event.seq))
        for event in events:
            who = SIDE_TITLE.get(event.by or "", "Referee")
            lines.append(f"  {event.seq}. move {event.move_number}, {who}: {event.order or '-'} -> {event.result}")
            for each in SIDES:
                for message in event.told.get(each, []):
                    lines.append(f"       to {SIDE_TITLE[each]}: " + present.describe(message, self.names(game, each)))
        subject = f"Game {game.id}: game over - {result_words} ({reason}) - {self.title(game)}"
        text, html = render("message", {"subject": subject, "paragraphs": [
            f"Game {game.id} is over: {result_words} ({reason}).",
            f"Here is the whole game: both worlds, both setups with the keys to their fingerprints, and every "
            f"order with what each player was told. Your history: {self.history_url(game, side)}",
        ], "lines": lines})
        self.mail(game, side, "game-over", subject, text, html)


def help_paragraphs() -> list[str]:
    return [
        "Mirrorpost referees your game by email. Reply to your latest move request with one order "
        "on the first line. Lines with a square name or a command word are read as orders; other lines are "
        "ignored as chatter. Quoted text and signatures are never read.",
        "Other commands: say <text> (passed on to your opponent), board (your position again), history "
        "(a link to your history), notebook on|off, vacation <days> (pauses your clock), public on|off "
        "(share the reveal after the game), resign, offer draw, accept draw, decline draw.",
        "To start a new game, send 'challenge friend@example.org looking-glass days=3' to the referee's address.",
    ]


class Mails:
    """Mails decided while handling one message, at most one move request per player."""

    def __init__(self) -> None:
        self.items: list[tuple[str, dict[str, Any]]] = []

    def request(self, side: str, notice: list[str], subject: str, kind: str = "request") -> None:
        self.items = [(s, i) for s, i in self.items if not (s == side and i["type"] == "request")]
        self.items.append((side, {"type": "request", "notice": notice, "subject": subject, "kind": kind}))

    def message(self, side: str, kind: str, subject: str, paragraphs: list[str], show_position: bool = False,
                show_forms: bool = False) -> None:
        self.items.append((side, {"type": "message", "kind": kind, "subject": subject, "paragraphs": paragraphs,
                                  "show_position": show_position, "show_forms": show_forms}))

    def game_over(self, side: str) -> None:
        """The game-over mail replaces the player's other pending mails, but not a passed-on message."""
        self.items = [(s, i) for s, i in self.items if s != side or (i["type"] == "message" and i["kind"] == "said")]
        self.items.append((side, {"type": "game-over", "kind": "game-over"}))
