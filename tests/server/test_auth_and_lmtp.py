"""Optional SPF/DKIM requirement, the LMTP listener, and forfeit-mode mails."""

import smtplib

import pytest
from sqlalchemy import text

from app.inbound import receive as inbound
from app.inbound.clients import fresh, reply
from app.inbound.listener import start_listener
from tests.conftest import make_server
from tests.server.harness import ALICE, BOB, Table
from tests.server.mailhost import free_port, wait_until


def with_results(raw: bytes, value: str) -> bytes:
    return b"Authentication-Results: " + value.encode() + b"\r\n" + raw


def test_required_authentication_results_must_come_from_our_border_and_pass(tmp_path, database_url):
    server = make_server(tmp_path, database_url, REQUIRE_AUTH_RESULTS="1", AUTHSERV_ID="mx.mirrorpost.test")
    table = Table(server)
    game_id = table.new_game()
    invitation = table.last(ALICE, "invitation").raw
    plain = reply(invitation, "accept", "gmail", ALICE)
    assert table.deliver(plain) == "rejected: not verified: no Authentication-Results from our mail server"
    forged = with_results(reply(invitation, "accept", "gmail", ALICE), "mx.evil.test; spf=pass")
    assert table.deliver(forged) == "rejected: not verified: no Authentication-Results from our mail server"
    failed = with_results(reply(invitation, "accept", "gmail", ALICE), "mx.mirrorpost.test; spf=fail; dkim=none")
    assert table.deliver(failed) == "rejected: not verified: no DMARC, SPF or DKIM pass for players.test"
    assert not table.game(game_id).white_accepted
    good = with_results(reply(invitation, "accept", "gmail", ALICE),
                        "mx.mirrorpost.test; spf=pass smtp.mailfrom=alice@players.test")
    assert table.deliver(good).startswith("done")
    assert table.game(game_id).white_accepted


def test_our_border_header_decides_even_when_unreadable_and_a_lower_one_is_never_read_instead(tmp_path,
                                                                                                database_url):
    """The border MTA's own header is on top; a sender's forged one below it, with our id, must never be read in
    its place, even when the border wrote its results in a way the parser refuses (an unquoted ';' below)."""
    server = make_server(tmp_path, database_url, REQUIRE_AUTH_RESULTS="1", AUTHSERV_ID="mx.mirrorpost.test")
    table = Table(server)
    game_id = table.new_game()
    invitation = table.last(ALICE, "invitation").raw
    forged = with_results(reply(invitation, "accept", "gmail", ALICE),
                          "mx.mirrorpost.test; dmarc=pass header.from=players.test")
    unreadable = with_results(forged, "mx.mirrorpost.test (border 1); spf=fail smtp.mailfrom=a;b@evil.test; "
                                      "dmarc=fail header.from=players.test")
    assert table.deliver(unreadable) == ("rejected: not verified: our mail server's Authentication-Results could "
                                         "not be read")
    assert not table.game(game_id).white_accepted


def test_lmtp_listener_stores_and_processes(tmp_path, database_url):
    port = free_port()
    server = make_server(tmp_path, database_url, INBOUND_PROTOCOL="lmtp", INBOUND_SMTP_PORT=str(port))
    table = Table(server)
    game_id = table.new_game()
    listener = start_listener(server)
    try:
        client = smtplib.LMTP("127.0.0.1", port)
        raw = table.reply_bytes(ALICE, "accept", "apple", kind="invitation")
        client.sendmail(ALICE, [str(table.last(ALICE).recipient).replace(ALICE, "referee@mirrorpost.test")], raw)
        client.quit()
        wait_until(lambda: table.game(game_id).white_accepted, what="the LMTP delivery to be applied")
    finally:
        listener.stop()


def test_lmtp_hands_over_no_sending_host_so_spf_is_never_checked_for_the_operators_own_mail_server(tmp_path,
                                                                                                     database_url):
    """LMTP is spoken by the operator's mail server delivering what it received: SPF checked for it would prove
    anyone whose domain names that server (its ``mx``). Only the SMTP listener sees the sending host."""
    port = free_port()
    server = make_server(tmp_path, database_url, INBOUND_PROTOCOL="lmtp", INBOUND_SMTP_PORT=str(port),
                         DNS_NAMESERVERS="127.0.0.1:9")  # nothing answers there: no look-up leaves the machine
    listener = start_listener(server)
    try:
        client = smtplib.LMTP("127.0.0.1", port, source_address=("127.0.0.2", 0))
        client.sendmail(ALICE, ["referee@mirrorpost.test"], fresh(ALICE, "referee@mirrorpost.test", "help\n"))
        client.quit()

        def read(query: str):
            with server.db.engine.connect() as connection:
                return connection.execute(text(query)).one()

        wait_until(lambda: read("SELECT count(*) FROM inbound_messages WHERE status != 'new'")[0] == 1,
                   what="the LMTP delivery to be processed")
        peer, results = read("SELECT peer_address, authentication FROM inbound_messages")
        assert peer is None
        assert "spf=" not in results and "dkim=" not in results, results
    finally:
        listener.stop()


def test_listener_refuses_to_relay_for_other_domains(tmp_path, database_url):
    port = free_port()
    server = make_server(tmp_path, database_url, INBOUND_SMTP_PORT=str(port))
    listener = start_listener(server)
    try:
        with smtplib.SMTP("127.0.0.1", port) as client:
            refused = client.sendmail("a@players.test", ["someone@elsewhere.test", "referee@mirrorpost.test"],
                                      b"Subject: x\r\n\r\nhi\r\n")
        assert list(refused) == ["someone@elsewhere.test"]
    finally:
        listener.stop()


def test_listener_refuses_a_message_larger_than_any_door_takes(tmp_path, database_url, monkeypatch):
    """The limit is advertised (SIZE), and a larger message is refused with 552 before anything is stored."""
    monkeypatch.setattr(inbound, "LARGEST_MESSAGE", 50_000)
    port = free_port()
    server = make_server(tmp_path, database_url, INBOUND_SMTP_PORT=str(port))
    listener = start_listener(server)
    huge = b"From: a@players.test\r\nSubject: photos\r\n\r\n" + (b"x" * 76 + b"\r\n") * 1000
    try:
        with smtplib.SMTP("127.0.0.1", port) as client:
            client.ehlo()
            assert client.has_extn("size") and int(client.esmtp_features["size"]) == 50_000
            code, _ = client.docmd("MAIL FROM:<a@players.test>")  # no SIZE given: refused when the data exceeds it
            assert code == 250
            assert client.rcpt("referee@mirrorpost.test")[0] == 250
            code, message = client.data(huge)
            assert code == 552, message
    finally:
        listener.stop()
    assert Table(server).inbound() == []


def test_forfeit_mode_mails_the_opponent_to_order_for_the_army(server):
    table = Table(server)
    game_id = table.start(impossible="forfeit")
    table.reply(ALICE, "M d4-d5", kind="request")
    assert "your opponent orders for you" in table.last(ALICE).subject
    assert "you order for their army" in table.last(BOB).subject
    assert "you now order one move for Alice's army" in table.text(BOB)
    table.reply(BOB, "M e2-e4", kind="request")  # White's pawns are not in Black's world: rejected
    assert table.game(game_id).ply == 0
    table.reply(BOB, "R a2-a3", kind="request")  # ordered blind in White's world: White's move
    assert table.game(game_id).ply == 1
    assert "Proxy order for your army" in table.text(ALICE, "proxy-move")
    assert "your move (Black)" in table.last(BOB).subject


def test_a_message_the_listener_cannot_store_is_refused_for_now_and_the_retry_is_applied(tmp_path, database_url):
    """Not stored is not accepted: 451, which every mail server retries (a 5xx would bounce the move)."""
    port = free_port()
    server = make_server(tmp_path, database_url, INBOUND_SMTP_PORT=str(port))
    table = Table(server)
    game_id = table.new_game()
    raw = table.reply_bytes(ALICE, "accept", "thunderbird", kind="invitation")
    with server.db.engine.begin() as connection:  # the database cannot store mail for a while
        connection.execute(text("ALTER TABLE inbound_messages RENAME TO inbound_messages_away"))
    listener = start_listener(server)
    try:
        with smtplib.SMTP("127.0.0.1", port) as client, pytest.raises(smtplib.SMTPDataError) as refused:
            client.sendmail(ALICE, ["referee@mirrorpost.test"], raw)
        assert refused.value.smtp_code == 451
        with server.db.engine.begin() as connection:
            connection.execute(text("ALTER TABLE inbound_messages_away RENAME TO inbound_messages"))
        with smtplib.SMTP("127.0.0.1", port) as client:  # the sending server's retry
            client.sendmail(ALICE, ["referee@mirrorpost.test"], raw)
        wait_until(lambda: table.game(game_id).white_accepted, what="the retried delivery to be applied")
    finally:
        listener.stop()
