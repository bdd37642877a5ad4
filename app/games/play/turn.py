"""The turn: the variant's answer to an order, the event recorded, and the turn handed over.

An order goes to the variant's referee, which changes the game's state; the event goes into the
record, the referee's own events (a pass for a player who is home) follow, and the mails it causes
are decided (``mails_for``). Play starting, stale replies and orders after the end are answered here.
"""

from __future__ import annotations

import random
import secrets
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from app.games.commands.reading import REFEREE, Command
from app.games.digest.holding import Holding
from app.games.errors import ServiceError
from app.games.mail.mailing import Mailer
from app.games.mail.mails import Mails
from app.games.play.clock import deadline_for
from app.games.play.commitment import commitment
from app.games.records.events import EventRecord
from app.games.records.rows import GameRecord
from app.games.records.work import UnitOfWork
from app.present.registry import presenter_for
from app.present.words import SIDE_TITLE
from app.rules.base import SIDES, Outcome, Side, other
from app.rules.messages import refusal


@dataclass(frozen=True)
class Ending:
    """What a listener makes of a game's end: what each side's game-over mail adds (``lines``, by side), and what
    it does once those mails are queued (``then``: a tournament's next round or its end, whose mails must come
    after the game-over mails of the game that caused them). The turn runs ``then`` itself, right after it
    queues the game-over mails, so no path that ends a game can leave it out or run it too soon."""

    lines: Mapping[str, list[str]] = field(default_factory=dict)
    then: Callable[[], None] | None = None


# A listener to the end of games, handed to the turn by a layer above the game service (the club's ratings and
# tournaments): given a game that has just ended (its result set), in the transaction that ended it, it does its
# own work and says what follows (an ``Ending``). Whatever mails it causes belong in ``then``: before it, the
# game-over mails are not yet queued. The turn holds a listener that is a method weakly: its object belongs to
# the layer above (which may hold the turn itself), and a handled message is then freed by reference counting
# alone, with no cycle for the collector.
GameEnded = Callable[[GameRecord], Ending]


def held_weakly(listener: GameEnded) -> Callable[[], GameEnded | None]:
    return weakref.WeakMethod(listener) if hasattr(listener, "__self__") else lambda: listener


# What a player's own draw offer or decline did: a word inside the other mail their reply gives them (a move sent
# with ``offer draw`` is one mail), or a mail of its own.
RECEIPTS = ("offered", "declined")


class Turn:
    """Orders played, and play started and ended."""

    def __init__(self, work: UnitOfWork, mailer: Mailer, events: EventRecord, holding: Holding,
                 listeners: Sequence[GameEnded] = ()) -> None:
        self.work = work
        self.mailer = mailer
        self.events = events
        self.holding = holding  # what waits for a player's daily digest
        self.listeners = tuple(held_weakly(listener) for listener in listeners)  # told of every game's end, in order

    # ------------------------------------------------------------------ the start

    def start(self, game: GameRecord, why: str = "Both have accepted") -> None:
        """Both have agreed (``why`` says how): each is asked for a setup, where the game has one, or play
        begins."""
        variant, state = self.work.variant(game), self.work.state(game)
        if any(variant.needs_setup(state, side) for side in SIDES):
            game.status = "setup"
            for side in SIDES:
                self.mailer.send_setup_request(game, side)
            return
        game.status = "active"
        orderer = self.work.orderer(game)
        assert orderer is not None
        self.hand_over(game, orderer)
        mails = Mails()
        self.announce_start(game, why, mails)
        self.send(game, mails)

    def hand_over(self, game: GameRecord, side: Side, told_now: bool = False) -> None:
        """The turn passes to ``side``: the one place a player's clock starts, with the full time of a move
        (paused while they are on vacation), whatever mails go with the turn (a move request, a draw offer,
        a message passed on). A player on the daily digest who is not told now (``Holding.tells_later``) is
        told by their next digest, which hands the turn over again (``told_now``): their clock starts then,
        and until then the game has no deadline."""
        if told_now or not self.holding.tells_later(game.player(side)):
            game.deadline = deadline_for(game.player(side), game.days, self.work.now)
        else:
            game.deadline = None
        game.reminded, game.reminded_lead = False, None

    def announce_start(self, game: GameRecord, why: str, mails: Mails) -> None:
        """Play begins: the first to move gets the first move request, the other a word that it has begun."""
        orderer = self.work.orderer(game)
        assert orderer is not None
        for each in SIDES:
            if each == orderer:
                mails.request(each, [f"{why}: the game has started. You move first."],
                              f"the game has started - your move ({SIDE_TITLE[each]})")
            else:
                mails.message(each, "started", f"the game has started - waiting for {SIDE_TITLE[orderer]}", [
                    f"{why}: the game has started. {SIDE_TITLE[orderer]} moves first; you will get your move "
                    f"request after {SIDE_TITLE[orderer]}'s move."], show_position=True)

    def begin_play(self, game: GameRecord) -> None:
        """Both setups are in: commit to hidden ones (tamper evidence)."""
        game.status = "active"
        rows = self.work.variant(game).hidden_setups(self.work.state(game))
        if not rows:
            return
        commitments = {}
        for side in SIDES:
            salt = secrets.token_hex(16)
            commitments[side] = {"salt": salt, "sha256": commitment(salt, game.variant, side, rows[side])}
        game.commitments = commitments

    # ------------------------------------------------------------------ orders

    def order(self, game: GameRecord, side: Side, command: Command, mails: Mails,
              tries: Sequence[Command] = ()) -> str:
        """One order for the referee, the events the referee then makes on its own, and the mails they cause.
        ``tries``: the move lines after it in the same reply, where the variant takes several (KS-5,
        ``Variant.move_lines``): each is played in turn while the one before was rejected, one event each, and the
        sender hears of the rejected ones in the mail about the last. Returns what it did, for the inbound record."""
        variant, state = self.work.variant(game), self.work.state(game)
        before = variant.orderer(state)
        outcome, written, tried, done = self.play_lines(game, side, [command, *tries])
        if tried and outcome.result == "rejected":  # none played: the last is told with the others
            tried.append((written, refusal(outcome.to[side]) or outcome.result))
        names = self.mailer.names(game, side)
        told = [presenter_for(game.variant).tried(tried, names, outcome.result == "rejected")] if tried else []
        if outcome.result == "setup" and variant.orderer(state) is not None:
            self.begin_play(game)
        turned = variant.completes_turn(outcome.result)  # a turn completed, by this order or by the referee after it
        while True:  # events the referee makes on its own, e.g. a pass for a player who is home
            number = variant.move_number(state)
            made = variant.automatic(state)
            if made is None:
                break
            self.apply(game, made[0], None, made[1], number)
            turned = turned or variant.completes_turn(made[1].result)
        result, reason = variant.result(state)
        if result is not None:
            if told:
                mails.note(side, "your tries", told)  # in the game-over mail
            self.finish(game, result, reason, mails)
            return "; ".join(done)
        after = variant.orderer(state)
        if after is not None and (turned or after != before):
            self.hand_over(game, after)
        self.mails_for(game, side, written, outcome, before, mails, told)
        return "; ".join(done)

    def play_lines(self, game: GameRecord, side: Side, lines: list[Command]
                   ) -> tuple[Outcome, str, list[tuple[str, str]], list[str]]:
        """Each line played in turn while the one before was rejected, one event each. Returns the last line's
        outcome and order as read, the lines rejected before it (as read, and why), and what each line did."""
        variant, state = self.work.variant(game), self.work.state(game)
        tried: list[tuple[str, str]] = []
        done = []
        for index, line in enumerate(lines):
            number = variant.move_number(state)  # the move this order belongs to, as the player's request said
            outcome = variant.play(state, side, line.text, random.SystemRandom())
            written = outcome.order or line.text
            self.apply(game, side, written, outcome, number)
            done.append(f"{line.text}: {outcome.result}")
            if outcome.result != "rejected" or index == len(lines) - 1:
                return outcome, written, tried, done
            tried.append((written, refusal(outcome.to[side]) or outcome.result))
        raise ValueError("no order line to play")

    def apply(self, game: GameRecord, by: Side, order: str | None, outcome: Outcome, move_number: int) -> None:
        """The state after one event (already changed by the referee), and the event in the record (at the move
        it was made in)."""
        if self.work.variant(game).completes_turn(outcome.result):
            game.ply += 1
        self.work.touch(game)
        self.events.record(game, by, order or "", outcome, move_number=move_number)

    def mails_for(self, game: GameRecord, side: Side, order: str, outcome: Outcome, before: Side | None,
                  mails: Mails, tried: Sequence[str] = ()) -> None:
        """Who hears what at once: the variant's presenter words it, the turn decides request or notice. ``tried``:
        what the sender is told first of the lines of their reply tried before this order (``order``), and of this
        one too where it was rejected as well."""
        presenter = presenter_for(game.variant)
        turned = self.work.variant(game).completes_turn(outcome.result)
        orderer = self.work.orderer(game)
        standing = self.mailer.standing(game, self.work.state(game))
        if outcome.result == "setup" and orderer is not None:
            self.announce_start(game, "Both setups are in", mails)
            return
        for each in SIDES:
            names = self.mailer.names(game, each)
            tidings = presenter.tell(outcome.result, outcome.to[each], each == side, order, names, standing)
            if each == side and tried and tidings is not None:
                tidings = replace(tidings, lines=[*tried, *(tidings.lines if outcome.result != "rejected" else [])])
            if each == side and outcome.result in RECEIPTS and tidings is not None:
                mails.note(each, tidings.subject, tidings.lines)  # inside the mail the rest of the reply gives
            elif each == orderer and (each == side or before != each or tidings is not None):
                if turned or tidings is None:  # the turn has come to them
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

    # ------------------------------------------------------------------ the end, and replies that come late

    def resign_for(self, game: GameRecord, side: Side, why: str) -> None:
        """``side`` resigns without a reply of theirs (``why``: what they did instead, such as withdrawing from
        what the game is part of), as their own ``resign`` would: the event recorded, the end and its mails, which
        say why to both players (queued by ``finish``; the send here sends whatever else the order caused)."""
        mails = Mails()
        for each in SIDES:
            mails.note(each, "why", [why])
        self.order(game, side, Command(REFEREE, "resign"), mails)
        self.send(game, mails)

    def finish(self, game: GameRecord, result: str, reason: str | None, mails: Mails) -> None:
        """The one place a game ends (a move, a resignation, a draw agreed or automatic, a loss on time, a
        withdrawal's resignation) and the one place its game-over mails are queued. The listeners hear of it first
        (a rated game's players are rated), and what they say goes into those mails; then the mails are queued,
        with whatever else ``mails`` holds for this reply (which is then empty: the caller's own send after this
        sends nothing again); then what the listeners left to follow runs (a Swiss's next round, a tournament's
        end), so its mails come after the game-over mails of the game that caused them."""
        game.status = "over"
        game.result, game.reason = result, reason
        game.deadline = None
        endings = []
        for held in self.listeners:
            listener = held()
            if listener is None:  # its object went before the service it belongs to: never skip a game's end
                raise RuntimeError("a listener to the end of games was freed while its turn still plays")
            endings.append(listener(game))
        for side in SIDES:
            mails.game_over(side, [line for ending in endings for line in ending.lines.get(side, [])])
        self.send(game, mails)
        for ending in endings:
            if ending.then is not None:
                try:
                    ending.then()
                except ServiceError as error:  # the server's own work after the end, never a refusal of the reply:
                    raise RuntimeError(f"after game {game.id} ended: {error}") from error  # nothing is kept

    def after_the_end(self, game: GameRecord, side: str, order: Command | None) -> None:
        """An order, or a reply with none, sent after the game ended: a short word to the sender alone, nothing
        recorded and no order forms."""
        mailer = self.mailer
        end = presenter_for(game.variant).end_words(game.result, game.reason)
        what = f"Your order {self.work.variant(game).written(order.text)[:80]} was not played." if order else \
            "Nothing in your reply was carried out, and replies are not passed on to your opponent."
        mailer.notice(game, side, "notice", "this game is over", [
            f"Game {game.id} is already over: {end}. {what}",
            f"The whole game, move by move: {mailer.history_url(game, side)}",
        ])

    def stale(self, game: GameRecord, side: str, move: Command) -> None:
        """A move in reply to an old move request: not played; the current request again, or a word to wait."""
        mails = Mails()
        notice = [
            f"Your order {self.work.variant(game).written(move.text)[:80]} answered an old move request, so it was "
            "not applied: the game has moved on since that mail."
        ]
        if self.work.orderer(game) == side:
            notice.append("Here is your current move request. Reply to this mail with your order.")
            mails.request(side, notice, "old move request - here is the current one", kind="stale")
        else:
            notice.append(f"It is now {game.player(other(side)).name}'s turn; wait for your next move request.")
            mails.message(side, "stale", "reply to an old move request", notice, show_position=True)
        self.send(game, mails)

    # ------------------------------------------------------------------ mails

    def send(self, game: GameRecord, mails: Mails) -> None:
        """Have the mails written; the first move request or start notice each player gets once play has begun
        shows the fingerprints of the hidden setups (marked shown, so only once)."""
        for side, item in mails.items:
            if item["type"] != "request" and item["kind"] != "started":
                continue
            shown = game.commitments.get("shown", {})
            if side in game.commitments and not shown.get(side):
                item["commitments"] = True
                game.commitments = {**game.commitments, "shown": {**shown, side: True}}
        self.holding.hold_back(game, mails)  # what waits for a player's daily digest
        self.mailer.send(game, mails)
        mails.items = []  # sent once: a second send of these mails (after ``finish`` sent them) sends nothing
