"""A whole game over real SMTP on loopback: the built-in listener in, an aiosmtpd sink out."""

import smtplib

import pytest
from sqlalchemy import func, select

from app.inbound.clients import fresh, reply
from app.inbound.listener import start_listener
from app.inbound.models import InboundMessage
from app.worker import Worker
from tests.conftest import make_server
from tests.server.mailhost import Sink, free_port, wait_until

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


@pytest.fixture
def game(tmp_path, database_url):
    with Sink() as sink:
        port = free_port()
        server = make_server(tmp_path, database_url, SMTP_HOST="127.0.0.1", SMTP_PORT=str(sink.port),
                             INBOUND_SMTP_PORT=str(port))
        listener = start_listener(server)
        try:
            yield Game(server, sink, port)
        finally:
            listener.stop()
            server.db.engine.dispose()


def test_whole_game_by_mail_from_challenge_to_king_capture(game):
    # The challenge, to the bare address.
    game.send(ALICE, fresh(ALICE, REFEREE, "Hi!\nchallenge bob@players.test looking-glass days=3", subject="new game"),
              REFEREE)
    assert "please confirm" in game.subject(ALICE) and not game.sink.to(BOB)  # nothing goes out unconfirmed
    game.reply(ALICE, "")
    assert "alice@players.test invites you" in game.text(BOB)
    game.reply(BOB, "accept")
    assert "choose your setup" in game.subject(ALICE)
    game.reply(ALICE, "setup 518", style="thunderbird")
    game.reply(BOB, "setup RNBQKBNR", style="apple")
    assert "your move (White)" in game.subject(ALICE)
    assert "Reply above this line" in game.text(ALICE)

    # A rejected home order, an unreadable one, then a strike: none moves the game on.
    assert "cannot move from e2 to e5" in game.reply(ALICE, "R e2-e5")
    assert "could not be read" in game.reply(ALICE, "R e2-e9")
    game.reply(ALICE, "M d4-d5")
    assert "strike 1 of 3" in game.subject(ALICE)

    # A vacation auto-reply gets no answer at all.
    before = len(game.sink.received)
    auto = reply(game.sink.last_raw(ALICE), "I am out of the office until Monday.", "outlook", ALICE)
    auto = auto.replace(b"Subject: Re:", b"Auto-Submitted: auto-replied\nSubject: Automatic reply: Re:", 1)
    game.send(ALICE, auto, str(game.sink.to(ALICE)[-1]["Reply-To"]))
    assert len(game.sink.received) == before

    # A spoofed sender using Alice's reply address is refused and changes nothing.
    game.reply(ALICE, "R e2-e3", sender=MALLORY)
    assert "not accepted" in game.text(MALLORY)

    game.reply(ALICE, "R e2-e3", style="html-only")
    old_request = game.sink.last_raw(ALICE)
    assert "your move (Black)" in game.subject(BOB)
    assert "asked about Mirror e3: empty" in game.text(BOB)
    game.reply(BOB, "M f7-f5", style="outlook")
    game.reply(ALICE, "R f1-a6", style="apple")
    game.reply(BOB, "M h7-h6", style="gmail")

    # A stale reply (to the request before last) is refused and shows the current request.
    before_stale = len(game.sink.received)
    game.send(ALICE, reply(old_request, "R g1-f3", "gmail", ALICE), str(game.sink.to(ALICE)[-2]["Reply-To"]))
    assert len(game.sink.received) == before_stale + 1
    assert "old move request" in game.subject(ALICE)

    # A shortened move (LG-5b): the bishop stops on b7, capturing a pawn, and falls through to Real b7.
    text = game.reply(ALICE, "M a6-c8", style="thunderbird").lower()
    assert "(shortened: c8 was ordered)" in text and "capturing bob's pawn on mirror b7" in text
    game.reply(BOB, "M a7-a5", style="no-markers")
    game.reply(ALICE, "R d1-h5", style="gmail")
    assert "queen arrived on Mirror h5 attacking your king on Mirror e8" in game.text(BOB)
    game.reply(BOB, "M b8-c6", style="html-only")
    game.reply(ALICE, "M h5-e8", style="outlook")

    for player in (ALICE, BOB):
        assert "game over - White wins (the king was captured)" in game.subject(player)
        assert "Setups and their keys" in game.text(player)
    # Every mail went out once: each Message-ID appears once at the players' server.
    ids = [str(message["Message-ID"]) for player in (ALICE, BOB, MALLORY) for message in game.sink.to(player)]
    assert len(ids) == len(set(ids))
