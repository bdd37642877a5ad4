"""The web app keeps answering while the worst inputs are read: ``manage.py serve`` as it runs in production
(HTTP server, SMTP listener and worker in one process), the worst mails sent to its listener, and
``/healthz`` asked all the while."""

import os
import quopri
import signal
import smtplib
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from sqlalchemy import func, select

from app.db import Database
from app.inbound.models import InboundMessage
from tests.server.mailhost import free_port, wait_until

ROOT = Path(__file__).parent.parent.parent
REFEREE = "referee@localhost"


def mail(body: bytes, content_type: str = "text/plain", head: str = "", number: int = 0) -> bytes:
    """A mail to the referee, its body quoted-printable (one long line decoded, short lines on the wire)."""
    return (f"From: Alice <alice@players.test>\r\nTo: {REFEREE}\r\nSubject: worst {number}\r\n"
            f"Message-ID: <worst.{number}@players.test>\r\n{head}MIME-Version: 1.0\r\n"
            f"Content-Type: {content_type}; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
            ).encode() + quopri.encodestring(body).replace(b"\n", b"\r\n")


def worst_inputs() -> list[bytes]:
    encoded_words = " ".join(["=?utf-8?q?a=C3=A9?="] * 16_000)
    folded = "\r\n ".join(encoded_words[index:index + 900] for index in range(0, len(encoded_words), 900))
    padding = "X-Padding: " + "\r\n ".join(["y" * 900] * 300) + "\r\n"
    return [
        mail(b"<p>R e2-e4</p><p>" + b" " * 900_000 + b"</p>", "text/html", number=1),
        mail(b"<p>" + b"<!--" * 220_000 + b"</p>", "text/html", number=2),
        mail(b"<p>" + b"</" * 450_000 + b"</p>", "text/html", number=3),
        mail(b"R e2-e4 " + b"x" * 900_000, number=4),
        mail(b"help", head=padding, number=5),
        f"From: {folded} <alice@players.test>\r\nTo: {REFEREE}\r\nSubject: worst 6\r\n"
        "Message-ID: <worst.6@players.test>\r\n\r\nhelp\r\n".encode(),
        mail(("\n".join(["> quoted line " + "w" * 60] * 12_000)).encode(), number=7),
        parts(b"Content-Type: text/plain" + b"\r\n ".join([b"; a=b" * 150] * 1200) + b"\r\n\r\nhelp", number=8),
        parts(*[b"\r\nhelp"] * 70_000, number=9),
    ]


def parts(*bodies: bytes, number: int) -> bytes:
    """A multipart mail to the referee of these parts (each its header, an empty line and its body)."""
    return (f"From: Alice <alice@players.test>\r\nTo: {REFEREE}\r\nSubject: worst {number}\r\n"
            f"Message-ID: <worst.{number}@players.test>\r\nMIME-Version: 1.0\r\n"
            "Content-Type: multipart/mixed; boundary=XX\r\n\r\n").encode() + \
        b"".join(b"--XX\r\n" + body + b"\r\n" for body in bodies) + b"--XX--\r\n"


def test_healthz_answers_within_a_second_while_the_worst_inputs_are_read(tmp_path):
    smtp_port, web_port = free_port(), free_port()
    instance = tmp_path / "instance"
    env = dict(os.environ, MIRRORPOST_SKIP_BOOTSTRAP="1", MIRRORPOST_INSTANCE=str(instance),
               INBOUND_SMTP_PORT=str(smtp_port), WEB_PORT=str(web_port))
    env.pop("DATABASE_URL", None)
    env.pop("SMTP_HOST", None)
    process = subprocess.Popen([sys.executable, str(ROOT / "manage.py"), "serve"], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    slow: list[str] = []
    asked = 0
    stop = threading.Event()

    def health() -> None:
        nonlocal asked
        while not stop.is_set():
            started = time.monotonic()
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{web_port}/healthz", timeout=1) as response:
                    assert response.status == 200
            except OSError as error:
                slow.append(f"{error} after {time.monotonic() - started:.2f} s")
            asked += 1
            time.sleep(0.05)

    def up() -> bool:
        try:
            return urllib.request.urlopen(f"http://127.0.0.1:{web_port}/healthz", timeout=1).status == 200
        except OSError:
            return False

    try:
        wait_until(up, timeout=30, what="the web server")
        db = Database(f"sqlite:///{instance / 'mirrorpost.sqlite3'}")
        watcher = threading.Thread(target=health)
        watcher.start()
        inputs = worst_inputs()
        for raw in inputs:
            with smtplib.SMTP("127.0.0.1", smtp_port) as client:
                client.sendmail("alice@players.test", [REFEREE], raw)

        def all_read() -> bool:
            with db.engine.connect() as connection:
                return connection.execute(select(func.count()).select_from(InboundMessage).where(
                    InboundMessage.status != "new")).scalar() == len(inputs)

        wait_until(all_read, timeout=120, what="every worst input to be read")
        stop.set()
        watcher.join()
        db.engine.dispose()
        assert asked >= 3 and slow == [], slow
    finally:
        stop.set()
        process.send_signal(signal.SIGTERM)
        try:
            process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
