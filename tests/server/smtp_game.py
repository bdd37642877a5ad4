"""Two players with real mail clients, the server's listener in and an aiosmtpd sink out, on loopback."""

import smtplib

from sqlalchemy import func, select

from app.inbound.clients import reply
from app.inbound.models import InboundMessage
from app.worker import Worker
from tests.server.mailhost import wait_until

ALICE, BOB, MALLORY = "alice@players.test", "bob@players.test", "mallory@evil.test"
REFEREE = "referee@mirrorpost.test"


class Game:
    """Two players with their mail clients, the server, and the mail between them."""

    def __init__(self, server, sink, listener_port):
        self.server, self.sink, self.port = server, sink, listener_port
        self.worker = Worker(server)
        self.styles = {ALICE: "gmail", BOB: "outlook"}

    def processed(self) -> int:
        with self.server.db.sessions() as session:
            return session.scalar(select(func.count()).where(InboundMessage.status != "new"))

    def send(self, sender: str, raw: bytes, rcpt: str) -> None:
        before = self.processed()
        with smtplib.SMTP("127.0.0.1", self.port) as client:
            client.sendmail(sender, [rcpt], raw)
        wait_until(lambda: self.processed() > before, what="the message to be processed")
        self.worker.run_once()  # dispatch what it caused to the players' mail server

    def reply(self, player: str, body: str, style: str | None = None, sender: str | None = None) -> str:
        """Answer the latest mail this player received, in their client's style."""
        raw_sent = self.sink.last_raw(player)
        count = len(self.sink.received)
        rcpt = str(self.sink.to(player)[-1]["Reply-To"])
        self.send(sender or player, reply(raw_sent, body, style or self.styles[player], sender or player), rcpt)
        return "" if len(self.sink.received) == count else self.sink.last_text(player)

    def text(self, player: str) -> str:
        return self.sink.last_text(player)

    def subject(self, player: str) -> str:
        return str(self.sink.to(player)[-1]["Subject"])
