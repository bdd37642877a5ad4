"""Freezes and memory: the worst inputs cost little, through a real door, and what comes back is bounded."""

import html
import quopri
from email import message_from_bytes

import pytest
from sqlalchemy import select

from app.games.models import Event
from app.inbound import budget
from app.inbound.clients import fresh
from app.outbound.models import OutboundMessage
from app.outbound.policy import POLICY
from tests.server.doors import DOORS, Doors
from tests.server.harness import ALICE, BOB, Table

SPACES = 900_000  # under MAX_MESSAGE_BYTES (1 MB): read in full


@pytest.fixture
def doors(tmp_path, database_url):
    opened = Doors(tmp_path, database_url)
    yield opened
    opened.close()


def html_reply(table: Table, body_html: str) -> bytes:
    """Alice's HTML-only reply to her move request, its body as given, quoted-printable (one long line once
    decoded, in lines short enough for SMTP on the wire)."""
    raw = table.reply_bytes(ALICE, "x", "html-only", kind="request")
    head = raw.split(b"\r\n\r\n", 1)[0]
    kept = [line for line in head.split(b"\r\n") if not line.lower().startswith((b"content-", b"mime-version"))]
    body = quopri.encodestring(body_html.encode()).replace(b"\n", b"\r\n")
    return b"\r\n".join([*kept, b"MIME-Version: 1.0", b'Content-Type: text/html; charset="utf-8"',
                          b"Content-Transfer-Encoding: quoted-printable"]) + b"\r\n\r\n" + body


def envelope(table: Table) -> str:
    return str(message_from_bytes(table.last(ALICE, "request").raw)["Reply-To"])


STYLED = ("<style>" + "".join(f".x.y{number}{{display:none}}" for number in range(5_000)) + "</style>"
          + '<i class="x y1" style="font-size:0;color:#fff">a</i>' * 15_000)  # every element with every rule


@pytest.mark.parametrize("door", DOORS)
@pytest.mark.parametrize("filler", [" " * SPACES, "<!--" * (SPACES // 4), "</" * (SPACES // 2), "&" * SPACES, STYLED])
def test_html_that_was_quadratic_is_read_whole_and_the_order_in_it_carried_out(doors, door, filler):
    table = Table(doors.server)
    game_id = table.start()
    raw = html_reply(table, f"<html><body><p>R e2-e4</p><p>{filler}</p></body></html>")
    assert doors.deliver(door, raw, ALICE, envelope(table)) == "done: R e2-e4: moved"
    assert table.game(game_id).ply == 1


def multipart(parts: list[bytes]) -> bytes:
    head = (f"From: Alice <{ALICE}>\r\nTo: referee@mirrorpost.test\r\nSubject: parts\r\n"
            "Message-ID: <parts@players.test>\r\nMIME-Version: 1.0\r\n"
            "Content-Type: multipart/mixed; boundary=XX\r\n\r\n").encode()
    return head + b"".join(b"--XX\r\n" + part + b"\r\n" for part in parts) + b"--XX--\r\n"


@pytest.mark.parametrize(("parts", "refused"), [
    ([b"Content-Type: text/plain" + b"; a=b" * 180_000 + b"\r\n\r\nhelp"],
     "a content-type header in a MIME part of 900024 bytes (at most 4096)"),
    ([b"Content-Type: text/plain" + b"; a=b" * 800 + b"\r\n\r\nhelp"] * 100, "MIME part headers of more than 32 KB"),
    ([b"\r\nhelp"] * 70_000, "70001 MIME part delimiters (at most 1000)"),
    ([b"Content-Type: multipart/mixed; boundary=b%d\r\n\r\n--b%d" % (level, level) for level in range(25)],
     "more than 20 multipart containers"),
])
def test_mime_parts_the_parser_would_take_minutes_over_are_refused_before_it_reads_them(doors, parts, refused):
    """A part's Content-Type of many parameters, tens of thousands of parts, multiparts nested deep (the parser
    checks every line against every boundary around it): measured on the raw bytes, the message is refused at
    once (the parser took minutes and a gigabyte on the first, a minute on the last) and its sender told once."""
    raw = multipart(parts)
    assert len(raw) < 1024 * 1024  # the door reads it in full
    assert doors.deliver("ingest", raw) == f"rejected: header refused: {refused}"
    table = Table(doors.server)
    assert [mail.kind for mail in table.mails(ALICE)] == ["refused"]


def test_part_headers_after_a_line_that_ends_the_header_early_are_measured_too(doors):
    """The parser ends the header at the first line that is no field: what follows is measured as parts are."""
    fields = b"".join(b"--XX\r\nContent-Type: text/plain" + b"; a=b" * 800 + b"\r\n" for _ in range(61))
    raw = (f"From: Alice <{ALICE}>\r\nTo: referee@mirrorpost.test\r\nSubject: early\r\n"
           "Message-ID: <early@players.test>\r\nMIME-Version: 1.0\r\n"
           "Content-Type: multipart/mixed; boundary=XX\r\nX\r\n").encode() + fields + b"\r\nhelp\r\n--XX--\r\n"
    assert doors.deliver("ingest", raw) == "rejected: header refused: MIME part headers of more than 32 KB"


def test_a_mail_of_many_ordinary_attachments_is_read(doors):
    """The bounds leave room for what mail programs write: forty attached files, each with its own header."""
    attachment = (b'Content-Type: application/pdf; name="invoice-2026-11-report.pdf"\r\n'
                  b'Content-Disposition: attachment; filename="invoice-2026-11-report.pdf"\r\n'
                  b"Content-Transfer-Encoding: base64\r\n\r\nJVBERi0xLjQK")
    raw = multipart([b"Content-Type: text/plain; charset=utf-8\r\n\r\nhelp", *[attachment] * 40])
    assert doors.deliver("ingest", raw) == "done: help"


def test_a_from_of_16000_encoded_words_is_refused_unparsed_and_kept_by_no_cache(doors):
    encoded = " ".join(["=?utf-8?q?a=C3=A9?="] * 16_000)
    raw = f"From: {encoded} <alice@players.test>\r\nTo: referee@mirrorpost.test\r\nSubject: hi\r\n" \
          "Message-ID: <big.from@players.test>\r\n\r\nhelp\r\n"
    memo = POLICY.header_factory._made.cache_info().currsize
    outcome = doors.deliver("webhook", raw.encode(), "mallory@evil.test")
    assert outcome == "rejected: header refused: a header of 312 KB (at most 256 KB)"
    assert POLICY.header_factory._made.cache_info().currsize == memo  # nothing of it was parsed, nor kept
    table = Table(doors.server)
    assert [mail.kind for mail in table.mails("mallory@evil.test")] == ["refused"]  # the envelope sender is told
    assert table.mails(ALICE) == []
    long_value = "x" * 300
    assert POLICY.header_factory("Subject", long_value) is not POLICY.header_factory("Subject", long_value)
    assert POLICY.header_factory("Subject", "short") is POLICY.header_factory("Subject", "short")
    smaller = raw.replace(encoded, " ".join(["=?utf-8?q?a=C3=A9?="] * 200)).encode()
    outcome = doors.deliver("webhook", smaller.replace(b"big.from", b"smaller.from"), "mallory@evil.test")
    assert outcome == "rejected: header refused: a from header of 4026 bytes (at most 2048)"


def test_a_header_larger_than_any_client_writes_is_refused_and_its_sender_told_once(doors):
    raw = fresh(ALICE, "referee@mirrorpost.test", "games")
    padded = raw.replace(b"\r\n\r\n", b"\r\n" + b"X-Padding: " + b"y" * 998 + b"\r\n" + (b" " + b"y" * 997 + b"\r\n")
                         * 300 + b"\r\n", 1)
    outcome = doors.deliver("ingest", padded)
    assert outcome == "rejected: header refused: a header of 294 KB (at most 256 KB)"
    table = Table(doors.server)
    notices = table.mails(ALICE)
    assert [mail.kind for mail in notices] == ["refused"] and "more than any mail program writes" in table.text(ALICE)
    assert len(notices[0].body_text) < 3000


def test_a_message_over_its_time_budget_is_kept_failed_with_the_reason_and_answered_once(tmp_path, database_url):
    doors = Doors(tmp_path, database_url, MESSAGE_TIME_BUDGET="0.000001")
    try:
        table = Table(doors.server)
        raw = fresh(ALICE, "referee@mirrorpost.test", "games")
        outcome = doors.deliver("smtp", raw, ALICE)
        assert outcome.startswith("failed: over its budget: reading it took longer than 1e-06 s (at ")
        assert [mail.kind for mail in table.mails(ALICE)] == ["over-budget"]
        assert "could not be read" in table.last(ALICE).subject
        assert doors.latest().raw == raw  # kept as received, for an operator
        assert table.deliver(raw) == "duplicate"  # a redelivery is the same message: no second answer
        assert len(table.mails(ALICE)) == 1
    finally:
        doors.close()


def test_a_message_over_its_memory_budget_is_kept_failed_with_the_reason(doors, monkeypatch):
    monkeypatch.setattr(budget, "DECODED_LIMIT", 50_000)
    table = Table(doors.server)
    game_id = table.start()
    raw = table.reply_bytes(ALICE, "R e2-e4\n" + "chatter\n" * 10_000, "apple", kind="request", charset="iso-8859-1")
    outcome = doors.deliver("webhook", raw, ALICE, envelope(table))
    assert outcome == "failed: over its budget: it needed more than 48 KB decoded (at decoding the text part)"
    assert table.game(game_id).ply == 0 and table.last(ALICE).kind == "over-budget"


def test_an_order_line_of_900_kb_is_answered_with_a_short_excerpt(doors):
    table = Table(doors.server)
    game_id = table.start()
    line = "R e2-e4 " + "x" * SPACES
    raw = table.reply_bytes(ALICE, line, "apple", kind="request", charset="iso-8859-1")  # quoted-printable
    outcome = doors.deliver("smtp", raw, ALICE, envelope(table))
    assert outcome.startswith("rejected: unreadable: 'R e2-e4 xxx") and len(outcome) <= 500
    notice = table.last(ALICE)
    assert notice.kind == "error" and len(notice.body_text) < 6000 and "x" * 60 not in notice.body_text
    assert table.game(game_id).ply == 0


@pytest.mark.parametrize("junk", ["!" * 500_000, " !?" * 150_000, "\n" + "junk junk junk\n" * 30_000])
def test_an_order_is_stored_as_read_without_the_junk_after_it(doors, junk):
    table = Table(doors.server)
    game_id = table.start()
    raw = table.reply_bytes(ALICE, "R e2-e4" + junk, "apple", kind="request", charset="iso-8859-1")
    assert doors.deliver("webhook", raw, ALICE, envelope(table)) == "done: R e2-e4: moved"
    with doors.server.db.sessions() as session:
        orders = list(session.scalars(select(Event.order).where(Event.game_id == game_id, Event.by == "white")))
        mails = list(session.scalars(select(OutboundMessage.body_text)))
    assert orders[-1] == "R:e2-e4"  # as read, in its canonical form
    assert max(len(text) for text in mails) < 10_000
    table.reply(BOB, "resign", kind="request")
    assert "junk" not in table.text(ALICE, "game-over") and "!!!" not in table.text(ALICE, "game-over")
    assert html.escape("R:e2-e4") in table.last(ALICE, "game-over").body_html
