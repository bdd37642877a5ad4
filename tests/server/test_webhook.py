"""``POST /inbound/raw``: raw MIME over HTTP, HMAC-signed, timestamp checked."""

import time

from sqlalchemy import text

from app import create_app
from app.inbound import receive as inbound
from app.inbound.webhook import signature
from tests.conftest import make_server
from tests.server.harness import ALICE, Table

SECRET = "webhook-secret"


def post(client, body, timestamp=None, secret=SECRET, **headers):
    timestamp = str(int(time.time()) if timestamp is None else timestamp)
    return client.post("/inbound/raw", data=body, headers={
        "X-Mirrorpost-Timestamp": timestamp,
        "X-Mirrorpost-Signature": signature(secret, timestamp, body),
        **headers,
    })


def game_with_webhook(tmp_path, database_url, style):
    """A started game with the webhook on: its server, table, id, a web client and White's reply in ``style``."""
    server = make_server(tmp_path, database_url, INBOUND_WEBHOOK_SECRET=SECRET)
    table = Table(server)
    game_id = table.start()
    body = table.reply_bytes(ALICE, "R e2-e4", style, kind="request")
    return server, table, game_id, create_app(server).test_client(), body


def test_signed_webhook_delivers_a_reply(tmp_path, database_url):
    _server, table, game_id, client, body = game_with_webhook(tmp_path, database_url, "gmail")
    response = post(client, body)
    assert response.status_code == 202 and response.json["duplicate"] is False
    assert table.game(game_id).ply == 1
    assert post(client, body).json["duplicate"] is True
    assert table.game(game_id).ply == 1


def test_webhook_refuses_bad_signatures_and_old_timestamps(tmp_path, database_url):
    server = make_server(tmp_path, database_url, INBOUND_WEBHOOK_SECRET=SECRET)
    client = create_app(server).test_client()
    body = b"From: a@b.test\r\nSubject: x\r\n\r\nhello\r\n"
    assert post(client, body, secret="wrong").status_code == 401
    assert post(client, body, timestamp=int(time.time()) - 3600).status_code == 401
    assert client.post("/inbound/raw", data=body).status_code == 401
    assert Table(server).inbound() == []


def test_webhook_is_off_without_a_secret(server):
    client = create_app(server).test_client()
    assert client.post("/inbound/raw", data=b"x").status_code == 404


def test_a_message_the_webhook_cannot_store_gets_503_and_the_retry_is_applied(tmp_path, database_url):
    server, table, game_id, client, body = game_with_webhook(tmp_path, database_url, "outlook")
    with server.db.engine.begin() as connection:
        connection.execute(text("ALTER TABLE inbound_messages RENAME TO inbound_messages_away"))
    refused = post(client, body)
    assert refused.status_code == 503 and "try again" in refused.json["error"]
    with server.db.engine.begin() as connection:
        connection.execute(text("ALTER TABLE inbound_messages_away RENAME TO inbound_messages"))
    assert post(client, body).status_code == 202
    assert table.game(game_id).ply == 1


def test_a_body_larger_than_any_door_takes_gets_413_and_is_not_stored(tmp_path, database_url, monkeypatch):
    monkeypatch.setattr(inbound, "LARGEST_MESSAGE", 50_000)
    _server, table, game_id, client, body = game_with_webhook(tmp_path, database_url, "gmail")
    before = len(table.inbound())
    huge = body.replace(b"\r\n\r\n", b"\r\nX-Padding: " + b"x" * 60_000 + b"\r\n\r\n", 1)
    assert post(client, huge).status_code == 413
    assert len(table.inbound()) == before and table.game(game_id).ply == 0
    assert post(client, body).status_code == 202  # the same reply at a size the door takes
    assert table.game(game_id).ply == 1
