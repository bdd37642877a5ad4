"""IMAP polling against a real Dovecot: fetch, store, mark; never lose a message or apply it twice."""

import pytest
from imap_tools import AND, MailBoxUnencrypted

from app.inbound import imap
from app.inbound import receive as inbound
from tests.conftest import make_server
from tests.server.dovecot import dovecot  # noqa: F401 - the fixture
from tests.server.harness import ALICE, Table

pytestmark = pytest.mark.dovecot


def imap_server(tmp_path, database_url, box):
    return make_server(tmp_path, database_url, IMAP_HOST="127.0.0.1", IMAP_PORT=str(box.port),
                       IMAP_USER=box.user, IMAP_PASSWORD=box.password, IMAP_SSL="0", IMAP_FOLDER="INBOX")


def append(box, raw: bytes) -> None:
    with MailBoxUnencrypted("127.0.0.1", box.port).login(box.user, box.password) as mailbox:
        mailbox.append(raw, "INBOX")


def test_imap_poll_stores_processes_and_marks(tmp_path, database_url, dovecot):  # noqa: F811
    server = imap_server(tmp_path, database_url, dovecot)
    table = Table(server)
    game_id = table.start()
    append(dovecot, table.reply_bytes(ALICE, "R e2-e4", "apple", kind="request"))
    assert imap.poll(server) == 1
    assert table.game(game_id).ply == 1
    assert imap.poll(server) == 0  # marked: not fetched again
    with MailBoxUnencrypted("127.0.0.1", dovecot.port).login(dovecot.user, dovecot.password) as mailbox:
        assert len(mailbox.uids(AND(keyword=imap.STORED))) == 1
        assert len(mailbox.uids(AND(seen=False))) == 1  # \Seen is left to people


def test_imap_crash_between_storing_and_marking_applies_once(tmp_path, database_url, dovecot, monkeypatch):  # noqa: F811
    server = imap_server(tmp_path, database_url, dovecot)
    table = Table(server)
    game_id = table.start()
    before = len(table.inbound())
    append(dovecot, table.reply_bytes(ALICE, "R e2-e4", "gmail", kind="request"))

    class Crash(Exception):
        pass

    def crash(self, *args, **kwargs):
        raise Crash("died after storing, before marking")

    monkeypatch.setattr(MailBoxUnencrypted, "flag", crash)
    with pytest.raises(Crash):
        imap.poll(server)
    monkeypatch.undo()
    assert imap.poll(server) == 1  # fetched again ...
    assert table.game(game_id).ply == 1  # ... and recognised: applied once
    assert len(table.inbound()) == before + 1


def test_a_message_larger_than_any_door_takes_is_answered_from_its_header_and_left_in_the_mailbox(
        tmp_path, database_url, dovecot, monkeypatch):  # noqa: F811
    """IMAP cannot refuse it as SMTP does: its header is stored, its sender told, the message left flagged."""
    monkeypatch.setattr(inbound, "LARGEST_MESSAGE", 50_000)
    server = imap_server(tmp_path, database_url, dovecot)
    table = Table(server)
    game_id = table.start()
    before = len(table.inbound())
    reply = table.reply_bytes(ALICE, "R e2-e4", "apple", kind="request")
    padding = (b"x" * 70 + b"\r\n") * 900  # a 64 KB attachment, as far as size goes
    append(dovecot, reply + padding)
    robot = reply.replace(b"\r\n\r\n", b"\r\nAuto-Submitted: auto-replied\r\n\r\n", 1)
    append(dovecot, robot.replace(b"Message-ID: <", b"Message-ID: <robot.", 1) + padding)
    append(dovecot, reply.replace(b"\r\n\r\n", b"\r\nX-Padding: " + b"x" * 60_000 + b"\r\n\r\n", 1))
    assert imap.poll(server) == 2  # the two headers it can keep
    assert table.game(game_id).ply == 0  # nothing of a message it did not read is applied
    stored = table.inbound()[before:]
    assert [row.outcome for row in stored] == ["too large", "not answered: Auto-Submitted: auto-replied"]
    for row in stored:
        assert row.full_size is not None and row.full_size > 50_000
        assert row.raw.endswith(b"\r\n\r\n") and b"R e2-e4" not in row.raw  # the header, not the message
    notice = table.last(ALICE)
    assert notice.kind == "too-large" and len(table.mails(ALICE, "too-large")) == 1  # the robot is not answered
    assert f"Your message was {stored[0].full_size // 1024} KB" in table.text(ALICE)
    append(dovecot, reply.replace(b"Message-ID: <", b"Message-ID: <again.", 1))
    assert imap.poll(server) == 1  # only the new one: the large ones are not looked at again
    assert table.game(game_id).ply == 1
    with MailBoxUnencrypted("127.0.0.1", dovecot.port).login(dovecot.user, dovecot.password) as mailbox:
        assert len(mailbox.uids("ALL")) == 4  # nothing deleted
        assert len(mailbox.uids(AND(keyword=imap.TOO_LARGE))) == 3
        assert len(mailbox.uids(AND(keyword=imap.STORED))) == 3


def test_hostile_mail_through_imap_is_read_as_through_any_door(tmp_path, database_url, dovecot):  # noqa: F811
    """The same rules by IMAP: a long run of spaces read in linear time, a From that is not one address
    refused, a forged command outside a game held for its owner's confirmation."""
    from app.inbound.clients import fresh, reply
    from tests.server.doors import Doors

    doors = Doors(tmp_path, database_url, dovecot=dovecot)
    try:
        table = Table(doors.server)
        game_id = table.start()
        request = table.last(ALICE, "request")
        forked = reply(request.raw, "R e2-e4", "gmail", ALICE).replace(
            b"From: alice@players.test", b"From: alice@players.test <evil@evil.test>", 1)
        assert doors.deliver("imap", forked).startswith("rejected: From refused: ")
        spaces = reply(request.raw, "R e2-e4" + " " * 200_000 + ".", "apple", ALICE, charset="iso-8859-1")
        assert doors.deliver("imap", spaces) == "done: R e2-e4: moved"
        assert table.game(game_id).ply == 1
        forged = fresh("bob@players.test", "referee@mirrorpost.test", "vacation 21")
        assert doors.deliver("imap", forged) == "done: held for confirmation: vacation 21"
        assert table.last("bob@players.test").kind == "confirm"
    finally:
        doors.close()
