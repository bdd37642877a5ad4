"""Stop processing at each step and start again: nothing lost, nothing applied twice."""

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from email import message_from_bytes
from pathlib import Path

import pytest
from sqlalchemy import create_engine, func, select, update
from sqlalchemy.exc import DBAPIError

from app.db import utcnow
from app.games.mail.mailing import Mailer
from app.games.models import Event, Game
from app.inbound.clients import reply
from app.inbound.models import InboundMessage
from app.inbound.pipeline import Received
from app.inbound.receive import SETTLE, process, process_on, process_pending, receive, store
from app.outbound.models import OutboundMessage
from app.worker import Worker
from tests.conftest import make_server
from tests.server.harness import ALICE, BOB, Table
from tests.server.mailhost import Sink, wait_until


class Crash(Exception):
    pass


def restart_later(server) -> None:
    """The server comes back a while after dying: what it had stored is older than the sweep's settle time."""
    with server.db.engine.begin() as connection:
        connection.execute(update(InboundMessage).values(received_at=utcnow() - 2 * SETTLE))


def at_once(work, workers: int = 2) -> list:
    """Run ``work(ready)`` in ``workers`` threads: each calls ``ready()`` once set up, then all go on together.

    Returns what each returned; the first error in any of them is raised here.
    """
    barrier = threading.Barrier(workers)
    results, errors = [], []

    def run():
        try:
            results.append(work(barrier.wait))
        except Exception as error:
            errors.append(error)
            barrier.abort()  # the others must not wait for this one

    threads = [threading.Thread(target=run) for _ in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return results


def counts(server):
    with server.db.sessions() as session:
        return (
            session.scalar(select(func.count(Event.id))),
            session.scalar(select(func.count(OutboundMessage.id))),
        )


def test_crash_after_storing_loses_nothing(server):
    table = Table(server)
    game_id = table.start()
    raw = table.reply_bytes(ALICE, "R e2-e4", "gmail", kind="request")
    inbound_id, duplicate = store(server.db, raw, "smtp")  # ... and the process dies here
    assert not duplicate and table.game(game_id).ply == 0
    assert store(server.db, raw, "smtp") == (inbound_id, True)  # the sender's retry is recognised
    Worker(server).run_once()  # a message just received is left to the door that received it
    assert table.game(game_id).ply == 0
    restart_later(server)
    Worker(server).run_once()  # restart: the sweep finds it
    assert table.game(game_id).ply == 1
    Worker(server).run_once()
    assert table.game(game_id).ply == 1


def test_crash_mid_transaction_applies_nothing_and_is_retried(server, monkeypatch):
    table = Table(server)
    game_id = table.start()
    events, mails = counts(server)
    raw = table.reply_bytes(ALICE, "R e2-e4", "gmail", kind="request")
    inbound_id, _ = store(server.db, raw, "smtp")

    def crash(self, game, mails):
        raise Crash("power cut")

    monkeypatch.setattr(Mailer, "send", crash)
    with pytest.raises(Crash):
        process(server.db, server.settings, server.signer, inbound_id)
    assert table.game(game_id).ply == 0 and counts(server) == (events, mails)
    with server.db.sessions() as session:
        assert session.get(InboundMessage, inbound_id).status == "new"
    monkeypatch.undo()
    restart_later(server)
    assert process_pending(server.db, server.settings, server.signer) == 1
    assert table.game(game_id).ply == 1
    assert counts(server)[0] == events + 1


def test_two_workers_at_once_apply_each_inbound_mail_once(server):
    table = Table(server)
    games = [table.start() for _ in range(4)]
    raws = []
    with server.db.sessions() as session:
        requests = list(session.scalars(
            select(OutboundMessage).where(OutboundMessage.recipient == ALICE, OutboundMessage.kind == "request")
        ))
    for request in requests:
        raws.append(reply(request.raw, "R e2-e4", "gmail", ALICE))
    for raw in raws:
        store(server.db, raw, "smtp")
    restart_later(server)

    def work(ready):
        ready()
        for _ in range(3):
            process_pending(server.db, server.settings, server.signer)

    at_once(work)
    for game_id in games:
        assert table.game(game_id).ply == 1
        moves = [e for e in table.events(game_id) if e.result == "moved"]
        assert len(moves) == 1
    with server.db.sessions() as session:
        assert set(session.scalars(select(InboundMessage.status))) == {"done"}
    requests_to_bob = [m for m in table.mails(BOB) if m.kind == "request"]
    assert len(requests_to_bob) == len(games)


def test_two_dispatchers_at_once_send_each_mail_once(server, tmp_path):
    from app.outbound.outbox import Dispatcher
    from tests.server.mailhost import Sink

    table = Table(server)
    for _ in range(5):
        table.new_game()
    with Sink() as sink:
        from app.outbound.outbox import SMTPTransport

        settings = server.settings.__class__(**{**server.settings.__dict__, "smtp_host": "127.0.0.1",
                                                "smtp_port": sink.port})

        def work(ready):
            dispatcher = Dispatcher(server.db, settings, SMTPTransport(settings), server.signer)
            ready()
            for _ in range(5):
                dispatcher.run_once(limit=2)

        at_once(work)
        delivered = [raw for _, _, raw in sink.received]
    with server.db.sessions() as session:
        outbox = list(session.scalars(select(OutboundMessage)))
    assert {row.status for row in outbox} == {"sent"}
    assert len(delivered) == len(outbox) == 10


def test_an_attempt_after_the_message_was_marked_done_changes_nothing(server):
    """The mark decides: a second attempt with the message in hand is rolled back whole."""
    table = Table(server)
    game_id = table.start()
    raw = table.reply_bytes(ALICE, "R e2-e4", "gmail", kind="request")
    inbound_id, _ = store(server.db, raw, "smtp")
    assert "moved" in process(server.db, server.settings, server.signer, inbound_id)
    before = counts(server), table.game(game_id).ply
    with server.db.engine.connect() as connection:
        again = process_on(connection, server.settings, server.signer, inbound_id, Received(raw, None, []))
    assert again is None
    assert (counts(server), table.game(game_id).ply) == before


def test_two_attempts_at_once_with_the_message_in_hand_apply_it_once(server):
    table = Table(server)
    game_id = table.start()
    raw = table.reply_bytes(ALICE, "R e2-e4", "gmail", kind="request")
    inbound_id, _ = store(server.db, raw, "smtp")
    events, _mails = counts(server)

    def attempt(ready):
        with server.db.engine.connect() as connection:
            ready()
            return process_on(connection, server.settings, server.signer, inbound_id, Received(raw, None, []))

    outcomes = at_once(attempt)
    assert sorted(outcomes, key=str) == [None, "done: R e2-e4: moved"]
    assert table.game(game_id).ply == 1 and counts(server)[0] == events + 1
    assert len([m for m in table.mails(BOB) if m.kind == "request"]) == 1


def test_receive_keeps_a_message_whose_processing_fails_and_never_raises(server, monkeypatch):
    """Stored is accepted: a bug while processing marks the message failed for an operator."""
    table = Table(server)
    game_id = table.start()
    raw = table.reply_bytes(ALICE, "R e2-e4", "gmail", kind="request")

    def crash(self, game, mails):
        raise Crash("a bug")

    monkeypatch.setattr(Mailer, "send", crash)
    receipt = receive(server.db, server.settings, server.signer, raw, "webhook")
    assert receipt.outcome is None and not receipt.duplicate
    with server.db.sessions() as session:
        row = session.get(InboundMessage, receipt.inbound_id)
        assert (row.status, row.raw) == ("failed", raw)
    assert table.game(game_id).ply == 0


def test_a_lost_database_connection_while_processing_leaves_the_message_queued(server, monkeypatch):
    table = Table(server)
    game_id = table.start()
    raw = table.reply_bytes(ALICE, "R e2-e4", "gmail", kind="request")

    def disconnect(self, game, mails):
        raise DBAPIError("SELECT 1", {}, OSError("server closed the connection"), connection_invalidated=True)

    monkeypatch.setattr(Mailer, "send", disconnect)
    receipt = receive(server.db, server.settings, server.signer, raw, "webhook")
    assert receipt.outcome is None
    with server.db.sessions() as session:
        assert session.get(InboundMessage, receipt.inbound_id).status == "new"
    monkeypatch.undo()
    restart_later(server)
    assert process_pending(server.db, server.settings, server.signer) == 1
    assert table.game(game_id).ply == 1


def test_a_worker_killed_mid_burst_sends_one_mail_twice_at_most_and_its_restart_takes_the_rest_at_once(
        tmp_path, database_url):
    """kill -9 during a burst of sends: the mail the relay had accepted but the worker had not yet recorded may
    go twice (SMTP has no way to make that window empty); the rows it held are taken back by its restart at once,
    not after their lease."""
    with SlowSink() as sink:
        settings = {"SMTP_HOST": "127.0.0.1", "SMTP_PORT": str(sink.port)}
        server = make_server(tmp_path, database_url, **settings)
        table = Table(server)
        for number in range(15):
            table.new_game(white=f"white{number}@players.test", black=f"black{number}@players.test")
        total = len(table.mails("white0@players.test")) * 30
        env = dict(os.environ, MIRRORPOST_SKIP_BOOTSTRAP="1", MIRRORPOST_INSTANCE=str(server.settings.instance_path),
                   DATABASE_URL=database_url, SECRET_KEY="test-secret-key", SERVER_EMAIL="referee@mirrorpost.test",
                   INBOUND_SMTP_PORT="0", **settings)
        root = Path(__file__).parent.parent.parent
        worker = subprocess.Popen([sys.executable, str(root / "manage.py"), "worker"], cwd=root, env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_until(lambda: len(sink.received) >= 5, timeout=30, what="the burst to start")
        finally:
            worker.send_signal(signal.SIGKILL)
            worker.wait(timeout=10)
        time.sleep(0.2)  # what was in flight has landed at the relay
        with server.db.sessions() as session:
            held = session.scalars(select(OutboundMessage).where(OutboundMessage.status == "sending")).all()
        assert held, "the worker died holding leased rows"
        restarted = server.dispatcher()  # this machine's first free slot again: the dead worker's identity
        for _ in range(10):
            restarted.run_once()
        with server.db.sessions() as session:
            assert set(session.scalars(select(OutboundMessage.status))) == {"sent"}
        ids = [str(message_from_bytes(raw)["Message-ID"]) for _, _, raw in sink.received]
        assert len(set(ids)) == total
        assert len(ids) - len(set(ids)) <= 1


class SlowSink(Sink):
    """A relay that takes a while over each mail, as real ones do: a burst takes long enough to be killed in."""

    async def handle_DATA(self, server, session, envelope):
        await asyncio.sleep(0.05)
        return await super().handle_DATA(server, session, envelope)


def test_the_stored_message_is_committed_before_processing_and_the_moves_writes_only_with_the_mark(server, monkeypatch):
    """Seen from another connection while the move is being processed: the message is there, new; nothing of
    the move is, until its one transaction commits with the mark."""
    table = Table(server)
    game_id = table.start()
    raw = table.reply_bytes(ALICE, "R e2-e4", "gmail", kind="request")
    events, mails = counts(server)
    observer = create_engine(server.db.url)  # a plain reader: on SQLite it takes no write lock
    seen = []
    real_send = Mailer.send

    def look_from_outside(self, game, mails):
        real_send(self, game, mails)  # the outbox rows are written now, in the move's transaction
        with observer.connect() as other:
            seen.append(other.execute(select(InboundMessage.status).order_by(InboundMessage.id.desc())).first()[0])
            seen.append(other.execute(select(func.count(Event.id))).scalar())
            seen.append(other.execute(select(func.count(OutboundMessage.id))).scalar())
            seen.append(other.execute(select(Game.ply).where(Game.id == game_id)).scalar())

    monkeypatch.setattr(Mailer, "send", look_from_outside)
    try:
        assert "moved" in receive(server.db, server.settings, server.signer, raw, "smtp").outcome
    finally:
        observer.dispose()
    assert seen == ["new", events, mails, 0]
    assert counts(server) == (events + 1, mails + 2) and table.game(game_id).ply == 1
