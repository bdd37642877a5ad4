"""``manage.py demo``: a short scripted game through the real pipeline on a throw-away database.

Every order is a real reply (raw MIME, quoting the request it answers), stored
and processed exactly as mail from the listener would be; every answer goes
through the outbox into a Maildir you can open with any mail client.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import SMTP, default
from pathlib import Path

from sqlalchemy import select

from app.config import load_settings
from app.games.service import GameService
from app.mail.inbound import process, store
from app.mail.models import OutboundMessage
from app.mail.parse import best_text
from app.server import Server
from app.worker import Worker

ALICE, BOB = "alice@example.org", "bob@example.org"
SCRIPT = [
    (ALICE, "accept"), (BOB, "accept"), (ALICE, "setup 518"), (BOB, "setup RNBQKBNR"),
    (ALICE, "R e2-e3"), (BOB, "M f7-f5"), (ALICE, "M d4-d5"), (ALICE, "R f1-a6"),
    (BOB, "say Nice bishop!\nM h7-h6"), (ALICE, "M a6-c8"), (BOB, "ask"), (BOB, "M a7-a5"),
    (ALICE, "R d1-h5"), (BOB, "M b8-c6"), (ALICE, "M h5-e8"),
]


def answer(latest: OutboundMessage, sender: str, body: str) -> bytes:
    """A reply as a mail client writes it: new text on top, the request quoted below."""
    sent = message_from_bytes(latest.raw, policy=default)
    quoted = "\n".join("> " + line for line in best_text(sent)[0].splitlines())
    reply = EmailMessage(policy=default)
    reply["From"] = sender
    reply["To"] = str(sent["Reply-To"])
    reply["Subject"] = "Re: " + str(sent["Subject"])
    reply["In-Reply-To"] = str(sent["Message-ID"])
    reply["References"] = str(sent["Message-ID"])
    reply["Message-ID"] = f"<demo-{latest.id}-{sender.split('@')[0]}@example.org>"
    reply.set_content(f"{body}\n\nOn Monday, Mirrorpost referee wrote:\n{quoted}\n")
    return reply.as_bytes(policy=SMTP)


def run_demo(say: Callable[[str], None], folder: Path | None = None) -> Path:
    folder = folder or Path(tempfile.mkdtemp(prefix="mirrorpost-demo-"))
    settings = load_settings({
        "MIRRORPOST_INSTANCE": str(folder), "DATABASE_URL": f"sqlite:///{folder / 'demo.sqlite3'}",
        "SERVER_EMAIL": "referee@example.org", "INBOUND_SMTP_PORT": "0",
    })
    server = Server.from_settings(settings)
    server.db.upgrade()
    with server.db.transaction() as session:
        service = GameService(session, settings, server.signer)
        game = service.create_game("looking-glass", service.player(ALICE, "Alice"), service.player(BOB, "Bob"),
                                   {"days": "3"}, None)
        game_id = game.id
    worker = Worker(server)
    worker.run_once()
    for sender, body in SCRIPT:
        with server.db.sessions() as session:
            latest = session.scalars(select(OutboundMessage).where(OutboundMessage.recipient == sender)
                                     .order_by(OutboundMessage.id.desc())).first()
        assert latest is not None
        inbound_id, _ = store(server.db, answer(latest, sender, body), "demo")
        outcome = process(server.db, settings, server.signer, inbound_id)
        say(f"{sender.split('@')[0]:>5}: {body.splitlines()[-1]:<12} -> {outcome}")
        worker.run_once()
    with server.db.sessions() as session:
        from app.games.models import Game

        finished = session.get(Game, game_id)
        assert finished is not None
        say(f"\nGame {game_id}: {finished.status}, {finished.result} ({finished.reason}).")
    count = len(list((settings.outbox_maildir / "new").iterdir()))
    say(f"{count} mails were written to the Maildir {settings.outbox_maildir}")
    say(f"  read them with any mail client, e.g.:  mutt -f {settings.outbox_maildir}")
    say(f"  the database: {settings.database_url}")
    say(f"  to browse it: DATABASE_URL={settings.database_url} MIRRORPOST_INSTANCE={folder} "
        "python3 manage.py serve")
    return folder
