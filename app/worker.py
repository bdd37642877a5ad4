"""The background loop: inbound sweep, IMAP polling, outbox dispatch, clocks."""

from __future__ import annotations

import logging
import threading
from datetime import datetime

from app.db import utcnow
from app.games.service import GameService
from app.inbound import imap
from app.inbound.receive import process_pending
from app.outbound.outbox import Transport
from app.server import Server

log = logging.getLogger(__name__)


class Worker:
    """One worker; several may run at once against one PostgreSQL database."""

    def __init__(self, server: Server, transport: Transport | None = None) -> None:
        self.server = server
        self.dispatcher = server.dispatcher(transport)

    def run_once(self) -> dict[str, int]:
        server = self.server
        done = {"inbound": process_pending(server.db, server.settings, server.signer)}
        if server.settings.imap_host:
            try:
                done["imap"] = imap.poll(server)
            except Exception as error:  # a mailbox that is down must not stop the rest
                log.warning("IMAP polling failed: %s", error)
        done["clocks"] = self.clocks()
        done["sent"] = self.dispatcher.run_once()
        return done

    def clocks(self, now: datetime | None = None) -> int:
        server = self.server
        now = now or utcnow()
        with server.db.engine.begin() as connection:
            due = GameService(connection, server.settings, server.signer, now).due_games()
        acted = 0
        for game_id in due:
            with server.db.engine.begin() as connection:
                acted += GameService(connection, server.settings, server.signer, now).tick_game(game_id)
        return acted

    def run_forever(self, stop: threading.Event, interval: float = 1.0) -> None:
        while not stop.is_set():
            try:
                self.run_once()
            except Exception:  # keep the loop alive; the next round retries
                log.exception("worker round failed")
            stop.wait(interval)
