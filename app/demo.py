"""``manage.py demo``: a short game of any variant through the real pipeline on a throw-away database.

Every order is a real reply (raw MIME, quoting the request it answers), stored and
processed exactly as mail from the listener would be; every answer goes through the
outbox into a Maildir you can open with any mail client. The orders come from the
variant's own random-order generator (moves, and now and then a mistake), with a word
passed on between the players; a game still running after the last order is resigned.
"""

from __future__ import annotations

import random
import tempfile
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import select

from app.config import load_settings
from app.games.models import Game
from app.inbound.clients import reply
from app.inbound.receive import receive
from app.outbound.models import OutboundMessage
from app.rules.registry import DEFAULT_VARIANT, get_variant
from app.server import Server
from app.service import Service
from app.worker import Worker

ALICE, BOB = "alice@example.org", "bob@example.org"
PLAYERS = {"white": ALICE, "black": BOB}
ORDERS = 40


def run_demo(say: Callable[[str], None], folder: Path | None = None, variant_name: str = DEFAULT_VARIANT,
             seed: int = 2026) -> Path:
    variant = get_variant(variant_name)
    folder = folder or Path(tempfile.mkdtemp(prefix="mirrorpost-demo-"))
    settings = load_settings({
        "MIRRORPOST_INSTANCE": str(folder), "DATABASE_URL": f"sqlite:///{folder / 'demo.sqlite3'}",
        "SERVER_EMAIL": "referee@example.org", "INBOUND_SMTP_PORT": "0",
    })
    server = Server.from_settings(settings)
    server.db.upgrade()
    with server.db.engine.begin() as connection:
        service = Service(connection, settings, server.signer)
        game_id = service.create_game(variant_name, service.player(ALICE, "Alice"), service.player(BOB, "Bob"),
                                      {"days": "3"}, None).id
    worker = Worker(server)
    worker.run_once()
    rng = random.Random(seed)

    def send(sender: str, body: str) -> None:
        with server.db.sessions() as session:
            latest = session.scalars(select(OutboundMessage).where(OutboundMessage.recipient == sender)
                                     .order_by(OutboundMessage.id.desc())).first()
        assert latest is not None
        outcome = receive(server.db, settings, server.signer, reply(latest.raw, body, "gmail", sender), "demo").outcome
        say(f"{sender.split('@')[0]:>5}: {' / '.join(body.splitlines()):<16} -> {outcome}")
        worker.run_once()

    def game() -> Game:
        with server.db.sessions() as session:
            found = session.get(Game, game_id)
            assert found is not None
            return found

    say(f"Game {game_id}: {variant.title}, Alice (White) against Bob (Black).\n")
    send(ALICE, "accept")
    send(BOB, "accept")
    for side in ("white", "black"):
        if game().status == "setup":
            send(PLAYERS[side], "setup random")
    for number in range(ORDERS):
        state = variant.from_json(game().state)
        side = variant.orderer(state)
        if game().status != "active" or side is None:
            break
        if number == 3:
            send(PLAYERS[side], "say Good luck!")
        send(PLAYERS[side], variant.random_reply(state, side, rng))
    if game().status == "active":
        side = variant.orderer(variant.from_json(game().state)) or "white"
        send(PLAYERS[side], "resign")
    finished = game()
    say(f"\nGame {game_id}: {finished.status}, {finished.result} ({finished.reason}).")
    count = len(list((settings.outbox_maildir / "new").iterdir()))
    say(f"{count} mails were written to the Maildir {settings.outbox_maildir}")
    say(f"  read them with any mail client, e.g.:  mutt -f {settings.outbox_maildir}")
    say(f"  the database: {settings.database_url}")
    say(f"  to browse it: DATABASE_URL={settings.database_url} MIRRORPOST_INSTANCE={folder} "
        "python3 manage.py serve")
    return folder
