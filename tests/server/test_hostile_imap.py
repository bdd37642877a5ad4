"""Hostile mail through the IMAP door, fetched from a real Dovecot: the same answers as through the others."""

import pytest

from app.inbound.clients import fresh
from tests.server.doors import Doors
from tests.server.dovecot import dovecot  # noqa: F401 - the fixture
from tests.server.harness import ALICE, BOB, Table

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
