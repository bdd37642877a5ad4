"""The background work: inbound sweep, IMAP polling, outbox dispatch, clocks, daily digests, tournaments' start
days and retention.

Each duty runs in a thread of its own, at its own pace, so none waits behind another: mail goes
out at the rate it is made while a long clock round runs, and a mailbox that is slow to answer
holds up nothing but its own polling. A duty that did something goes again at once (there may be
more); one that found nothing to do waits its interval. Every round of every duty is bounded (a
batch), and every duty is safe to run in several workers at once.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from app import retention
from app.db import utcnow
from app.inbound import imap
from app.inbound.receive import process_pending
from app.outbound.outbox import Transport
from app.server import Server
from app.service import Service

log = logging.getLogger(__name__)

DISPATCH_EVERY = 1.0  # seconds between looks at the outbox when the last one found nothing to send
SWEEP_EVERY = 5.0  # the doors process what they store at once; the sweep takes up what they left
IMAP_EVERY = 5.0
CLOCKS_EVERY = 10.0  # reminders come a day ahead; a loss on time is recorded within seconds
TOURNAMENTS_EVERY = 60.0  # a tournament's start day begins at 00:00 UTC: started within the minute
DIGEST_EVERY = 60.0  # the players whose digest hour has come are read through a partial index: one cheap query
RETENTION_EVERY = 60.0  # one small batch a minute: old bodies go, nothing waits on it


@dataclass(frozen=True)
class Duty:
    """One kind of background work: ``run`` does one bounded round and says how much it did."""

    name: str
    run: Callable[[], int]
    interval: float  # seconds to wait after a round (at once again after one that did something, if ``eager``)
    eager: bool = True


class Worker:
    """One worker; several may run at once against one PostgreSQL database."""

    def __init__(self, server: Server, transport: Transport | None = None) -> None:
        self.server = server
        self.dispatcher = server.dispatcher(transport)

    def duties(self) -> list[Duty]:
        duties = [Duty("inbound", self.sweep, SWEEP_EVERY)]
        if self.server.settings.imap_host:
            duties.append(Duty("imap", self.poll_imap, IMAP_EVERY))
        duties += [
            Duty("clocks", self.clocks, CLOCKS_EVERY),
            Duty("digest", self.digests, DIGEST_EVERY),
            Duty("tournaments", self.tournaments, TOURNAMENTS_EVERY),
            Duty("sent", self.dispatcher.run_once, DISPATCH_EVERY),
            Duty("retention", self.retention, RETENTION_EVERY, eager=False),  # paced: old rows can wait
        ]
        return duties

    def run_once(self) -> dict[str, int]:
        """Every duty once, one after the other (``worker --once``); what each did."""
        return {duty.name: duty.run() for duty in self.duties()}

    def sweep(self) -> int:
        server = self.server
        return process_pending(server.db, server.settings, server.signer)

    def poll_imap(self) -> int:
        try:
            return imap.poll(self.server)
        except Exception as error:  # a mailbox that is down must not stop the rest
            log.warning("IMAP polling failed: %s", error)
            return 0

    def clocks(self, now: datetime | None = None) -> int:
        """Reminders and losses on time that are due: one statement when none is, whatever the number of games."""
        server = self.server
        now = now or utcnow()
        with server.db.engine.begin() as connection:
            due = Service(connection, server.settings, server.signer, now).due_games()
        acted = 0
        for game_id in due:  # each game in its own transaction: one bad game holds up no other
            with server.db.engine.begin() as connection:
                acted += Service(connection, server.settings, server.signer, now).tick_game(game_id)
        return acted

    def digests(self, now: datetime | None = None, every: bool = False) -> int:
        """The daily digests due (``every``: every digest player's, whatever the hour): one statement when none
        is, whatever the number of players and games; each player's digest in a transaction of its own, claimed
        so that no other worker sends it too."""
        server = self.server
        now = now or utcnow()
        with server.db.engine.begin() as connection:
            due = Service(connection, server.settings, server.signer, now).due_digests(every)
        sent = 0
        for player_id, seen in due:
            with server.db.engine.begin() as connection:
                sent += Service(connection, server.settings, server.signer, now).send_digest(player_id, seen)
        return sent

    def tournaments(self, now: datetime | None = None) -> int:
        """Tournaments whose start day has come, started or cancelled: one statement on a partial index when none
        has; each in a transaction of its own, under its row's lock, so that no two workers both act on it."""
        server = self.server
        now = now or utcnow()
        with server.db.engine.begin() as connection:
            due = Service(connection, server.settings, server.signer, now).due_tournaments()
        acted = 0
        for number in due:
            with server.db.engine.begin() as connection:
                acted += Service(connection, server.settings, server.signer, now).start_due_tournament(number)
        return acted

    def retention(self, now: datetime | None = None) -> int:
        return retention.run(self.server.db, self.server.settings, now or utcnow()).total

    def run_forever(self, stop: threading.Event) -> None:
        """Each duty in its own thread until ``stop`` is set; each finishes the round under way."""
        threads = [threading.Thread(target=self.keep_doing, args=(duty, stop), name=f"worker-{duty.name}",
                                    daemon=True) for duty in self.duties()]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    @staticmethod
    def keep_doing(duty: Duty, stop: threading.Event) -> None:
        while not stop.is_set():
            done = 0
            try:
                done = duty.run()
            except Exception:  # keep the duty alive; its next round retries
                log.exception("worker round of %s failed", duty.name)
            if not (duty.eager and done):
                stop.wait(duty.interval)
