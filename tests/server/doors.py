"""The four doors mail comes in by, driven for real: the SMTP listener, the webhook, ``ingest`` and IMAP."""

from __future__ import annotations

import os
import smtplib
import subprocess
import sys
import time
from pathlib import Path

from imap_tools import MailBoxUnencrypted
from sqlalchemy import func, select

from app import create_app
from app.inbound import imap
from app.inbound.listener import start_listener
from app.inbound.models import InboundMessage
from app.inbound.webhook import signature
from tests.conftest import make_server
from tests.server.mailhost import free_port, wait_until

ROOT = Path(__file__).parent.parent.parent
SECRET = "webhook-secret"
DOORS = ("smtp", "webhook", "ingest")  # IMAP too where a Dovecot runs (``Doors(..., dovecot=...)``)


class Doors:
    """A server with every door open, and a way to send one raw message through any of them."""

    def __init__(self, tmp_path: Path, database_url: str, dovecot=None, **settings: str) -> None:
        self.port = free_port()
        extra = {"INBOUND_SMTP_PORT": str(self.port), "INBOUND_WEBHOOK_SECRET": SECRET, **settings}
        if dovecot is not None:
            extra.update(IMAP_HOST="127.0.0.1", IMAP_PORT=str(dovecot.port), IMAP_USER=dovecot.user,
                         IMAP_PASSWORD=dovecot.password, IMAP_SSL="0")
        self.env = {"MIRRORPOST_INSTANCE": str(tmp_path / "instance"), "DATABASE_URL": database_url,
                    "SECRET_KEY": "test-secret-key", "SERVER_EMAIL": "referee@mirrorpost.test",
                    "BASE_URL": "http://mirrorpost.test", **extra}
        self.server = make_server(tmp_path, database_url, **extra)
        self.dovecot = dovecot
        self.listener = start_listener(self.server)
        self.web = create_app(self.server).test_client()

    def close(self) -> None:
        self.listener.stop()
        self.server.db.engine.dispose()

    def count(self) -> int:
        with self.server.db.sessions() as session:
            return session.scalar(select(func.count(InboundMessage.id))) or 0

    def latest(self) -> InboundMessage:
        with self.server.db.sessions() as session:
            return session.scalars(select(InboundMessage).order_by(InboundMessage.id.desc())).first()

    def deliver(self, door: str, raw: bytes, envelope_from: str = "someone@players.test",
                recipient: str = "referee@mirrorpost.test") -> str:
        """Send ``raw`` through ``door``; returns what became of it ("status: outcome")."""
        before = self.count()
        getattr(self, f"_by_{door}")(raw, envelope_from, recipient)
        wait_until(lambda: self.count() > before and self.latest().status != "new", timeout=30,
                   what=f"the message through {door} to be processed")
        latest = self.latest()
        return f"{latest.status}: {latest.outcome}"

    def _by_smtp(self, raw: bytes, envelope_from: str, recipient: str) -> None:
        with smtplib.SMTP("127.0.0.1", self.port) as client:
            client.sendmail(envelope_from, [recipient], raw)

    def _by_webhook(self, raw: bytes, envelope_from: str, recipient: str) -> None:
        timestamp = str(int(time.time()))
        response = self.web.post("/inbound/raw", data=raw, headers={
            "X-Mirrorpost-Timestamp": timestamp, "X-Mirrorpost-Signature": signature(SECRET, timestamp, raw),
            "X-Envelope-From": envelope_from, "X-Envelope-To": recipient})
        assert response.status_code == 202, response.data

    def _by_ingest(self, raw: bytes, envelope_from: str, recipient: str) -> None:
        env = dict(os.environ, MIRRORPOST_SKIP_BOOTSTRAP="1", **self.env)
        done = subprocess.run([sys.executable, str(ROOT / "manage.py"), "ingest"], input=raw, env=env, cwd=ROOT,
                              capture_output=True, timeout=60)
        assert done.returncode == 0, done.stderr

    def _by_imap(self, raw: bytes, envelope_from: str, recipient: str) -> None:
        assert self.dovecot is not None, "IMAP needs a Dovecot"
        with MailBoxUnencrypted("127.0.0.1", self.dovecot.port).login(self.dovecot.user, self.dovecot.password) as box:
            box.append(raw, "INBOX")
        imap.poll(self.server)
