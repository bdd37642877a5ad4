"""``manage.py demo``: a short scripted game through the real pipeline on a throw-away database.

Every order is a real reply (raw MIME, quoting the request it answers), stored
and processed exactly as mail from the listener would be; every answer goes
through the outbox into a Maildir you can open with any mail client.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import select

from app.config import load_settings
from app.games.service import GameService
from app.inbound.clients import reply
from app.inbound.receive import receive
from app.outbound.models import OutboundMessage
from app.server import Server
from app.worker import Worker

ALICE, BOB = "alice@example.org", "bob@example.org"
SCRIPT = [
    (ALICE, "accept"), (BOB, "accept"), (ALICE, "setup 518"), (BOB, "setup RNBQKBNR"),
    (ALICE, "R e2-e3"), (BOB, "M f7-f5"), (ALICE, "M d4-d5"), (ALICE, "R f1-a6"),
    (BOB, "say Nice bishop!\nM h7-h6"), (ALICE, "M a6-c8"), (BOB, "ask"), (BOB, "M a7-a5"),
    (ALICE, "R d1-h5"), (BOB, "M b8-c6"), (ALICE, "M h5-e8"),
]


def run_demo(say: Callable[[str], None], folder: Path | None = None) -> Path:
    folder = folder or Path(tempfile.mkdtemp(prefix="mirrorpost-demo-"))
    settings = load_settings({
        "MIRRORPOST_INSTANCE": str(folder), "DATABASE_URL": f"sqlite:///{folder / 'demo.sqlite3'}",
        "SERVER_EMAIL": "referee@example.org", "INBOUND_SMTP_PORT": "0",
    })
    server = Server.from_settings(settings)
    server.db.upgrade()
    with server.db.engine.begin() as connection:
        service = GameService(connection, settings, server.signer)
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
        outcome = receive(server.db, settings, server.signer, reply(latest.raw, body, "gmail", sender), "demo").outcome
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
