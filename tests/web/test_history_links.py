"""A move request's history link: that one game's history, read only, to whoever holds it; nothing more."""

import re
from datetime import timedelta

from itsdangerous import URLSafeSerializer
from sqlalchemy import update

from app.db import utcnow
from app.games.mail.links import HISTORY_SALT, history_link
from app.games.models import Event
from tests.server.harness import ALICE, BOB, Table
from tests.web_helpers import client_for, csrf_of

CAROL, DAVE = "carol@players.test", "dave@players.test"


def started(server):
    table = Table(server)
    game_id = table.start()
    table.reply(ALICE, "R e2-e4", kind="request")
    table.reply(BOB, "M e7-e5", kind="request")
    return table, game_id


def key_path(server, game_id: int, player_id: int) -> str:
    return history_link(server.settings, game_id, player_id).replace(server.settings.base_url, "")


def test_a_history_link_shows_its_game_read_only_and_opens_no_session(server):
    table, game_id = started(server)
    other_game = table.new_game(ALICE, CAROL)  # another game of the same player
    white_id = table.game(game_id).white_id
    path = key_path(server, game_id, white_id)
    reader = client_for(server)  # whoever the mail was forwarded to
    page = reader.get(path)
    text = page.data.decode()
    assert page.status_code == 200 and "read only" in text and "Step " in text
    assert 'id="order"' not in text and "Send order" not in text and "csrf_token" not in text
    assert "Your games" not in text and "Sign out" not in text and "See the reveal" not in text
    key = path.split("key=")[1]
    steps = [link for link in re.findall(r'href="([^"]+)"', text) if "step=" in link]
    assert steps and all(f"key={key}" in link for link in steps)  # stepping keeps to the read-only view
    assert reader.get(steps[0].replace("&amp;", "&")).status_code == 200
    json = reader.get(f"/games/{game_id}.json?key={key}")
    assert json.status_code == 200 and json.json["game"]["you"] == "white"
    # Nothing else: no session, no other game, no orders, no other player's view.
    assert reader.get("/games").status_code == 302
    assert reader.get(f"/games/{game_id}").status_code == 302
    for other in (f"/games/{other_game}?key={key}", f"/games/{other_game}.json?key={key}",
                  f"/games/{other_game}", f"/games/{game_id}/reveal"):
        assert reader.get(other).status_code in (302, 404), other
    form = reader.get("/login").data
    assert reader.post(f"/games/{game_id}/order", data={"order": "R d2-d4", "csrf_token": csrf_of(form)}
                       ).status_code == 404
    assert reader.post(f"/games/{game_id}/order?key={key}", data={"order": "R d2-d4", "csrf_token": csrf_of(form)}
                       ).status_code == 404
    assert reader.post(f"/games/{game_id}/public", data={"agree": "yes", "csrf_token": csrf_of(form)}
                       ).status_code == 404
    assert table.game(game_id).ply == 2


def test_a_signed_in_player_opening_someone_elses_history_link_sees_that_view_read_only(server):
    """Forwarded to another player of the site: the link shows its own player's view, and the reader's
    session gains nothing and loses nothing."""
    table, game_id = started(server)
    carol_game = table.new_game(CAROL, DAVE)
    carol = client_for(server, carol_game, table.game(carol_game).white_id)
    page = carol.get(key_path(server, game_id, table.game(game_id).white_id)).data.decode()
    assert "Alice is White" in page and "Send order" not in page
    assert carol.get(f"/games/{game_id}").status_code == 404  # her own session still does not open it
    assert carol.get("/games").status_code == 200


def test_a_key_opens_only_its_own_game_and_player(server):
    table, game_id = started(server)
    white_id = table.game(game_id).white_id
    path = key_path(server, game_id, white_id)
    assert client_for(server).get(path.replace(f"/games/{game_id}?", "/games/99?")).status_code == 404
    assert client_for(server).get(f"/games/{game_id}?key=forged").status_code == 404
    assert client_for(server).get(path[:-2] + "xx").status_code == 404  # the signature no longer fits
    carol_game = table.new_game(CAROL, DAVE)
    carols = key_path(server, carol_game, table.game(carol_game).white_id).split("key=")[1]
    assert client_for(server).get(f"/games/{game_id}?key={carols}").status_code == 404


def test_a_history_link_expires_some_days_after_its_game_ends(server):
    table, game_id = started(server)
    table.reply(ALICE, "resign", kind="request")
    path = key_path(server, game_id, table.game(game_id).white_id)
    assert client_for(server).get(path).status_code == 200  # just over: still good
    with server.db.engine.begin() as connection:
        connection.execute(update(Event).where(Event.game_id == game_id).values(
            created_at=utcnow() - timedelta(days=server.settings.history_link_days + 1)))
    page = client_for(server).get(path)
    assert page.status_code == 410 and b"expired" in page.data
    assert client_for(server).get(path.replace("?", ".json?")).status_code == 410
    assert table.mails(BOB)  # the game itself is untouched


def test_a_key_of_the_old_kind_without_its_time_no_longer_opens_anything(server):
    table, game_id = started(server)
    old = URLSafeSerializer(server.settings.secret_key, salt=HISTORY_SALT).dumps(
        [game_id, table.game(game_id).white_id])
    page = client_for(server).get(f"/games/{game_id}?key={old}")
    assert page.status_code == 410 and b"newest move request" in page.data


def test_every_move_request_carries_a_history_link_that_opens_read_only(server):
    table, _game_id = started(server)
    text = table.text(ALICE, "request")
    path = re.search(r"(/games/\d+\?key=\S+)", text).group(1).rstrip(".")
    page = client_for(server).get(path)
    assert page.status_code == 200 and b"read only" in page.data
