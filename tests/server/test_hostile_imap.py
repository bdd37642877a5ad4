"""Hostile mail through the IMAP door, fetched from a real Dovecot: the same answers as through the others."""

import pytest

from app.inbound.clients import fresh
from tests.server.doors import Doors
from tests.server.dovecot import dovecot  # noqa: F401 - the fixture
from tests.server.harness import ALICE, BOB, Table
from tests.server.test_visible_text import html_only

pytestmark = pytest.mark.dovecot
REFEREE = "referee@mirrorpost.test"


def with_from(raw: bytes, value: bytes) -> bytes:
    head, body = raw.split(b"\r\n\r\n", 1)
    kept = [line for line in head.split(b"\r\n") if not line.lower().startswith(b"from:")]
    return b"\r\n".join([b"From: " + value, *kept]) + b"\r\n\r\n" + body


def test_hostile_mail_fetched_by_imap_is_refused_screened_or_held_as_through_any_door(tmp_path, database_url,
                                                                                         dovecot):  # noqa: F811
    doors = Doors(tmp_path, database_url, dovecot=dovecot)
    try:
        table = Table(doors.server)
        game_id = table.start()
        bomb = (f"From: Alice <{ALICE}>\r\nTo: {REFEREE}\r\nSubject: parts\r\nMessage-ID: <imap.bomb@players.test>\r\n"
                "MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=XX\r\n\r\n"
                "--XX\r\nContent-Type: text/plain"
                + "\r\n ".join(["; a=b" * 150] * 1200) + "\r\n\r\nhelp\r\n--XX--\r\n").encode()
        assert doors.deliver("imap", bomb).startswith(
            "rejected: header refused: a content-type header in a MIME part of ")  # measured, never parsed
        absent = fresh(BOB, REFEREE, "I am away until Monday.", subject="Out of office: your move")
        assert doors.deliver("imap", absent).startswith("ignored: ")  # an auto-reply is never answered
        forged = with_from(table.reply_bytes(ALICE, "R e2-e4", "gmail", kind="request"),
                           b"alice@players.test <evil@evil.test>")
        assert doors.deliver("imap", forged).startswith("rejected: From refused: ")  # one From, one address
        assert table.game(game_id).ply == 0
        stranger = fresh('"BUY PILLS at pills.example" <carol@players.test>', REFEREE, "name Carol Seller")
        assert doors.deliver("imap", stranger).startswith("done: held for confirmation")
        assert all(b"pills" not in mail.raw.lower() for mail in table.mails("carol@players.test"))
    finally:
        doors.close()


def test_what_a_reader_cannot_see_and_stray_bytes_fetched_by_imap_are_read_as_through_any_door(
        tmp_path, database_url, dovecot):  # noqa: F811
    """A hidden 'resign' plays nothing; a stray byte in References loses no move; a Cyrillic order is played;
    an out-of-office in Japanese gets no answer: through Dovecot as through the listener."""
    doors = Doors(tmp_path, database_url, dovecot=dovecot)
    try:
        table = Table(doors.server)
        game_id = table.start()
        hidden = html_only(table.last(ALICE, "request").raw,
                           '<p>thinking about it</p><div style="DISPLAY: none !important">resign</div>')
        assert doors.deliver("imap", hidden) == "rejected: no command found"
        stray = table.reply_bytes(ALICE, "R \u0435\u0032-\u0435\u0034", "gmail", kind="request")  # Cyrillic e
        stray = stray.replace(b"\r\nReferences: ", b"\r\nReferences: <caf\xe9@x.test> ", 1)
        stray = stray.replace(b"\r\nIn-Reply-To: ", b"\r\nIn-Reply-To: <caf\xe9@x.test> ", 1)
        assert doors.deliver("imap", stray) == "done: R e2-e4: moved"
        auto = table.reply_bytes(BOB, "I am away until Monday.", "outlook", kind="request")
        auto = auto.replace(b"\r\nSubject: ", b"\r\nSubject: =?utf-8?b?6Ieq5YuV5b+c562UOg==?= ", 1)  # 自動応答:
        assert doors.deliver("imap", auto) == "ignored: not answered: out-of-office subject"
        assert table.game(game_id).ply == 1 and table.game(game_id).status == "active"
    finally:
        doors.close()
