"""The clocks: deadlines, reminders, losses on time and vacations (the arithmetic is in ``clock``).

Each game keeps in ``next_clock_at`` when its clock must next look at it (``next_look``, written by
every flush); a periodic round reads only the games due (``due_games``) and ``tick`` acts on each:
a reminder, or the loss on time.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from app.config import Settings
from app.games.mail.mails import Mails
from app.games.play.clock import describe_deadline, describe_lead, lead_hours, reminder_leads, vacation_days
from app.games.play.turn import Turn
from app.games.records import rows
from app.games.records.events import EventRecord
from app.games.records.rows import GameRecord, PlayerRecord
from app.games.records.work import UnitOfWork
from app.rules.base import Side, other


def next_look(game: GameRecord, orderer: Side | None) -> datetime | None:
    """When the clock must next look at the game, kept in ``games.next_clock_at`` by every flush.

    Before the deadline for the next reminder not yet sent in this turn (``pending_leads``), then the deadline
    itself for the loss on time; not before the player to move (``orderer``) is back from vacation (their clock
    is paused); never for a game that is not running, has no one to move or whose player to move has not yet
    been told (their clock starts with their digest). Each periodic round then reads only the games due
    (``due_games``, a partial index holding the running games alone), and ``tick`` acts on exactly those: a game
    looked at is either acted on or given its next look, so no game is taken up again and again for nothing.
    """
    if game.status != "active" or game.deadline is None or orderer is None:
        return None
    pending = pending_leads(game, orderer)
    look = game.deadline - pending[0] if pending else game.deadline
    away_until = game.player(orderer).vacation_until
    return max(look, away_until) if away_until else look


def pending_leads(game: GameRecord, orderer: Side) -> list[timedelta]:
    """The reminders of this turn not yet sent, longest lead first (each is sent at most once a turn)."""
    leads = reminder_leads(game.days, game.player(orderer).reminders)
    if game.reminded_lead is None:
        return [] if game.reminded else leads  # reminded before leads were kept: its one reminder was sent
    return [lead for lead in leads if lead < timedelta(hours=game.reminded_lead)]


class Clocks:
    """Deadlines, reminders, losses on time and vacations."""

    def __init__(self, work: UnitOfWork, settings: Settings, events: EventRecord, turn: Turn) -> None:
        self.work = work
        self.settings = settings
        self.events = events
        self.turn = turn

    def due_games(self) -> list[int]:
        """The games whose clock needs a look now (a reminder or a loss on time), soonest first."""
        return rows.due_games(self.work.connection, self.work.now)

    def tick(self, game_id: int) -> int:
        """The next reminder before the deadline (each once a turn: ``reminded_lead`` is cleared only when the
        turn is handed over), or the loss on time after it (1 if acted)."""
        game = self.work.try_lock(game_id)
        if game is None:  # another worker has it now
            return 0
        side = self.work.orderer(game) if game.status == "active" else None
        look = next_look(game, side)
        if look is None or look > self.work.now or game.deadline is None:  # nothing due: the flush writes its look
            return 0
        if game.deadline <= self.work.now:
            self.timeout(game)
            return 1
        assert side is not None  # ``next_look`` has none for a game without a player to move
        pending = pending_leads(game, side)
        lead = [lead for lead in pending if game.deadline - lead <= self.work.now][-1]  # the latest due
        game.reminded, game.reminded_lead = True, lead_hours(lead)
        within = describe_lead(lead)
        mails = Mails()
        mails.request(side, [
            f"Reminder: your move is due by {describe_deadline(game.deadline)}, "
            f"less than {within} from now. Without a move by then you lose on time."
        ], f"reminder: your move is due within {within}", kind="reminder",
            at_once=lead == pending[-1])  # the last warning comes at once, even to a player on the digest
        self.turn.send(game, mails)
        return 1

    def timeout(self, game: GameRecord) -> None:
        """The orderer's time ran out: they lose (LG-11, the correspondence clock)."""
        variant, state = self.work.variant(game), self.work.state(game)
        loser = variant.orderer(state)
        if loser is None:
            return
        number = variant.move_number(state)
        outcome = variant.forfeit(state, loser, "time")
        self.work.touch(game)
        self.events.record(game, None, "", outcome, result="timeout", move_number=number)
        self.turn.finish(game, *variant.result(state), Mails())  # which queues the game-over mails

    # ------------------------------------------------------------------ vacations

    def vacation(self, player: PlayerRecord, argument: str, side: str, game: GameRecord | None,
                 mails: Mails | None) -> str:
        """Pause the player's clock for N days (a yearly allowance)."""
        now, allowance = self.work.now, self.settings.vacation_days_per_year
        days = vacation_days(argument)
        if days is None:
            text = "write: vacation <number of days>"
        else:
            if player.vacation_year != now.year:
                player.vacation_year, player.vacation_days_used = now.year, 0
            left = allowance - player.vacation_days_used
            if days > left:
                text = f"you have {left} vacation day{'s' if left != 1 else ''} left this year, not {days}"
            else:
                start = max(now, player.vacation_until) if player.vacation_until else now
                player.vacation_until = start + timedelta(days=days)
                player.vacation_days_used += days
                for running in self.work.running_games(player):
                    running_side = running.side_of(player)
                    moved = self.work.orderer(running) == running_side and running.deadline
                    if moved:  # a reminder already sent in this turn is not sent again
                        running.deadline += timedelta(days=days)
                    self.tell_vacation(running, running_side, player, bool(moved))
                text = (f"Your clock is paused until {describe_deadline(player.vacation_until)} "
                        f"({player.vacation_days_used} of {allowance} days used this year).")
        if mails is not None:
            mails.message(side, "vacation", "vacation", [text])
        self.work.flush()
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
        self.turn.send(game, mails)
