"""Outbound mail: retried with backoff until delivered, never lost, never doubled."""

import contextlib
from datetime import timedelta

from sqlalchemy import select, update

from app.db import utcnow
from app.outbound.envelope import find_envelope_key
from app.outbound.models import OutboundMessage
from app.outbound.outbox import Dispatcher, MaildirTransport, SMTPTransport, backoff, crlf
from tests.conftest import make_server
from tests.server.harness import ALICE, BOB, Table
from tests.server.mailhost import Sink


def rows(server):
    with server.db.sessions() as session:
        return list(session.scalars(select(OutboundMessage).order_by(OutboundMessage.id)))


def make_due(server):
    with server.db.transaction() as session:
        session.execute(update(OutboundMessage).where(OutboundMessage.status == "pending")
                        .values(next_attempt_at=utcnow() - timedelta(seconds=1)))


def expire_leases(server):
    """Time passes: every lease runs out, and a row being sent is due again."""
    past = utcnow() - timedelta(seconds=1)
    with server.db.transaction() as session:
        session.execute(update(OutboundMessage).where(OutboundMessage.status == "sending")
                        .values(lease_until=past, next_attempt_at=past))


def test_temporary_failures_are_retried_with_backoff_until_delivered(tmp_path, database_url):
    with Sink(refuse_first=2) as sink:
        server = make_server(tmp_path, database_url, SMTP_HOST="127.0.0.1", SMTP_PORT=str(sink.port))
        Table(server).new_game()
        dispatcher = server.dispatcher()
        assert dispatcher.run_once() == 0  # both invitations refused (451)
        first = rows(server)
        assert {row.status for row in first} == {"pending"}
        assert all(row.next_attempt_at > utcnow() + timedelta(seconds=20) for row in first)
        assert dispatcher.run_once() == 0  # not due yet: nothing is hammered
        make_due(server)
        assert dispatcher.run_once() == 2
        assert {row.status for row in rows(server)} == {"sent"}
        assert sorted(r for _, rcpts, _ in sink.received for r in rcpts) == [ALICE, BOB]
        assert dispatcher.run_once() == 0


def test_backoff_grows_and_is_capped():
    assert backoff(1) < backoff(2) < backoff(3)
    assert backoff(50) == backoff(60) == timedelta(hours=4)


def test_permanent_refusal_is_marked_failed(tmp_path, database_url):
    with Sink(refuse_first=5, code="550 5.1.1 no such user") as sink:
        server = make_server(tmp_path, database_url, SMTP_HOST="127.0.0.1", SMTP_PORT=str(sink.port))
        Table(server).new_game()
        server.dispatcher().run_once()
        assert {row.status for row in rows(server)} == {"failed"}
        assert "550" in rows(server)[0].last_error


def test_envelope_sender_names_the_row_for_bounces_by_a_random_key(server):
    """VERP by a key drawn for each mail: a bounce finds its row, and the address numbers nothing."""
    Table(server).new_game()
    first, second = rows(server)[:2]
    envelopes = [server.dispatcher().envelope_sender(row) for row in (first, second)]
    assert [find_envelope_key(envelope) for envelope in envelopes] == [first.envelope_key, second.envelope_key]
    assert envelopes[0].startswith("referee+bounce.") and len(envelopes[0].split("@")[0]) <= 64
    assert str(first.id) not in envelopes[0] and first.envelope_key != second.envelope_key


def test_a_mail_queued_before_envelope_keys_keeps_its_signed_id(server):
    Table(server).new_game()
    row = rows(server)[0]
    row.envelope_key = None
    envelope = server.dispatcher().envelope_sender(row)
    assert server.signer.find_bounce(envelope) == row.id


def test_maildir_delivery_happens_once_even_if_repeated(server, tmp_path):
    Table(server).new_game()
    transport = MaildirTransport(tmp_path / "box")
    row = rows(server)[0]
    transport.send("x@y", row.recipient, row.raw, row.message_id)
    transport.send("x@y", row.recipient, row.raw, row.message_id)
    assert len(list((tmp_path / "box" / "new").iterdir())) == 1


class Crash(BaseException):
    """The worker dies (a kill, the machine going down): no handler of a mail's failure sees it."""


def test_crash_after_sending_before_marking_sent_sends_nothing_twice(server, tmp_path, monkeypatch):
    Table(server).new_game()
    transport = MaildirTransport(tmp_path / "box")
    dispatcher = Dispatcher(server.db, server.settings, transport, server.signer)
    original = Dispatcher.finish

    def crash(self, row, status, error):
        raise Crash("the worker died right after sending")

    monkeypatch.setattr(Dispatcher, "finish", crash)
    with contextlib.suppress(Crash):
        dispatcher.run_once()
    monkeypatch.setattr(Dispatcher, "finish", original)
    assert {row.status for row in rows(server)} == {"sending"}
    assert dispatcher.run_once() == 0  # the lease still holds: no second worker grabs it
    expire_leases(server)  # ... until it runs out
    assert dispatcher.run_once() == 2
    assert {row.status for row in rows(server)} == {"sent"}
    assert len(list((tmp_path / "box" / "new").iterdir())) == 2  # one file per mail, none twice


def test_crash_before_smtp_send_resends_the_same_bytes(tmp_path, database_url, monkeypatch):
    with Sink() as sink:
        server = make_server(tmp_path, database_url, SMTP_HOST="127.0.0.1", SMTP_PORT=str(sink.port))
        Table(server).new_game()
        dispatcher = server.dispatcher()
        real_send = SMTPTransport.send
        calls = []

        def crash_once(self, envelope_from, recipient, raw, message_id):
            calls.append((message_id, raw))
            if len(calls) == 1:
                raise Crash("died before the relay answered")
            return real_send(self, envelope_from, recipient, raw, message_id)

        monkeypatch.setattr(SMTPTransport, "send", crash_once)
        with contextlib.suppress(Crash):
            dispatcher.run_once()
        expire_leases(server)
        dispatcher.run_once()
        ids = [row.message_id for row in rows(server)]
        delivered = sorted(str(m["Message-ID"]) for a in (ALICE, BOB) for m in sink.to(a))
        assert delivered == sorted(ids)  # each mail arrived, with its own unchanging Message-ID
        crashed_id, crashed_raw = calls[0]
        resent = [raw for _, _, raw in sink.received if f"Message-ID: {crashed_id}".encode() in raw]
        assert resent == [crlf(crashed_raw)]  # the retry sent the very bytes the crashed attempt had built


def test_a_row_that_cannot_be_assembled_fails_alone_and_the_others_are_sent(server, tmp_path):
    Table(server).new_game()  # two invitations
    first = rows(server)[0]
    with server.db.transaction() as session:
        session.execute(update(OutboundMessage).where(OutboundMessage.id == first.id)
                        .values(headers=[["Subject"]]))  # damaged: a header without a value
    dispatcher = Dispatcher(server.db, server.settings, MaildirTransport(tmp_path / "box"), server.signer)
    assert dispatcher.run_once() == 1
    by_id = {row.id: row for row in rows(server)}
    assert by_id[first.id].status == "failed" and "could not be assembled" in by_id[first.id].last_error
    assert [row.status for row in by_id.values() if row.id != first.id] == ["sent"]
    assert dispatcher.run_once() == 0  # the damaged row is not tried again


def test_an_html_part_with_a_line_longer_than_smtp_takes_on_the_wire_goes_as_base64():
    """A form feed ends a line for Python's str.splitlines but not on the wire: the line is counted as sent."""
    from email import message_from_bytes as read
    from email.policy import default as policy

    from app.outbound.compose import assemble

    html = "<p>" + "a\x0c" * 600 + "</p>"
    raw = assemble([("Subject", "a test")], "text", html, "<long.line@mirrorpost.test>")
    assert read(raw, policy=policy).get_body(("html",))["Content-Transfer-Encoding"] == "base64"
    assert max(len(line) for line in raw.split(b"\r\n")) <= 998
    short = assemble([("Subject", "a test")], "text", "<p>a</p>\n" * 300, "<short@mirrorpost.test>")
    assert read(short, policy=policy).get_body(("html",))["Content-Transfer-Encoding"] == "7bit"


def queue(server, *recipients: str) -> None:
    """One notice to each recipient, queued in this order."""
    from app.outbound.outbox import Mail, enqueue

    with server.db.engine.begin() as connection:
        enqueue(connection, server.settings, *[Mail(recipient, None, "notice", "a notice", "text", "<p>text</p>")
                                               for recipient in recipients])


def by_recipient(server) -> dict[str, OutboundMessage]:
    return {row.recipient: row for row in rows(server)}


def test_an_address_with_non_ascii_characters_never_stops_the_mails_queued_after_it(tmp_path, database_url):
    """The domain goes as its A-label (UTS-46: faß.de is xn--fa-hia.de, never fass.de); a local part in
    non-ASCII characters needs SMTPUTF8, which this relay does not offer: that mail fails alone, saying why."""
    with Sink() as sink:
        server = make_server(tmp_path, database_url, SMTP_HOST="127.0.0.1", SMTP_PORT=str(sink.port))
        queue(server, "m@faß.de", "mü@faß.de", ALICE, BOB)
        assert server.dispatcher().run_once() == 3
        found = by_recipient(server)
        assert [found[address].status for address in ("m@faß.de", ALICE, BOB)] == ["sent"] * 3
        assert found["mü@faß.de"].status == "failed" and "SMTPUTF8" in found["mü@faß.de"].last_error
        assert sorted(r for _, rcpts, _ in sink.received for r in rcpts) == sorted([ALICE, BOB, "m@xn--fa-hia.de"])
        assert str(sink.to("m@xn--fa-hia.de")[0]["To"]) == "m@xn--fa-hia.de"  # the header names it so too
        assert server.dispatcher().run_once() == 0  # the failed one is not tried again


def test_a_non_ascii_local_part_goes_with_smtputf8_where_the_relay_offers_it(tmp_path, database_url):
    with Sink(smtputf8=True) as sink:
        server = make_server(tmp_path, database_url, SMTP_HOST="127.0.0.1", SMTP_PORT=str(sink.port))
        queue(server, "mü@faß.de", ALICE)
        assert server.dispatcher().run_once() == 2
        assert [rcpts for _, rcpts, _ in sink.received] == [["mü@xn--fa-hia.de"], [ALICE]]


def test_a_domain_that_is_no_valid_name_fails_its_mail_alone(tmp_path, database_url):
    with Sink() as sink:
        server = make_server(tmp_path, database_url, SMTP_HOST="127.0.0.1", SMTP_PORT=str(sink.port))
        queue(server, "m@xn--zz.de", ALICE)
        assert server.dispatcher().run_once() == 1
        bad = by_recipient(server)["m@xn--zz.de"]
        assert bad.status == "failed" and "domain" in bad.last_error
        assert [rcpts for _, rcpts, _ in sink.received] == [[ALICE]]


class Faulty:
    """A transport that fails in a way nobody foresaw for one recipient, and delivers the others."""

    def __init__(self, broken: str) -> None:
        self.broken, self.sent = broken, []

    def send(self, envelope_from, recipient, raw, message_id):
        if recipient == self.broken:
            raise ValueError("something unforeseen")
        self.sent.append(recipient)

    def close(self):
        pass


def test_an_unforeseen_failure_of_one_mail_is_recorded_on_it_and_the_others_still_go(server):
    queue(server, BOB, ALICE)
    transport = Faulty(BOB)
    assert server.dispatcher(transport).run_once() == 1
    assert transport.sent == [ALICE]
    failed = by_recipient(server)[BOB]
    assert failed.status == "pending" and "something unforeseen" in failed.last_error  # tried again later
