"""Real SMTP on loopback for tests: an aiosmtpd sink standing in for the players' mail server."""

from __future__ import annotations

import socket
import threading
import time
from email import message_from_bytes
from email.policy import default

from aiosmtpd.controller import Controller

from app.inbound.parse import best_text


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Sink:
    """Collects what it receives; can refuse the first few deliveries to test retries, and offer SMTPUTF8."""

    def __init__(self, refuse_first: int = 0, code: str = "451 4.3.0 try again later",
                 smtputf8: bool = False) -> None:
        self.received: list[tuple[str, list[str], bytes]] = []
        self.refuse_left = refuse_first
        self.code = code
        self.lock = threading.Lock()
        self.controller = Controller(self, hostname="127.0.0.1", port=free_port(), enable_SMTPUTF8=smtputf8)

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            if self.refuse_left:
                self.refuse_left -= 1
                return self.code
            self.received.append((envelope.mail_from, list(envelope.rcpt_tos), envelope.original_content))
        return "250 OK"

    @property
    def port(self) -> int:
        return self.controller.port

    def __enter__(self) -> Sink:
        self.controller.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.controller.stop()

    def to(self, address: str) -> list:
        with self.lock:
            return [message_from_bytes(raw, policy=default) for _, rcpts, raw in self.received if address in rcpts]

    def last_raw(self, address: str) -> bytes:
        with self.lock:
            return [raw for _, rcpts, raw in self.received if address in rcpts][-1]

    def last_text(self, address: str) -> str:
        return " ".join(best_text(self.to(address)[-1])[0].split())


def wait_until(predicate, timeout: float = 10.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")
