"""Sessions end on the server when their player signs out; history links need a button and expire with the game."""

from datetime import timedelta

from sqlalchemy import update

from app.db import utcnow
from app.games.links import history_link
from app.games.models import Event
from tests.server.harness import ALICE, BOB, Table
from tests.web_helpers import client_for, csrf_of


def started(server):
    table = Table(server)
    game_id = table.start()
    return table, game_id, table.game(game_id).white_id


def test_a_session_cookie_kept_after_logout_no_longer_signs_in(server):
    _table, game_id, white_id = started(server)
    client = client_for(server, game_id, white_id)
    assert client.get("/games").status_code == 200
    kept = client.get_cookie("session").value  # a copy, as someone who saw it might keep one
    page = client.get("/games").data
    assert client.post("/logout", data={"csrf_token": csrf_of(page)}).status_code == 302
    assert client.get("/games").status_code == 302
    thief = client_for(server)
    thief.set_cookie("session", kept)
    assert thief.get("/games").status_code == 302  # redirected to sign in
    assert thief.get(f"/games/{game_id}.json").status_code == 404
    other = client_for(server, game_id, white_id)  # another session of the same player is untouched by it
    assert other.get("/games").status_code == 200


def test_a_history_link_opens_a_page_whose_button_signs_in_and_a_get_alone_does_not(server):
    _table, game_id, white_id = started(server)
    client = client_for(server)
    url = history_link(server.settings, game_id, white_id).replace(server.settings.base_url, "")
    page = client.get(url)
    assert page.status_code == 200 and b"Open my history" in page.data
    assert client.get("/games").status_code == 302  # the GET signed nobody in
    assert client.post(f"/games/{game_id}/open", data={"key": url.split("key=")[1]}).status_code == 400  # CSRF
    assert client.post(f"/games/{game_id}/open", data={"key": url.split("key=")[1],
                                                       "csrf_token": csrf_of(page.data)}).status_code == 302
    assert client.get(f"/games/{game_id}").status_code == 200


def test_a_history_link_expires_some_days_after_its_game_ends(server):
    table, game_id, white_id = started(server)
    table.reply(ALICE, "resign", kind="request")
    url = history_link(server.settings, game_id, white_id).replace(server.settings.base_url, "")
    assert client_for(server).get(url).status_code == 200  # just over: still good
    with server.db.engine.begin() as connection:
        connection.execute(update(Event).where(Event.game_id == game_id).values(
            created_at=utcnow() - timedelta(days=server.settings.history_link_days + 1)))
    client = client_for(server)
    page = client.get(url)
    assert page.status_code == 410 and b"expired" in page.data
    key = url.split("key=")[1]
    csrf = csrf_of(client.get("/login").data)
    assert client.post(f"/games/{game_id}/open", data={"key": key, "csrf_token": csrf}).status_code == 410
    assert client.get("/games").status_code == 302
    assert table.mails(BOB)  # the game itself is untouched
