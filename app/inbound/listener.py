"""The built-in SMTP (or LMTP) listener: store every accepted message, then process it."""

from __future__ import annotations

import asyncio
import logging

from aiosmtpd.controller import Controller
from aiosmtpd.lmtp import LMTP
from aiosmtpd.smtp import SMTP, Envelope, Session

from app.inbound import receive as inbound
from app.inbound.pipeline import Received
from app.inbound.receive import process_stored, store
from app.server import Server

log = logging.getLogger(__name__)


ROUTINE = frozenset({  # what aiosmtpd says at INFO in every session, normal or not: who came, each command, the end
    "Peer: %r", "%r handling connection", "%r >> %r", "%r sender: %s", "%r recip: %s", "%r EOF received",
    "%r connection lost",
})
ROUTINE_START = "Available AUTH mechanisms:"  # said as each session's handler is made


class EndOfSession(logging.Filter):
    """aiosmtpd logs every session at INFO: its AUTH mechanisms, the peer, each command line, "EOF received"
    and "connection lost" when the client quits, "Connection lost during _handle_client()" when it closes its
    connection, which every client does at the end of a session: no error. The server's own log says what
    became of each message; these lines go to DEBUG (the last one said plainly)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno != logging.INFO:
            return True
        if "Connection lost during _handle_client" in str(record.msg):
            record.msg = "%r closed the connection"
        elif record.msg not in ROUTINE and not str(record.msg).startswith(ROUTINE_START):
            return True
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return logging.getLogger().isEnabledFor(logging.DEBUG)


logging.getLogger("mail.log").addFilter(EndOfSession())


class InboundHandler:
    """Accepts mail for our domain only, stores it raw with the host that handed it over (SPF is checked for
    it), and answers 250 once it is safe on disk."""

    def __init__(self, server: Server) -> None:
        self.server = server

    def sending_host(self, session: Session) -> str | None:
        """The host that handed the message over, which SPF is checked for: only on SMTP. LMTP is spoken by a
        mail server of the operator's delivering what it received; SPF checked for it would say nothing about
        the sender, or, when the From domain names that server for its mail (its ``mx``), prove anyone."""
        if self.server.settings.inbound_protocol == "lmtp":
            return None
        return session.peer[0] if isinstance(session.peer, tuple) and session.peer else None

    async def handle_RCPT(self, smtp: SMTP, session: Session, envelope: Envelope, address: str,
                          rcpt_options: list[str]) -> str:
        if not address.lower().endswith("@" + self.server.settings.server_domain):
            return "550 5.7.1 Relaying denied: this server only receives mail for its referee"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, smtp: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or envelope.content
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        loop = asyncio.get_running_loop()
        server = self.server
        peer = self.sending_host(session)
        received = Received(raw, envelope.mail_from, list(envelope.rcpt_tos), peer=peer, helo=session.host_name)
        try:
            inbound_id, duplicate = await loop.run_in_executor(
                None, store, server.db, raw, "smtp", received.envelope_from, received.envelope_to, None,
                received.peer, received.helo)
        except Exception:  # not stored: a temporary refusal makes the sending server try again later
            log.exception("could not store a message from %s", envelope.mail_from)
            return "451 4.3.0 Temporary failure: please try again later"
        # Accepted once stored; processed in the background (a redelivery only if it never was).
        loop.run_in_executor(None, process_stored, server.db, server.settings, server.signer, inbound_id,
                             received, duplicate)
        return "250 2.0.0 Message accepted for delivery"


class LMTPController(Controller):
    def factory(self) -> LMTP:
        return LMTP(self.handler, **self.SMTP_kwargs)


def start_listener(server: Server, port: int | None = None) -> Controller:
    """Start listening in a background thread; ``stop()`` the returned controller to end it."""
    settings = server.settings
    kind = LMTPController if settings.inbound_protocol == "lmtp" else Controller
    controller = kind(
        InboundHandler(server),
        hostname=settings.inbound_smtp_host,
        port=settings.inbound_smtp_port if port is None else port,
        data_size_limit=inbound.LARGEST_MESSAGE,  # advertised (SIZE); a larger message gets 552
        server_hostname=settings.server_domain,
    )
    controller.start()
    return controller
