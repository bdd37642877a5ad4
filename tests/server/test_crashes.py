"""Stop processing at each step and start again: nothing lost, nothing applied twice."""

import threading

import pytest
from sqlalchemy import func, select

from app.games.mailing import Mailer
from app.games.models import Event
from app.mail.clients import reply
from app.mail.inbound import process, process_pending, store
from app.mail.models import InboundMessage, OutboundMessage
from app.worker import Worker
from tests.server.harness import ALICE, BOB, Table


class Crash(Exception):
    pass


def counts(server):
    with server.db.sessions() as session:
        return (
            session.scalar(select(func.count(Event.id))),
            session.scalar(select(func.count(OutboundMessage.id))),
        )


def test_crash_after_storing_loses_nothing(server):
    table = Table(server)
    game_id = table.start()
    raw = reply(table.last(ALICE, "request").raw, "R e2-e4", "gmail", ALICE)
    inbound_id, duplicate = store(server.db, raw, "smtp")  # ... and the process dies here
    assert not duplicate and table.game(game_id).ply == 0
    assert store(server.db, raw, "smtp") == (inbound_id, True)  # the sender's retry is recognised
    Worker(server).run_once()  # restart: the sweep finds it
    assert table.game(game_id).ply == 1
    Worker(server).run_once()
    assert table.game(game_id).ply == 1


def test_crash_mid_transaction_applies_nothing_and_is_retried(server, monkeypatch):
    table = Table(server)
    game_id = table.start()
    events, mails = counts(server)
    raw = reply(table.last(ALICE, "request").raw, "R e2-e4", "gmail", ALICE)
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
    barrier = threading.Barrier(2)
    errors = []

    def work():
        try:
            barrier.wait()
            for _ in range(3):
                process_pending(server.db, server.settings, server.signer)
        except Exception as error:
            errors.append(error)

    threads = [threading.Thread(target=work) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    for game_id in games:
        assert table.game(game_id).ply == 1
        moves = [e for e in table.events(game_id) if e.result == "moved"]
        assert len(moves) == 1
    with server.db.sessions() as session:
        assert set(session.scalars(select(InboundMessage.status))) == {"done"}
    requests_to_bob = [m for m in table.mails(BOB) if m.kind == "request"]
    assert len(requests_to_bob) == len(games)


def test_two_dispatchers_at_once_send_each_mail_once(server, tmp_path):
    from app.mail.outbox import Dispatcher
    from tests.server.mailhost import Sink

    table = Table(server)
    for _ in range(5):
        table.new_game()
    with Sink() as sink:
        from app.mail.outbox import SMTPTransport

        settings = server.settings.__class__(**{**server.settings.__dict__, "smtp_host": "127.0.0.1",
                                                "smtp_port": sink.port})
        barrier = threading.Barrier(2)

        def work():
            dispatcher = Dispatcher(server.db, settings, SMTPTransport(settings), server.signer)
            barrier.wait()
            for _ in range(5):
                dispatcher.run_once(limit=2)

        threads = [threading.Thread(target=work) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        delivered = [raw for _, _, raw in sink.received]
    with server.db.sessions() as session:
        outbox = list(session.scalars(select(OutboundMessage)))
    assert {row.status for row in outbox} == {"sent"}
    assert len(delivered) == len(outbox) == 10
