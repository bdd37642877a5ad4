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

Only what a forged sender could cause is counted: mails the referee sent (``record``, once one is
allowed) in answer to mail that is not proven. Mail its provider signs (a proven sender,
``app.inbound.proof``) is never counted, nor asked about here. A reply proved by a key of ours (a
confirmation) is answered without asking here, since only the owner of the address has the key, and the
confirmation request it answers is taken back (``refund``): its owner asked for it.

When a sender's own mail uses up its allowance, the answer that does so says so: that it is the last
for now and from when the referee answers again (``limit_notice``), at most once an hour for the hourly
allowance and once a day for the daily one, each such word counted here too; mail after it gets no
answer. Only the cause's own address is told: mail that others caused to an address (forgers) never
brings it that word, however much comes.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, Connection, delete, func, insert, select

from app.config import Settings
from app.inbound.models import Answer

TABLE = Answer.__table__
HOUR, DAY = timedelta(hours=1), timedelta(days=1)
LIMIT_KINDS = {HOUR: "hour-limit", DAY: "day-limit"}  # a notice that the answers of that window are used up


@dataclass(frozen=True)
class LimitReached:
    """The allowance a sender has used up, and when the referee answers its mail again."""

    window: timedelta  # HOUR or DAY
    allowance: int  # answers in that window
    resumes: datetime


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

    def limit_notice(self, recipient: str, cause: str) -> LimitReached | None:
        """The limit to tell ``recipient`` of, once, when its own mail (``cause``) has used up its answers and it
        was not told so in that window; None when it may be answered, was told, or did not cause the mail."""
        recipient, cause = recipient.lower(), cause.lower()
        if recipient != cause:
            return None
        reached = [LimitReached(window, allowance, resumes) for window, allowance in
                   ((HOUR, self.settings.answers_per_hour), (DAY, self.settings.answers_per_day))
                   if (resumes := self._resumes(window, allowance, cause)) is not None]
        if not reached:
            return None
        latest = max(reached, key=lambda limit: limit.resumes)
        if self._count(LIMIT_KINDS[latest.window], latest.window, TABLE.c.cause == cause):
            return None
        return latest

    def _resumes(self, window: timedelta, allowance: int, cause: str) -> datetime | None:
        """When ``cause`` may be answered again within ``window``, if its ``allowance`` there is used up: when
        enough of its answers have left the window."""
        used = self._count("answer", window, TABLE.c.cause == cause)
        if used < allowance:
            return None
        oldest = self.connection.execute(
            select(TABLE.c.created_at).where(TABLE.c.kind == "answer", TABLE.c.cause == cause,
                                             TABLE.c.created_at >= self.now - window)
            .order_by(TABLE.c.created_at).offset(used - allowance).limit(1)).scalar()
        return (oldest or self.now) + window

    def refund(self, recipient: str, at: datetime) -> None:
        """Take back the answer sent to ``recipient`` at ``at`` (a confirmation request its owner confirmed: the
        address asked for it, so no forger caused it)."""
        found = select(TABLE.c.id).where(TABLE.c.kind == "answer", TABLE.c.recipient == recipient.lower(),
                                         TABLE.c.created_at == at).limit(1).scalar_subquery()
        self.connection.execute(delete(TABLE).where(TABLE.c.id == found))

    def record(self, recipient: str, cause: str, kind: str) -> None:
        """One mail sent: an answer, a refusal or a limit notice, to ``recipient``, caused by ``cause``."""
        self.connection.execute(insert(TABLE).values(recipient=recipient.lower()[:320], cause=cause.lower()[:320],
                                                     kind=kind, created_at=self.now))
