"""Retention: old raw replies and old sent bodies go, their rows stay; the game record is never touched."""

from datetime import timedelta

import pytest
from sqlalchemy import select, text, update

from app import retention
from app.admin import inbound_raw, retry_outbound
from app.config import load_settings
from app.db import utcnow
from app.games.models import Event, Game, Player
from app.inbound.models import InboundMessage
from app.inbound.pipeline import Pipeline
from app.inbound.receive import receive
from app.outbound.models import OutboundMessage
from app.outbound.outbox import MaildirTransport
from app.web.models import LoginToken
from app.worker import Worker
from tests.conftest import make_server
from tests.server.harness import ALICE, BOB, Table
from tests.web_helpers import client_for

LATER = timedelta(days=400)  # long past every default


def everything_sent(server, tmp_path) -> None:
    dispatcher = server.dispatcher(MaildirTransport(tmp_path / "sent"))
    while dispatcher.run_once(limit=100):
        pass


def retain_all(server, now) -> retention.Dropped:
    """Rounds of retention until one drops nothing; what they dropped together."""
    inbound = outbound = tokens = 0
    while (dropped := retention.run(server.db, server.settings, now)).total:
        inbound, outbound, tokens = inbound + dropped.inbound, outbound + dropped.outbound, tokens + dropped.tokens
    return retention.Dropped(inbound, outbound, tokens)


def rows_of(server, model) -> list[tuple]:
    table = model.__table__
    with server.db.engine.connect() as connection:
        return [tuple(row) for row in connection.execute(select(table).order_by(table.c.id))]


def a_played_game(server, tmp_path) -> tuple[Table, int]:
    """A game set up and a few moves in, a word said, every mail sent."""
    table = Table(server)
    game_id = table.start()
    table.reply(ALICE, "R e2-e4", kind="request")
    table.reply(BOB, "say good luck", kind="request")
    table.reply(BOB, "M e7-e5", kind="request")
    everything_sent(server, tmp_path)
    return table, game_id


def test_old_raw_replies_and_sent_bodies_go_and_the_game_record_stays_whole(server, tmp_path):
    table, game_id = a_played_game(server, tmp_path)
    record = [rows_of(server, model) for model in (Game, Event, Player)]
    client = client_for(server, game_id, table.game(game_id).white_id)
    history = client.get(f"/games/{game_id}.json").get_json()
    inbound_before, outbox_before = table.inbound(), rows_of(server, OutboundMessage)

    early = retain_all(server, utcnow() + timedelta(days=29))
    assert (early.inbound, early.outbound) == (0, 0)  # no mail is old enough yet (the sign-in link's row is)
    dropped = retain_all(server, utcnow() + LATER)
    assert dropped.inbound == len(inbound_before) and dropped.outbound == len(outbox_before)

    assert [rows_of(server, model) for model in (Game, Event, Player)] == record  # not a value changed
    assert client.get(f"/games/{game_id}.json").get_json() == history
    for before, after in zip(inbound_before, table.inbound(), strict=True):
        assert after.raw == b"" and after.compacted_at is not None
        assert (after.message_key, after.status, after.outcome, after.sender, after.received_at,
                after.processed_at) == (before.message_key, before.status, before.outcome, before.sender,
                                        before.received_at, before.processed_at)
    for after in table.mails(ALICE) + table.mails(BOB):
        assert (after.headers, after.body_text, after.body_html) == ([], "", "") and after.compacted_at is not None
        assert after.status == "sent" and after.subject and after.message_id and after.recipient


def test_a_redelivered_old_message_is_still_a_duplicate_and_is_applied_once(server, tmp_path):
    table = Table(server)
    game_id = table.start()
    raw = table.reply_bytes(ALICE, "R e2-e4", kind="request")
    assert table.deliver(raw) == "done: R e2-e4: moved"
    everything_sent(server, tmp_path)
    retain_all(server, utcnow() + LATER)
    assert table.inbound()[-1].raw == b""
    events = len(table.events(game_id))
    receipt = receive(server.db, server.settings, server.signer, raw, "smtp")
    assert receipt.duplicate and receipt.outcome is None
    assert len(table.events(game_id)) == events and table.game(game_id).ply == 1


def test_a_reply_to_a_mail_whose_parts_were_dropped_is_still_read(server, tmp_path):
    table = Table(server)
    game_id = table.start()
    raw = table.reply_bytes(ALICE, "R e2-e4", "gmail", kind="request")  # it quotes the whole request
    everything_sent(server, tmp_path)
    retain_all(server, utcnow() + LATER)
    assert table.deliver(raw) == "done: R e2-e4: moved"
    assert table.game(game_id).ply == 1


def test_what_an_operator_may_need_and_what_is_under_way_is_kept(server, tmp_path, monkeypatch):
    table = Table(server)
    table.new_game()  # two invitations, left unsent
    pending = {mail.id for mail in table.mails(ALICE) + table.mails(BOB)}
    failing = table.reply_bytes(ALICE, "accept", kind="invitation")
    monkeypatch.setattr(Pipeline, "run", lambda self, row: 1 / 0)
    assert table.deliver(failing) is None  # a bug: kept failed for an operator
    monkeypatch.undo()
    with server.db.engine.begin() as connection:  # one mail refused for good, one bounced
        connection.execute(update(OutboundMessage).where(OutboundMessage.id == min(pending))
                           .values(status="failed", last_error="550 no such user"))
        connection.execute(update(OutboundMessage).where(OutboundMessage.id == max(pending))
                           .values(status="bounced"))
    table.write("carol@players.test", "help")  # processed, but young
    kept = {row.id: row.raw for row in table.inbound()}
    assert retain_all(server, utcnow() + timedelta(days=10)).total == 0
    assert retain_all(server, utcnow() + LATER).inbound == 1  # only carol's, now old
    after = {row.id: (row.status, row.raw) for row in table.inbound()}
    assert [status for status, _raw in after.values()].count("failed") == 1
    assert all(raw == kept[row_id] for row_id, (status, raw) in after.items() if status == "failed")
    held = {mail.id: mail for mail in table.mails(ALICE) + table.mails(BOB) if mail.id in pending}
    assert all(mail.body_text and mail.compacted_at is None for mail in held.values())
    assert retry_outbound(server.db, min(pending))  # still whole: it can be sent again
    assert inbound_raw(server.db, next(iter(after))).raw == kept[next(iter(after))]


def test_a_round_takes_one_small_batch_of_each_kind(tmp_path, database_url):
    server = make_server(tmp_path, database_url, RETENTION_BATCH="2")
    a_played_game(server, tmp_path)
    first = retention.run(server.db, server.settings, utcnow() + LATER)
    assert (first.inbound, first.outbound) == (2, 2)
    rounds = 1
    while retention.run(server.db, server.settings, utcnow() + LATER).total:
        rounds += 1
    assert rounds >= len(Table(server).inbound()) // 2
    server.db.engine.dispose()


def test_a_mail_that_bounces_after_its_parts_went_cannot_be_sent_again_empty(server, tmp_path):
    table, _game_id = a_played_game(server, tmp_path)
    retain_all(server, utcnow() + LATER)
    mail = table.last(BOB)
    with server.db.engine.begin() as connection:
        connection.execute(update(OutboundMessage).where(OutboundMessage.id == mail.id).values(status="bounced"))
    assert not retry_outbound(server.db, mail.id)
    assert table.last(BOB).status == "bounced"


def test_zero_days_keeps_them_for_ever_and_a_negative_number_is_refused(tmp_path, database_url):
    server = make_server(tmp_path, database_url, INBOUND_RETENTION_DAYS="0", OUTBOX_RETENTION_DAYS="0")
    table, _game_id = a_played_game(server, tmp_path)
    assert retain_all(server, utcnow() + LATER).total == 0
    assert all(row.raw for row in table.inbound()) and all(mail.body_text for mail in table.mails(ALICE))
    server.db.engine.dispose()
    with pytest.raises(ValueError, match="INBOUND_RETENTION_DAYS must be 0"):
        load_settings({"MIRRORPOST_INSTANCE": str(tmp_path / "i"), "INBOUND_RETENTION_DAYS": "-1"})
    defaults = load_settings({"MIRRORPOST_INSTANCE": str(tmp_path / "i")})
    assert (defaults.inbound_retention_days, defaults.outbox_retention_days, defaults.retention_batch) == (30, 30, 500)


def test_sign_in_links_go_a_day_after_they_were_made(server):
    now = utcnow()
    with server.db.engine.begin() as connection:
        for nonce, age in (("old", timedelta(days=2)), ("recent", timedelta(hours=2))):
            connection.execute(LoginToken.__table__.insert().values(
                nonce=nonce, email=ALICE, client="test", created_at=now - age))
    assert retain_all(server, now).tokens == 1
    with server.db.engine.connect() as connection:
        assert connection.execute(text("SELECT nonce FROM login_tokens")).scalars().all() == ["recent"]


def test_the_worker_runs_retention_in_its_round(server, tmp_path, monkeypatch):
    a_played_game(server, tmp_path)
    monkeypatch.setattr("app.worker.utcnow", lambda: utcnow() + LATER)
    assert Worker(server).run_once()["retention"] > 0
    assert all(row.compacted_at is not None for row in Table(server).inbound())
    with server.db.sessions() as session:
        assert session.scalar(select(InboundMessage).where(InboundMessage.raw != b"")) is None
