"""Sessions end on the server when their player signs out; signing out everywhere voids every earlier key."""

from datetime import timedelta

from sqlalchemy import update

from app.db import utcnow
from app.games.access import sign_out_everywhere
from app.games.mail.links import history_link
from app.web.models import LoginToken
from tests.server.harness import Table
from tests.web_helpers import client_for, csrf_of, sign_in_path


def started(server):
    table = Table(server)
    game_id = table.start()
    return table, game_id, table.game(game_id).white_id


def path_of(server, url: str) -> str:
    return url.replace(server.settings.base_url, "")


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


def test_sign_out_everywhere_on_the_web_voids_every_earlier_session_and_link_of_that_player_only(server):
    table, game_id, white_id = started(server)
    black_id = table.game(game_id).black_id
    phone, laptop = client_for(server, game_id, white_id), client_for(server, game_id, white_id)
    opponent = client_for(server, game_id, black_id)
    old_history = path_of(server, history_link(server.settings, game_id, white_id))
    old_sign_in = sign_in_path(server, white_id)  # mailed, not yet used
    opponents_history = path_of(server, history_link(server.settings, game_id, black_id))
    page = laptop.get("/games").data
    assert b"Sign out everywhere</button>" in page
    response = laptop.post("/logout/everywhere", data={"csrf_token": csrf_of(page)}, follow_redirects=True)
    assert b"Signed out everywhere" in response.data
    for client in (phone, laptop):
        assert client.get("/games").status_code == 302
        assert client.get(f"/games/{game_id}.json").status_code == 404
    stranger = client_for(server)
    assert stranger.get(old_history).status_code == 410
    assert stranger.get(old_sign_in).status_code == 400
    assert opponent.get("/games").status_code == 200  # the opponent's session and link are untouched
    assert stranger.get(opponents_history).status_code == 200
    # What is issued afterwards works: the next move request's link, a new sign-in.
    assert stranger.get(path_of(server, history_link(server.settings, game_id, white_id))).status_code == 200
    assert client_for(server, game_id, white_id).get("/games").status_code == 200


def test_the_mail_commands_function_signs_out_everywhere_as_the_button_does(server):
    """``app.games.access.sign_out_everywhere`` is what a command by mail calls: the same effect."""
    _table, game_id, white_id = started(server)
    signed_in = client_for(server, game_id, white_id)
    old_history = path_of(server, history_link(server.settings, game_id, white_id))
    old_sign_in = sign_in_path(server, white_id)
    with server.db.engine.begin() as connection:
        sign_out_everywhere(connection, white_id)
    assert signed_in.get("/games").status_code == 302
    assert client_for(server).get(old_history).status_code == 410
    assert client_for(server).get(old_sign_in).status_code == 400
    assert client_for(server, game_id, white_id).get("/games").status_code == 200


def test_a_sign_in_link_voided_between_its_page_and_its_button_signs_nobody_in(server):
    _table, _game_id, white_id = started(server)
    client = client_for(server)
    path = sign_in_path(server, white_id)
    page = client.get(path)
    with server.db.engine.begin() as connection:
        sign_out_everywhere(connection, white_id)
    assert client.post(path, data={"csrf_token": csrf_of(page.data)}).status_code == 400
    assert client.get("/games").status_code == 302


def test_sessions_expire_after_thirty_days(server):
    _table, game_id, white_id = started(server)
    client = client_for(server, game_id, white_id)
    from app.web.models import WebSession

    with server.db.engine.begin() as connection:
        connection.execute(update(WebSession).values(created_at=utcnow() - timedelta(days=31)))
    assert client.get("/games").status_code == 302


def test_a_sign_in_link_of_an_address_that_does_not_play_here_signs_nobody_in(server):
    """A row for an unknown address (every request makes one) names no player: its link, could anyone make
    it, would open nothing."""
    started(server)
    with server.db.transaction() as session:
        session.add(LoginToken(nonce="n" * 32, email="stranger@players.test", player_id=None, client="x"))
    from app.web.signin_links import link_serializer

    path = "/login/" + link_serializer(server.settings.secret_key).dumps("n" * 32)
    assert client_for(server).get(path).status_code == 400
