"""Bad input and robots: every bad message gets a clear answer, robots get none (no mail loops)."""

import pytest
from sqlalchemy import select

from app.games.models import Player
from app.inbound.clients import fresh, reply
from app.outbound.models import OutboundMessage
from tests.server.harness import ALICE, BOB, Table

ROBOT_HEADERS = [
    {"Auto-Submitted": "auto-replied"},
    {"Precedence": "bulk"},
    {"Precedence": "auto_reply"},
    {"List-Id": "<chess.lists.example.org>"},
    {"X-Autoreply": "yes"},
]


def outbox_count(server):
    with server.db.sessions() as session:
        return len(session.scalars(select(OutboundMessage)).all())


@pytest.mark.parametrize("headers", ROBOT_HEADERS)
def test_auto_replies_and_list_mail_are_never_answered(server, headers):
    table = Table(server)
    game_id = table.start()
    before = outbox_count(server)
    raw = table.reply_bytes(ALICE, "I am away until Monday. R e2-e4", "gmail", kind="request")
    head, body = raw.split(b"\r\n\r\n", 1)
    extra = "".join(f"{k}: {v}\r\n" for k, v in headers.items()).encode()
    outcome = table.deliver(head + b"\r\n" + extra + b"\r\n" + body)
    assert outcome.startswith("ignored")
    assert outbox_count(server) == before
    assert table.game(game_id).ply == 0


def test_vacation_auto_reply_by_subject_gets_no_answer(server):
    table = Table(server)
    table.start()
    before = outbox_count(server)
    raw = fresh(ALICE, "referee@mirrorpost.test", "I am on holiday until the 30th.", subject="Out of Office: Game 1")
    assert table.deliver(raw).startswith("ignored")
    assert outbox_count(server) == before


def test_bounce_to_the_verp_address_is_recorded_and_not_answered(server):
    table = Table(server)
    table.new_game()
    invitation = table.last(BOB, "invitation")
    envelope = server.dispatcher().envelope_sender(invitation)
    report = (
        "From: MAILER-DAEMON@players.test\r\nTo: " + envelope + "\r\nSubject: Undelivered Mail\r\n"
        "Message-ID: <bounce1@players.test>\r\nMIME-Version: 1.0\r\n"
        'Content-Type: multipart/report; report-type=delivery-status; boundary="b"\r\n\r\n'
        "--b\r\nContent-Type: text/plain\r\n\r\nbob@players.test: user unknown\r\n--b--\r\n"
    ).encode()
    before = outbox_count(server)
    outcome = table.deliver(report, envelope_to=[envelope])
    assert outcome == "ignored: bounce recorded for bob@players.test"
    assert outbox_count(server) == before
    with server.db.sessions() as session:
        assert session.scalar(select(Player).where(Player.email == BOB)).bounces == 1
        assert session.get(OutboundMessage, invitation.id).status == "bounced"


def test_mailer_daemon_without_verp_is_ignored(server):
    table = Table(server)
    raw = fresh("postmaster@players.test", "referee@mirrorpost.test", "delivery failed")
    assert table.deliver(raw).startswith("ignored")
    assert outbox_count(server) == 0


def test_spoofed_sender_is_refused_with_a_clear_answer_and_touches_no_game(server):
    table = Table(server)
    game_id = table.start()
    raw = reply(table.last(ALICE, "request").raw, "R e2-e4", "gmail", "mallory@evil.test")
    assert table.deliver(raw).startswith("rejected: spoofed sender")
    assert table.game(game_id).ply == 0
    notice = table.text("mallory@evil.test")
    assert "not accepted" in notice and "e2" not in notice  # nothing about the game leaks


def test_the_opponent_cannot_use_the_other_players_reply_address(server):
    table = Table(server)
    game_id = table.start()
    raw = reply(table.last(ALICE, "request").raw, "R e2-e4", "gmail", BOB)
    assert table.deliver(raw).startswith("rejected: spoofed sender")
    assert table.game(game_id).ply == 0


def test_forged_token_never_touches_a_game(server):
    table = Table(server)
    game_id = table.start()
    raw = table.reply_bytes(ALICE, "R e2-e4", "gmail", kind="request")
    forged = raw.replace(b"referee+1w0.", b"referee+1w1.").replace(b"<1w0.", b"<1w1.")
    assert forged != raw
    assert table.deliver(forged) == "rejected: forged or damaged token"
    assert table.game(game_id).ply == 0
    assert "not one the referee gave out" in table.text(ALICE)


def test_huge_message_gets_a_clear_answer(server):
    table = Table(server)
    game_id = table.start()
    raw = table.reply_bytes(ALICE, "R e2-e4\n" + "x" * 1_200_000, "apple", kind="request")
    assert table.deliver(raw) == "rejected: too large"
    assert table.game(game_id).ply == 0
    assert "too large" in table.last(ALICE).subject


def test_error_notices_are_rate_limited_per_sender(server):
    table = Table(server)
    table.start()
    for _ in range(8):
        table.reply(ALICE, "R e2-e9 what", kind="request")
    errors = [m for m in table.mails(ALICE) if m.kind == "error"]
    assert len(errors) == server.settings.error_notices_per_hour


def test_the_same_message_twice_is_applied_once(server):
    table = Table(server)
    game_id = table.start()
    raw = table.reply_bytes(ALICE, "R e2-e4", "gmail", kind="request")
    table.deliver(raw)
    before = outbox_count(server)
    assert table.deliver(raw) == "duplicate"
    assert table.game(game_id).ply == 1 and outbox_count(server) == before


def test_challenge_by_mail_to_the_bare_address(server):
    table = Table(server)
    outcome = table.write_confirmed("carol@players.test", "challenge dave@players.test looking-glass days=5 strikes=2")
    assert outcome.startswith("done: confirmed: challenge: game")
    invitation = table.text("dave@players.test", "invitation")
    assert "carol@players.test" in invitation and "5 days a move" in invitation and "strikes=2" in invitation
    table.reply("dave@players.test", "decline", kind="invitation")
    assert "declined" in table.last("carol@players.test").subject


def test_bad_challenge_options_are_explained(server):
    table = Table(server)
    table.write_confirmed("carol@players.test", "challenge dave@players.test looking-glass strikes=lots")
    assert "strikes must be a whole number" in table.text("carol@players.test")


def test_orders_sent_to_the_bare_address_are_explained(server):
    table = Table(server)
    table.start()
    table.write(ALICE, "R e2-e4")
    assert "reply to that game's move request" in table.text(ALICE)
