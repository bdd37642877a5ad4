"""``manage.py serve`` on the embedded defaults: SQLite, the SMTP listener, mail out to a Maildir."""

import os
import signal
import smtplib
import socket
import subprocess
import sys
import urllib.request
from email import message_from_bytes
from email.policy import default
from pathlib import Path

import pytest

from app.inbound.clients import fresh, reply
from tests.server.mailhost import free_port, wait_until

ROOT = Path(__file__).parent.parent.parent


def test_serve_receives_by_smtp_writes_mail_to_the_maildir_and_stops_cleanly(tmp_path):
    smtp_port, web_port = free_port(), free_port()
    env = dict(os.environ, MIRRORPOST_SKIP_BOOTSTRAP="1", MIRRORPOST_INSTANCE=str(tmp_path / "instance"),
               INBOUND_SMTP_PORT=str(smtp_port), WEB_PORT=str(web_port))
    env.pop("DATABASE_URL", None)
    env.pop("SMTP_HOST", None)
    process = subprocess.Popen([sys.executable, str(ROOT / "manage.py"), "serve"], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        def web_up():
            try:
                return urllib.request.urlopen(f"http://127.0.0.1:{web_port}/healthz", timeout=1).status == 200
            except OSError:
                return False

        wait_until(web_up, timeout=30, what="the web server")
        with smtplib.SMTP("127.0.0.1", smtp_port) as client:
            client.sendmail("carol@players.test", ["referee@localhost"],
                            fresh("carol@players.test", "referee@localhost", "challenge dave@players.test"))
        new = tmp_path / "instance" / "outbox" / "new"
        wait_until(lambda: new.exists() and len(list(new.iterdir())) == 1, timeout=30, what="the confirmation request")
        request = next(new.iterdir()).read_bytes().split(b"\r\n", 2)[2]  # without Return-Path and Delivered-To
        with smtplib.SMTP("127.0.0.1", smtp_port) as client:  # Carol confirms her challenge
            client.sendmail("carol@players.test", [str(message_from_bytes(request, policy=default)["Reply-To"])],
                            reply(request, "yes", "apple", "carol@players.test"))
        wait_until(lambda: len(list(new.iterdir())) == 3, timeout=30, what="the invitation and Carol's notice")
        texts = [path.read_text() for path in new.iterdir()]
        assert any("Delivered-To: dave@players.test" in text and "invites you" in text for text in texts)
        assert (tmp_path / "instance" / "mirrorpost.sqlite3").exists()
        assert (tmp_path / "instance" / "secret_key").exists()
        with urllib.request.urlopen(f"http://127.0.0.1:{web_port}/healthz", timeout=5) as response:
            assert response.headers["Server"] == "Mirrorpost"  # a production WSGI server, not a development one
        process.send_signal(signal.SIGTERM)  # as systemd stops it
        output, _ = process.communicate(timeout=30)
        assert process.returncode == 0, output
        assert output.rstrip().endswith(b"stopped"), output
        assert b"development server" not in output
        for port in (web_port, smtp_port):  # both closed
            with pytest.raises(ConnectionRefusedError):
                socket.create_connection(("127.0.0.1", port), timeout=2)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)
