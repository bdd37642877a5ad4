"""The web pages: sign-in, authorisation, CSRF, links, rate limits, history, JSON, orders, reveal."""

import itsdangerous.timed

from app.web.signin_links import wait_for_link_mail
from tests.conftest import make_server
from tests.server.harness import ALICE, BOB, Table
from tests.web_helpers import client_for, csrf_of, login_link


def ids(server):
    table = Table(server)
    game_id = table.start()
    game = table.game(game_id)
    return table, game_id, game.white_id, game.black_id


def request_link(client, address, forwarded_for=None):
    headers = {"X-Forwarded-For": forwarded_for} if forwarded_for else {}
    page = client.get("/login", headers=headers).data
    return client.post("/login", data={"email": address, "csrf_token": csrf_of(page)}, headers=headers)


def test_sign_in_through_a_mailed_single_use_link(server):
    table, game_id, _, _ = ids(server)
    client = client_for(server)
    assert client.get("/games").status_code == 302
    response = request_link(client, ALICE)
    assert response.status_code == 200 and b"a sign-in link is on its way" in response.data
    link = login_link(table, ALICE)
    button = client.get(link)
    assert button.status_code == 200 and b"Sign in</button>" in button.data
    assert client.get("/games").status_code == 302  # the GET signed nobody in
    assert client.post(link, data={"csrf_token": csrf_of(button.data)}).status_code == 302
    page = client.get("/games").data
    assert f"Game {game_id}".encode() in page and b"your move" in page
    other = client_for(server)
    assert other.get(link).status_code == 400  # used once already


def test_unknown_address_gets_the_same_answer_and_no_mail(server):
    table, *_ = ids(server)
    client = client_for(server)
    response = request_link(client, "stranger@players.test")
    assert response.status_code == 200 and b"a sign-in link is on its way" in response.data
    wait_for_link_mail()
    assert table.mails("stranger@players.test") == []


def test_expired_link_is_refused(server, monkeypatch):
    table, *_ = ids(server)
    client = client_for(server)
    real = itsdangerous.timed.time.time
    monkeypatch.setattr(itsdangerous.timed.time, "time", lambda: real() - 3600)
    request_link(client, ALICE)
    wait_for_link_mail()  # the link is signed when its mail is made
    monkeypatch.undo()
    assert client.get(login_link(table, ALICE)).status_code == 400
    assert client.get("/games").status_code == 302


def test_behind_a_trusted_proxy_each_client_is_limited_by_its_own_address(tmp_path, database_url):
    """With TRUSTED_PROXIES=1 the per-client limit goes by the address the proxy saw (X-Forwarded-For), not
    the proxy's own; without it that header is the client's to forge, and is not read."""
    for proxies, separate in (("1", True), ("0", False)):
        server = make_server(tmp_path / proxies, database_url, TRUSTED_PROXIES=proxies)
        ids(server)
        client = client_for(server)
        for n in range(10):
            assert request_link(client, f"p{n}@players.test", "203.0.113.5").status_code == 200
        assert request_link(client, "p10@players.test", "203.0.113.5").status_code == 429
        other = request_link(client, "p11@players.test", "198.51.100.7").status_code
        assert other == (200 if separate else 429)
        server.db.engine.dispose()


def test_tampered_link_is_not_found(server):
    ids(server)
    assert client_for(server).get("/login/not-a-real-token").status_code == 404


def test_link_requests_are_rate_limited_per_address_and_client_and_per_client(server):
    table, *_ = ids(server)
    client = client_for(server)
    statuses = [request_link(client, ALICE).status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    wait_for_link_mail()
    assert len(table.mails(ALICE, "login")) == 3
    other = client_for(server)
    statuses = [request_link(other, f"p{n}@players.test").status_code for n in range(8)]
    assert statuses[-1] == 429  # the same client (address 127.0.0.1) has asked 11 times this hour


def test_forms_need_a_csrf_token(server):
    _, game_id, white_id, _ = ids(server)
    client = client_for(server, game_id, white_id)
    assert client.post("/login", data={"email": ALICE}).status_code == 400
    assert client.post(f"/games/{game_id}/order", data={"order": "R e2-e4"}).status_code == 400
    assert Table(server).game(game_id).ply == 0


def test_another_players_history_is_not_found_whatever_the_id(server):
    table, game_id, white_id, _ = ids(server)
    carol_game = table.new_game("carol@players.test", "dave@players.test")
    client = client_for(server, game_id, white_id)
    assert client.get(f"/games/{game_id}").status_code == 200
    for path in (f"/games/{carol_game}", f"/games/{carol_game}.json", "/games/9999", "/games/9999.json",
                 f"/games/{carol_game}/reveal", f"/games/{game_id}/reveal"):
        assert client.get(path).status_code == 404, path


def test_history_link_for_another_game_is_refused(server):
    _table, game_id, white_id, _ = ids(server)
    from app.games.mail.links import history_link

    url = history_link(server.settings, game_id, white_id).replace(server.settings.base_url, "")
    other = url.replace(f"/games/{game_id}?", "/games/99?")
    assert client_for(server).get(other).status_code == 404
    assert client_for(server).get(f"/games/{game_id}?key=forged").status_code == 404


def test_history_steps_are_addressable_and_show_only_what_was_told(server):
    table, game_id, white_id, black_id = ids(server)
    table.reply(ALICE, "R e2-e4", kind="request")
    table.reply(BOB, "M e7-e8", kind="request")  # Black's rejected order: White must not learn of it
    table.reply(BOB, "M e7-e5", kind="request")
    white = client_for(server, game_id, white_id)
    data = white.get(f"/games/{game_id}.json").json
    assert data["game"]["you"] == "white"
    assert [event["result"] for event in data["events"] if event["by"] == "white"][-1] == "moved"
    assert all("e7-e8" not in str(event) for event in data["events"])
    last = data["events"][-1]
    assert last["by"] is None and last["order"] is None and last["to"][0]["kind"] == "landed"
    assert set(last["view"]) == {"home", "notebook", "unknown", "marks", "tray"}
    steps = len(data["events"])
    page = white.get(f"/games/{game_id}?step=1").data
    assert f"Step 1 of {steps}".encode() in page
    assert white.get(f"/games/{game_id}?step={steps + 1}").status_code == 404
    black = client_for(server, game_id, black_id)
    black_events = black.get(f"/games/{game_id}.json").json["events"]
    assert any(event["order"] == "M e7-e8" for event in black_events)  # Black sees their own rejection


def test_order_from_the_page_goes_through_the_mail_path(server):
    table, game_id, white_id, _ = ids(server)
    client = client_for(server, game_id, white_id)
    page = client.get(f"/games/{game_id}").data
    response = client.post(f"/games/{game_id}/order", data={"order": "R e2-e4", "csrf_token": csrf_of(page)},
                           follow_redirects=True)
    assert b"R e2-e4: moved" in response.data
    assert table.game(game_id).ply == 1
    assert "your move (Black)" in table.last(BOB).subject  # the same notices by mail
    page = client.get(f"/games/{game_id}").data
    response = client.post(f"/games/{game_id}/order", data={"order": "R d2-d4", "csrf_token": csrf_of(page)},
                           follow_redirects=True)
    assert b"not your turn" in table.text(ALICE).encode()
    response = client.post(f"/games/{game_id}/order", data={"order": "R d2-d9", "csrf_token": csrf_of(page)},
                           follow_redirects=True)
    assert b"Not carried out" in response.data and table.game(game_id).ply == 1


def test_reveal_after_the_end_for_both_and_for_anyone_once_both_agree(server):
    table, game_id, white_id, black_id = ids(server)
    table.reply(ALICE, "R e2-e4", kind="request")
    table.reply(BOB, "resign", kind="request")
    white = client_for(server, game_id, white_id)
    page = white.get(f"/games/{game_id}/reveal").data
    assert b"the reveal" in page and b"Black was told" in page
    stranger = client_for(server)
    assert stranger.get(f"/games/{game_id}/reveal").status_code == 302  # to sign in, as for every private page
    carol_game = table.new_game("carol@players.test", "dave@players.test")
    carol = client_for(server, carol_game, table.game(carol_game).white_id)  # signed in, not a player of it
    assert carol.get(f"/games/{game_id}/reveal").status_code == 404
    white.post(f"/games/{game_id}/public", data={"agree": "yes", "csrf_token": csrf_of(page)})
    assert stranger.get(f"/games/{game_id}/reveal").status_code == 302  # one agreement is not enough
    assert carol.get(f"/games/{game_id}/reveal").status_code == 404
    black = client_for(server, game_id, black_id)
    page = black.get(f"/games/{game_id}/reveal").data
    black.post(f"/games/{game_id}/public", data={"agree": "yes", "csrf_token": csrf_of(page)})
    assert stranger.get(f"/games/{game_id}/reveal").status_code == 200
    assert stranger.get(f"/games/{game_id}").status_code == 302  # the private history stays private


def test_session_cookie_is_http_only_and_lax(server):
    ids(server)
    response = client_for(server).get("/login")  # the CSRF token is kept in the session cookie
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_every_variant_has_a_how_to_play_page_open_to_anyone(server):
    from app.rules.registry import VARIANTS

    client = client_for(server)
    index = client.get("/rules").data.decode()
    for name, variant in VARIANTS.items():
        assert f'href="/rules/{name}"' in index
        page = client.get(f"/rules/{name}")
        assert page.status_code == 200 and f"<h1>{variant.title}</h1>" in page.data.decode()
    assert "blocked for good" in client.get("/rules/palindromic").data.decode()  # said plainly (PAL-5)
    assert client.get("/rules/nonsense").status_code == 404
