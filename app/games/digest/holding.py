"""What waits for a player's daily digest: the mails a game causes for them, held back as they are decided.

Mails a game causes for a player on the digest are held back (``hold_back``) unless they answer the
player's own reply (``UnitOfWork.actor_id``) or must come at once (the game-over mail, the last warning
before a loss on time; invitations, setup requests, confirmations and sign-in links never pass through
here). What is held back is in the event record already (what they were told since their last move), or
is kept as a note for the digest (``rows.add_note``). While the turn waits for their digest, their
opponent is told when they will hear of it (``reads_daily``).
"""

from __future__ import annotations

from typing import Any

from app.games.digest import rows
from app.games.mail.mailing import Mailer
from app.games.mail.mails import Mails
from app.games.records.rows import GameRecord, PlayerRecord
from app.games.records.work import UnitOfWork
from app.rules.base import SIDES, other

SAID_BY_THE_DIGEST = frozenset({"started"})  # notices the digest's line for the game says itself


def reads_daily(player: PlayerRecord) -> str:
    """What a player's opponent is told while the turn waits for that player's digest."""
    return (f"{player.name} reads their games once a day, at {player.digest_hour or 0:02d}:00 UTC; their time for "
            "this move starts then.")


class Holding:
    """Holds back from the mails of a change what waits for a player's digest; below the turn, which asks it."""

    def __init__(self, work: UnitOfWork, mailer: Mailer) -> None:
        self.work = work
        self.mailer = mailer

    def tells_later(self, player: PlayerRecord) -> bool:
        """Whether news of a game for this player waits for their digest: they are on it, and it is not their own
        reply being answered."""
        return player.digest_hour is not None and player.id != self.work.actor_id

    def waits(self, game: GameRecord, side: str) -> bool:
        """The turn is ``side``'s and waits for their digest: their clock has not started."""
        return (game.status == "active" and game.deadline is None and game.player(side).digest_hour is not None
                and self.work.orderer(game) == side)

    def hold_back(self, game: GameRecord, mails: Mails) -> None:
        """Take out of ``mails`` what waits for a player's digest (keeping as a note what the event record does not
        keep), and tell the other player when the one on the digest will hear of their turn."""
        for side in SIDES:
            if self.tells_later(game.player(side)):
                mails.items = [(each, item) for each, item in mails.items
                               if each != side or not self.held(game, side, item)]
        for side in SIDES:
            if self.waits(game, other(side)):
                self.add_words(mails, side, reads_daily(game.player(other(side))))

    def held(self, game: GameRecord, side: str, item: dict[str, Any]) -> bool:
        """Whether one mail waits for the digest; what it says that no event keeps is noted for the digest."""
        if item["type"] == "game-over" or item.get("at_once"):
            return False
        kept = []
        if item["type"] == "note" or (item["type"] == "message" and not item.get("told")
                                      and item["kind"] not in SAID_BY_THE_DIGEST):
            kept += item["paragraphs"]
        if item.get("commitments"):
            kept += self.mailer.fingerprints(game, side)
        if kept:
            rows.add_note(self.work.connection, game.player(side).id, game.id, kept, self.work.now)
        return True

    @staticmethod
    def add_words(mails: Mails, side: str, words: str) -> None:
        """A sentence at the end of the first mail to ``side`` that has text of its own."""
        for each, item in mails.items:
            if each == side and item["type"] in ("request", "message"):
                field_name = "notice" if item["type"] == "request" else "paragraphs"
                item[field_name] = [*item[field_name], words]
                return
