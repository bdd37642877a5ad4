"""The club's public pages: the home page says what Mirrorpost is and how to start, with the open seeks; a
player's page shows their name, ratings with their history drawn and finished games, never an address; a
private page is answered as an unknown id is, except to its own player; ``profile private`` by mail hides it."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select, update

from app.club.models import Rating, RatingChange
from app.db import utcnow
from app.games.models import Game, Player
from app.rules.registry import VARIANTS
from app.service import Service
from app.tokens import ReplyToken
from tests.server.harness import Table, statements_seen
from tests.web.test_browser import site  # noqa: F401 (the live server fixture)
from tests.web_helpers import client_for, csrf_of, sign_in_path

ALICE, BOB = "alice@players.test", "bob@players.test"
ARTEFACTS = Path(__file__).parent.parent.parent / "test-artefacts" / "web"
OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


def finished_rated_games(server, count: int = 3) -> tuple[int, int, list[int]]:
    """Alice (White) against Bob, ``count`` Side View games she won by resignation; the rating history written
    as those games' ends would have written it. Returns their ids and the games'."""
    with server.db.engine.begin() as connection:
        service = Service(connection, server.settings, server.signer)
        alice, bob = service.player(ALICE, "Alice Liddell"), service.player(BOB, "Bob")
        alice.name = "Alice Liddell"
        ids = []
        for _ in range(count):
            game = service.create_game("side-view", alice, bob, {}, None, rated=True)
            for side in ("white", "black"):
                service.invitations.answer(game, side, "accept")
            ids.append(game.id)
        service.flush()
        alice_id, bob_id = alice.id, bob.id
    with server.db.transaction() as session:
        session.execute(update(Game).where(Game.id.in_(ids)).values(status="over", result="1-0", reason="resigned"))
        session.execute(update(Game).where(Game.id == ids[0]).values(public_white=True, public_black=True))
        rating = 1500.0
        for number, game_id in enumerate(ids):
            before, rating = rating, rating + 60 - number * 10
            session.add(RatingChange(player_id=alice_id, variant="side-view", game_id=game_id, before=before,
                                     rating=rating, deviation=300 - number * 40,
                                     created_at=utcnow() - timedelta(days=30 - number)))
        session.add(Rating(player_id=alice_id, variant="side-view", rating=rating, deviation=220, volatility=0.06,
                           games=count))
    return alice_id, bob_id, ids


def test_the_home_page_says_what_mirrorpost_is_and_how_to_start_with_the_open_seeks(server):
    with server.db.engine.begin() as connection:
        service = Service(connection, server.settings, server.signer)
        number = service.seeks.post(service.player(ALICE), "palindromic")
    page = client_for(server).get("/")
    assert page.status_code == 200
    body = page.data.decode()
    assert "Mirrorpost referees chess variants" in body and server.settings.server_email in body
    assert "challenge friend@example.org" in body and "<code>seek " in body
    for name, variant in VARIANTS.items():
        assert f'href="/rules/{name}"' in body and variant.title in body
    assert f"<td>{number}</td>" in body and "Palindromic Chess" in body
    assert "alice@" not in body and "Player 1 (1500?)" in body and 'href="/login"' in body


def test_a_players_page_shows_ratings_drawn_and_finished_games_never_an_address(server):
    alice, bob, games = finished_rated_games(server)
    page = client_for(server).get(f"/players/{alice}")
    assert page.status_code == 200
    body = page.data.decode()
    assert "<h1>Alice Liddell</h1>" in body and "Side View Chess</a>: 1650?" in body and "3 rated games" in body
    assert body.count("<polyline") == 1 and "rating in Side View Chess over 3 rated games" in body
    assert f'href="/games/{games[0]}/reveal"' in body  # public: both agreed
    assert f'href="/games/{games[1]}/reveal"' not in body and f"Game {games[1]}" in body
    assert "won as White" in body and f'href="/players/{bob}"' in body
    assert "@" not in body.replace("@media", "")
    bobs = client_for(server).get(f"/players/{bob}").data.decode()
    assert "lost as Black" in bobs and "No rated games yet" in bobs and "bob@" not in bobs


def test_a_private_page_is_answered_as_an_unknown_id_is_except_to_its_own_player(server):
    alice, bob, _games = finished_rated_games(server)
    with server.db.transaction() as session:
        session.execute(update(Player).where(Player.id == alice).values(profile_public=False))
    stranger = client_for(server)
    hidden, unknown = stranger.get(f"/players/{alice}"), stranger.get("/players/999999")
    assert hidden.status_code == unknown.status_code == 404 and hidden.data == unknown.data
    assert client_for(server, None, bob).get(f"/players/{alice}").status_code == 404
    assert f'href="/players/{alice}"' not in client_for(server).get(f"/players/{bob}").data.decode()
    own = client_for(server, None, alice).get(f"/players/{alice}")
    assert own.status_code == 200 and b"Your page is private" in own.data


def test_the_preferences_page_hides_and_shows_the_players_page(server):
    alice, _bob, _games = finished_rated_games(server)
    client = client_for(server, None, alice)
    token = csrf_of(client.get("/preferences").data)
    done = client.post("/preferences", data={"csrf_token": token, "digest": "each", "profile": "private"},
                       follow_redirects=True)
    assert b"Your page is private" in done.data
    assert client_for(server).get(f"/players/{alice}").status_code == 404
    client.post("/preferences", data={"csrf_token": token, "digest": "each", "profile": "public"})
    assert client_for(server).get(f"/players/{alice}").status_code == 200


@pytest.mark.browser
def test_the_home_and_player_pages_fit_a_phone_and_a_desk(browser, site):  # noqa: F811
    server, base = site
    alice, _bob, _games = finished_rated_games(server)
    with server.db.engine.begin() as connection:
        service = Service(connection, server.settings, server.signer)
        service.seeks.post(service.player(BOB), "kriegspiel days=5")
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    for width, suffix in ((1100, ""), (390, "-phone")):
        page = browser.new_page(viewport={"width": width, "height": 900})
        for path, name in (("/", "home"), (f"/players/{alice}", "player")):
            page.goto(base + path)
            assert page.evaluate(OVERFLOW) <= 0, (path, width)
            page.screenshot(path=str(ARTEFACTS / f"{name}{suffix}.png"), full_page=True)
        page.goto(base + sign_in_path(server, alice))
        page.click("button:has-text('Sign in')")
        page.goto(base + "/")
        assert page.locator("text=your page").count() == 1
        page.close()


def test_an_id_past_the_databases_integers_is_not_found_like_any_other(server):
    """Ids are 32-bit in the database: a larger one in an address is answered 404, never a database error."""
    client = client_for(server)
    for path in ("/players/99999999999", "/games/99999999999", "/games/99999999999/reveal",
                 "/games/99999999999.json"):
        assert client.get(path).status_code == 404, path


def test_one_rated_game_is_one_and_a_rated_game_too_short_to_count_says_so(server):
    alice, _bob, _games = finished_rated_games(server, 1)
    body = client_for(server).get(f"/players/{alice}").data.decode()
    assert "rating in Side View Chess over 1 rated game\"" in body and re.search(r"\b1 rated game[;.]", body)
    with server.db.engine.begin() as connection:
        service = Service(connection, server.settings, server.signer)
        short = service.create_game("side-view", service.player(ALICE), service.player(BOB), {}, None, rated=True)
        for side in ("white", "black"):
            service.invitations.answer(short, side, "accept")
        service.flush()
    with server.db.engine.begin() as connection:
        service = Service(connection, server.settings, server.signer)
        game = service.lock(short.id)
        service.submit_text(game, game.white, "resign", ReplyToken(game.id, "white", game.ply))
    body = " ".join(client_for(server).get(f"/players/{alice}").data.decode().split())
    assert "<td>Side View Chess, rated, but too short to count</td>" in body
    assert body.count("<td>Side View Chess, rated</td>") == 1


def test_only_a_player_in_the_club_or_who_chose_profile_public_has_a_page(server):
    """Mail to the referee, an unrated challenge played to its end: no page, answered as an unknown id is; a seek
    posted or joined, a rated game, or ``profile public`` give one; ``profile private`` hides it again."""
    table = Table(server, "side-view")
    table.write("stranger@players.test", "help")  # every address that ever mailed the referee is a player
    challenge = table.start()  # Alice and Bob, unrated
    table.reply(ALICE, "resign", kind="request")
    assert table.game(challenge).status == "over"
    with server.db.sessions() as session:
        ids = {player.email: player.id for player in session.scalars(select(Player))}
    stranger = client_for(server)
    unknown = stranger.get("/players/999999")
    for address in ("stranger@players.test", ALICE, BOB):
        page = stranger.get(f"/players/{ids[address]}")
        assert page.status_code == 404 and page.data == unknown.data, address
    assert client_for(server, None, ids[BOB]).get(f"/players/{ids[ALICE]}").status_code == 404
    own = client_for(server, None, ids[ALICE]).get(f"/players/{ids[ALICE]}")
    assert own.status_code == 200 and b"Only you see this page" in own.data

    with server.db.engine.begin() as connection:
        service = Service(connection, server.settings, server.signer)
        number = service.seeks.post(service.player(ALICE), "kriegspiel")  # Alice is in the club
        service.preferences.set_profile(service.player("stranger@players.test"), True)  # a choice of their own
    assert stranger.get(f"/players/{ids[ALICE]}").status_code == 200
    assert stranger.get(f"/players/{ids['stranger@players.test']}").status_code == 200
    alices = stranger.get(f"/players/{ids[ALICE]}").data.decode()
    assert f"Game {challenge}" in alices and f'href="/players/{ids[BOB]}"' not in alices  # Bob has no page
    assert stranger.get(f"/players/{ids[BOB]}").status_code == 404
    with server.db.engine.begin() as connection:
        service = Service(connection, server.settings, server.signer)
        service.seeks.join(service.player(BOB), number)  # Bob joins: he is in the club
    assert stranger.get(f"/players/{ids[BOB]}").status_code == 200
    with server.db.engine.begin() as connection:
        service = Service(connection, server.settings, server.signer)
        service.preferences.set_profile(service.player(BOB), False)
    assert stranger.get(f"/players/{ids[BOB]}").status_code == 404


def test_the_preferences_page_offers_the_page_once_in_the_club_now_or_never(server):
    table = Table(server)
    table.write(ALICE, "help")
    with server.db.sessions() as session:
        alice = session.scalar(select(Player.id).where(Player.email == ALICE))
    client = client_for(server, None, alice)
    page = client.get("/preferences").data.decode()
    assert 'value="club" checked' in page and "Not yet: only you see your page for now." in page
    token = csrf_of(page.encode())
    done = client.post("/preferences", data={"csrf_token": token, "digest": "each", "profile": "public"},
                       follow_redirects=True)
    assert b"Your page is public" in done.data and client_for(server).get(f"/players/{alice}").status_code == 200
    client.post("/preferences", data={"csrf_token": token, "digest": "each", "profile": "club"})
    assert client_for(server).get(f"/players/{alice}").status_code == 404
    assert 'value="club" checked' in client.get("/preferences").data.decode()


def test_a_hidden_page_and_an_unknown_id_are_answered_alike_by_the_same_statements(server):
    """A page not shown (a player outside the club, or one who chose ``profile private``) and an id nobody holds:
    the same status and body, from the same statements to the database, so that neither the answer nor the
    work behind it tells that the player exists."""
    table = Table(server, "side-view")
    table.write("stranger@players.test", "help")  # a player outside the club
    with server.db.engine.begin() as connection:
        service = Service(connection, server.settings, server.signer)
        service.preferences.set_profile(service.player("shy@players.test"), False)
        service.flush()
    with server.db.sessions() as session:
        ids = {player.email: player.id for player in session.scalars(select(Player))}
    client = client_for(server)
    client.get("/players/999999")  # the application's first answer warms what it caches

    def answer(player_id: int) -> tuple[int, bytes, list[str]]:
        with statements_seen(server.db.engine) as seen:
            page = client.get(f"/players/{player_id}")
        return page.status_code, page.data, seen

    unknown = answer(999999)
    assert unknown[0] == 404
    for address in ("stranger@players.test", "shy@players.test"):
        assert answer(ids[address]) == unknown, address
