"""``manage.py serve`` on the embedded defaults: SQLite, the SMTP listener, mail out to a Maildir."""

import http.client
import os
import re
import signal
import smtplib
import socket
import sqlite3
import subprocess
import sys
import threading
import urllib.parse
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
    env.pop("DNS_NAMESERVERS", None)  # the system's resolver, whatever it answers: unsigned mail flows all the same
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
        with sqlite3.connect(tmp_path / "instance" / "mirrorpost.sqlite3") as connection:
            checked = [row[0] for row in connection.execute("SELECT authentication FROM inbound_messages")]
        assert len(checked) == 2 and all(value.startswith("localhost; ") and "dkim=pass" not in value and
                                         "header.from=players.test" in value for value in checked), checked
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


class Browser:
    """Real HTTP to the server from one source address, with a cookie, as a browser or a front server sends it."""

    def __init__(self, port: int, source: str = "127.0.0.1", forwarded_for: str | None = None) -> None:
        self.port, self.source, self.forwarded_for, self.cookie = port, source, forwarded_for, ""

    def request(self, method: str, path: str, body: str | None = None) -> tuple[int, str]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10, source_address=(self.source, 0))
        headers = {"Cookie": self.cookie} if self.cookie else {}
        if self.forwarded_for:
            headers["X-Forwarded-For"] = self.forwarded_for
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            for header in response.headers.get_all("Set-Cookie") or []:
                self.cookie = header.split(";", 1)[0]
            return response.status, response.read().decode()
        finally:
            connection.close()

    def ask_for_link(self, email: str) -> int:
        _status, page = self.request("GET", "/login")
        token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
        return self.request("POST", "/login", urllib.parse.urlencode({"email": email, "csrf_token": token}))[0]


def clients_recorded(database: Path) -> set[str]:
    with sqlite3.connect(database) as connection:
        return {row[0] for row in connection.execute("SELECT client FROM login_tokens")}


def test_serve_behind_a_trusted_front_server_limits_each_client_by_its_own_address(tmp_path):
    """TRUSTED_PROXIES=1: X-Forwarded-For is believed from the trusted address only, through the real Waitress."""
    smtp_port, web_port = free_port(), free_port()
    env = dict(os.environ, MIRRORPOST_SKIP_BOOTSTRAP="1", MIRRORPOST_INSTANCE=str(tmp_path / "instance"),
               INBOUND_SMTP_PORT=str(smtp_port), WEB_PORT=str(web_port), TRUSTED_PROXIES="1",
               TRUSTED_PROXY_ADDRESSES="127.0.0.1")
    env.pop("DATABASE_URL", None)
    env.pop("SMTP_HOST", None)
    process = subprocess.Popen([sys.executable, str(ROOT / "manage.py"), "serve"], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        wait_until(lambda: web_answers(web_port), timeout=30, what="the web server")
        behind = Browser(web_port, "127.0.0.1", "203.0.113.5")  # through the front server
        assert [behind.ask_for_link(f"p{n}@players.test") for n in range(11)] == [200] * 10 + [429]
        other = Browser(web_port, "127.0.0.1", "198.51.100.7")  # another visitor through it: not held back
        assert other.ask_for_link("q@players.test") == 200
        # Straight from an address that is not the front server's: its header is its own to forge, and ignored.
        direct = [Browser(web_port, "127.0.0.2", f"192.0.2.{n}").ask_for_link(f"r{n}@players.test")
                  for n in range(11)]
        assert direct == [200] * 10 + [429]
        assert clients_recorded(tmp_path / "instance" / "mirrorpost.sqlite3") == {
            "203.0.113.5", "198.51.100.7", "127.0.0.2"}
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=30)


def web_answers(port: int) -> bool:
    try:
        return urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).status == 200
    except OSError:
        return False


def test_without_trusted_proxies_waitress_and_the_app_ignore_x_forwarded_for(tmp_path, database_url):
    """The real Waitress of ``serve`` (in a thread): the header is dropped, every client is its own address."""
    from app import create_app
    from app.server import web_server
    from tests.conftest import make_server

    port = free_port()
    server = make_server(tmp_path, database_url, WEB_PORT=str(port), TRUSTED_PROXIES="0")
    web = web_server(create_app(server), server.settings)
    stopping = threading.Event()

    def run() -> None:
        try:
            web.run()
        except OSError:  # its sockets closed under it from this thread: how a server in a thread stops
            if not stopping.is_set():
                raise

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        wait_until(lambda: web_answers(port), what="the web server")
        statuses = [Browser(port, "127.0.0.1", f"203.0.113.{n}").ask_for_link(f"p{n}@players.test")
                    for n in range(11)]
        assert statuses == [200] * 10 + [429]
        with server.db.engine.connect() as connection:
            assert {row[0] for row in connection.exec_driver_sql("SELECT client FROM login_tokens")} == {"127.0.0.1"}
    finally:
        stopping.set()
        web.close()
        thread.join(10)
        server.db.engine.dispose()
