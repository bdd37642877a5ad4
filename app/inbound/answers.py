"""Limits on what the referee sends to mail outside any game: no robot, loop or forger gets more than a few.

Two kinds are counted, apart from a player's error notices in their games (the outbox counts
those), so neither can silence the other:

- an **answer** (help, the games list, a confirmation request, a command's result) counts against
  the address it goes to: a robot that answers every mail, or two servers whose relay strips the
  automatic-mail headers, get a few answers an hour and a day, and then none;
- a **refusal** (a forged or unverified mail, one too large or unreadable) counts against the sender
  that caused it, the envelope sender (else the From address): mail forged in a player's name uses up
  the forger's allowance, never the player's. A day's worth of refusals to one address bounds what
  many forgers together can send there.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Connection, func, insert, select

from app.config import Settings
from app.inbound.models import Answer

TABLE = Answer.__table__
HOUR, DAY = timedelta(hours=1), timedelta(days=1)


@dataclass
class Answers:
    """The answers ledger, in the caller's transaction."""

    connection: Connection
    settings: Settings
    now: datetime

    def _count(self, column: str, value: str, kind: str, since: datetime) -> int:
        query = select(func.count()).select_from(TABLE).where(
            TABLE.c[column] == value, TABLE.c.kind == kind, TABLE.c.created_at >= since)
        return self.connection.execute(query).scalar() or 0

    def may_answer(self, recipient: str) -> bool:
        """Whether another answer may go to ``recipient`` now (per hour and per day)."""
        return (self._count("recipient", recipient, "answer", self.now - HOUR) < self.settings.answers_per_hour
                and self._count("recipient", recipient, "answer", self.now - DAY) < self.settings.answers_per_day)

    def may_refuse(self, recipient: str, cause: str) -> bool:
        """Whether a refusal caused by ``cause`` may go to ``recipient`` now: a few an hour per cause, and a
        day's worth per recipient (many forgers cannot bury one address), never the recipient's own allowance
        of answers or error notices."""
        return (self._count("cause", cause, "refusal", self.now - HOUR) < self.settings.answers_per_hour
                and self._count("recipient", recipient, "refusal", self.now - DAY) < self.settings.answers_per_day)

    def record(self, recipient: str, cause: str, kind: str) -> None:
        self.connection.execute(insert(TABLE).values(recipient=recipient[:320], cause=cause[:320], kind=kind,
                                                     created_at=self.now))
