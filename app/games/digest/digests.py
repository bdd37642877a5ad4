"""The daily digest: who is on it, and the round that sends it.

A player on the digest (``players.digest_hour``) gets, at that hour (UTC), one mail listing every game
where it is their move (``digest.mail`` renders it), instead of a move request or a notice for each
event; what a game causes for them meanwhile is held back (``digest.holding``).

Their clock for a move starts when they are told of it: ``Turn.hand_over`` leaves a game's deadline
unset while the turn waits for the digest, and the digest hands the turn over again as it goes out.

The round (``due`` and ``send``) reads only the players due (a partial index), and claims each player's
digest by a conditional update of their due time after locking their games in id order, so two workers
never send one digest twice and a reply being carried out never waits on a digest in the other order.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select

from app.games.digest import rows
from app.games.digest.mail import DigestMail, Entry
from app.games.mail.mailing import Mailer
from app.games.mail.mails import Mails
from app.games.models import Game
from app.games.play.clock import describe_deadline, hours_words
from app.games.play.turn import Turn
from app.games.records.rows import PlayerRecord
from app.games.records.work import UnitOfWork
from app.present.words import SIDE_TITLE

LISTED_STATUSES = ("setup", "active")  # the games a digest lists: those under way


def next_due(hour: int, now: datetime) -> datetime:
    """The next time the clock shows ``hour``:00 UTC, after ``now``."""
    at = now.replace(hour=hour, minute=0, second=0, microsecond=0)
    return at if at > now else at + timedelta(days=1)


class Digests:
    """The digest's side of the game service: who is on it, and the round."""

    def __init__(self, work: UnitOfWork, mailer: Mailer, turn: Turn) -> None:
        self.work = work
        self.mailer = mailer
        self.turn = turn

    # ------------------------------------------------------------------ preferences

    def choose(self, player: PlayerRecord, hour: int | None) -> str:
        """``digest daily HOUR`` (``hour``) or ``digest off`` (None); says what was done. Turned off, every
        turn that waited for the digest is handed over now, with its move request, and what was kept is sent."""
        if hour is None:
            if player.digest_hour is None:
                return "You are not on the daily digest: you get a mail for each move and notice already."
            player.digest_hour, player.digest_due_at = None, None
            self.tell_now(player)
            return ("The daily digest is off: you get a mail for each move and notice again. Your move requests "
                    "for the games waiting for your digest come now.")
        player.digest_hour, player.digest_due_at = hour, next_due(hour, self.work.now)
        return (f"You are on the daily digest: one mail a day at {hour:02d}:00 UTC lists every game where it is "
                "your move, instead of a mail for each move. Your time for a move starts with the digest that "
                f"tells you of it. Your first digest comes {describe_deadline(player.digest_due_at)}. "
                "Game-over mails and the last reminder before a loss on time still come at once.")

    def remind(self, player: PlayerRecord, hours: list[int] | None) -> str:
        """``remind 24h 2h`` (``hours``) or ``remind default`` (None); says what was done."""
        player.reminders = sorted(set(hours), reverse=True) if hours else None
        self.work.running_games(player)  # locked and so flushed: each game's next look follows the hours
        if not hours:
            return ("You are reminded as by default: 24 hours before a deadline (halfway through a move of one or "
                    "two days).")
        listed = hours_words(player.reminders or [])
        return (f"You are reminded {listed} before each deadline (a reminder that would come with the move "
                "request itself is left out). The last comes at once even on the digest.")

    def tell_now(self, player: PlayerRecord) -> None:
        """The player left the digest: each turn that waited for it is handed over now, with its move request,
        and what was kept for it goes with that mail or in a notice of its own."""
        notes = rows.notes_of(self.work.connection, player.id)
        for game in self.work.running_games(player):
            side = game.side_of(player)
            assert side is not None
            kept = [line for _note, game_id, lines in notes if game_id == game.id for line in lines]
            mails = Mails()
            if self.work.orderer(game) == side and game.deadline is None:
                self.turn.hand_over(game, side, told_now=True)
                mails.request(side, kept, f"your move ({SIDE_TITLE[side]})")
            elif kept:
                mails.message(side, "notice", "while you were on the digest", kept)
            self.turn.send(game, mails)
        rows.drop_notes(self.work.connection, [note for note, _game, _lines in notes])

    # ------------------------------------------------------------------ the round

    def due(self, every: bool = False) -> list[tuple[int, datetime]]:
        """(player id, due time) of the players whose digest is due (``every``: every player on the digest)."""
        return rows.due_players(self.work.connection, self.work.now, every)

    def send(self, player_id: int, seen: datetime) -> int:
        """The player's digest, if it is still theirs to send (1) and they have a game to move or news."""
        email = rows.email_of(self.work.connection, player_id)
        if email is None:
            return 0
        player = self.work.player(email)
        games = [self.work.lock(game_id) for game_id in self.listed_ids(player)]  # in id order
        if player.digest_hour is None or not rows.claim(
                self.work.connection, player_id, seen, next_due(player.digest_hour, self.work.now)):
            return 0
        notes = rows.notes_of(self.work.connection, player.id)
        entries = []
        for game in games:
            side = game.side_of(player)
            assert side is not None
            orderer = self.work.orderer(game) if game.status == "active" else None
            kept = [line for _note, game_id, lines in notes if game_id == game.id for line in lines]
            entries.append(Entry(game, side, orderer, kept))
        rows.drop_notes(self.work.connection, [note for note, _game, _lines in notes])
        if not any(entry.to_move or entry.notes for entry in entries):
            return 0
        for entry in entries:
            if entry.to_move and entry.game.deadline is None:  # they are told now: their clock starts
                self.turn.hand_over(entry.game, entry.side, told_now=True)
        listed = {entry.game.id: entry.game.ply for entry in entries if entry.to_move}
        token = rows.add_digest(self.work.connection, player.id, self.work.now, listed)
        DigestMail(self.mailer, self.work).send(player, entries, token)
        return 1

    def listed_ids(self, player: PlayerRecord) -> list[int]:
        return list(self.work.connection.execute(
            select(Game.id).where((Game.white_id == player.id) | (Game.black_id == player.id),
                                  Game.status.in_(LISTED_STATUSES)).order_by(Game.id)).scalars())
