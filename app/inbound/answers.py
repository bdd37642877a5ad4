"""Limits on what the referee sends to mail outside any game: no robot, loop or forger gets more than a few.

Two kinds are counted, apart from a player's error notices in their games (the outbox counts
those), so neither can silence the other: an **answer** (help, the games list, a confirmation
request, a command's result) and a **refusal** (a forged or unverified mail, one too large or
unreadable). Each is counted against its **cause**, the sender that made it happen (the envelope
sender, else the From address), never against the address named in a forged From:

- one cause gets a few an hour and a day, and then none: a robot that answers every mail, or two
  servers whose relay strips the automatic-mail headers, stop there;
- mail that others caused to one address (cause and recipient differ: forgers, however many and
  however they rotate their senders) reaches it at most a day's worth, a bound of its own: it never
  uses up what the address's own mail may cause, so forgers cannot silence its owner.

Only mails the referee sent are counted (``record``, once one is allowed). A reply proved by a key
of ours (a confirmation) is answered without asking here: only the owner of the address has the key.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, Connection, func, insert, select

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

    def _count(self, kind: str, since: timedelta, *where: ColumnElement[bool]) -> int:
        query = select(func.count()).select_from(TABLE).where(
            TABLE.c.kind == kind, TABLE.c.created_at >= self.now - since, *where)
        return self.connection.execute(query).scalar() or 0

    def _allowed(self, kind: str, recipient: str, cause: str) -> bool:
        """Whether one more mail of ``kind`` caused by ``cause`` may go to ``recipient`` now: within the cause's
        own allowance an hour and a day, and, caused by someone else, within what others may cause there."""
        hourly, daily = self.settings.answers_per_hour, self.settings.answers_per_day
        if self._count(kind, HOUR, TABLE.c.cause == cause) >= hourly or \
                self._count(kind, DAY, TABLE.c.cause == cause) >= daily:
            return False
        return cause == recipient or self._count(kind, DAY, TABLE.c.recipient == recipient,
                                                 TABLE.c.cause != TABLE.c.recipient) < daily

    def may_answer(self, recipient: str, cause: str) -> bool:
        """Whether another answer, caused by ``cause`` (the envelope sender, else the From), may go to
        ``recipient`` now."""
        return self._allowed("answer", recipient.lower(), cause.lower())

    def may_refuse(self, recipient: str, cause: str) -> bool:
        """Whether a refusal caused by ``cause`` may go to ``recipient`` now."""
        return self._allowed("refusal", recipient.lower(), cause.lower())

    def record(self, recipient: str, cause: str, kind: str) -> None:
        """One mail sent: an answer or a refusal, to ``recipient``, caused by ``cause``."""
        self.connection.execute(insert(TABLE).values(recipient=recipient.lower()[:320], cause=cause.lower()[:320],
                                                     kind=kind, created_at=self.now))
