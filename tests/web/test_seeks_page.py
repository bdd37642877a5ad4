"""The open seeks on the web: public to read (names and ratings, never an address), and posted, joined and
withdrawn by signed-in players through the game service, with CSRF; bad input told on the page, nothing
changed."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import func, select

from app.club.models import Seek
from app.games.models import Game
from app.service import Service
from tests.web.test_browser import site  # noqa: F401 (the live server fixture)
from tests.web_helpers import client_for, csrf_of, sign_in_path

ALICE, BOB = "alice@players.test", "bob@players.test"
ARTEFACTS = Path(__file__).parent.parent.parent / "test-artefacts" / "web"


def players(server, *addresses: str) -> list[int]:
    with server.db.engine.begin() as connection:
        service = Service(connection, server.settings, server.signer)
        ids = [service.player(address).id for address in addresses]
        service.flush()
        return ids


def post_seek(server, address: str, text: str) -> int:
    with server.db.engine.begin() as connection:
        service = Service(connection, server.settings, server.signer)
        return service.seeks.post(service.player(address), text)


def seek_rows(server) -> list[Seek]:
    with server.db.sessions() as session:
        return list(session.scalars(select(Seek).order_by(Seek.id)))


def game_count(server) -> int:
    with server.db.sessions() as session:
        return session.scalar(select(func.count()).select_from(Game))


def test_the_seeks_page_is_public_and_shows_names_and_ratings_never_an_address(server):
    number = post_seek(server, ALICE, "palindromic days=5 rating 1400-1700")
    page = client_for(server).get("/seeks")
    assert page.status_code == 200
    body = page.data.decode()
    assert f"<td>{number}</td>" in body and "Palindromic Chess" in body and "5 days a move" in body
    assert "for players rated 1400-1700" in body and "(1500?)" in body
    assert "alice" not in body.lower()  # neither the address nor its local part
    assert "Join</button>" not in body and "Sign in</a> to post a seek" in body


def test_a_signed_in_player_posts_joins_and_cancels_seeks_through_the_service(server):
    alice, bob = players(server, ALICE, BOB)
    mine = client_for(server, None, alice)
    page = mine.get("/seeks")
    token = csrf_of(page.data)
    assert mine.post("/seeks", data={"variant": "side-view", "days": "2", "rated": "1"}).status_code == 400  # no CSRF
    assert seek_rows(server) == []
    done = mine.post("/seeks", data={"csrf_token": token, "variant": "side-view", "days": "2", "rated": "1"},
                     follow_redirects=True)
    (seek,) = seek_rows(server)
    assert f"Your seek {seek.id} is open".encode() in done.data and seek.days == 2 and seek.rated
    for wrong, said in (({"variant": "dragons"}, b"there is no game by that name"),
                        ({"variant": "side-view", "rated": "1", "low": "1800", "high": "1500"}, b"low end"),
                        ({"variant": "side-view", "days": "0"}, b"is not a whole number from 1 to")):
        answer = mine.post("/seeks", data={"csrf_token": token, **wrong}, follow_redirects=True)
        assert said in answer.data, answer.data
    assert len(seek_rows(server)) == 1
    own = mine.post(f"/seeks/{seek.id}/join", data={"csrf_token": token}, follow_redirects=True)
    assert b"is your own" in own.data and game_count(server) == 0

    theirs = client_for(server, None, bob)
    listed = theirs.get("/seeks")
    assert f'action="/seeks/{seek.id}/join"'.encode() in listed.data
    joined = theirs.post(f"/seeks/{seek.id}/join", data={"csrf_token": csrf_of(listed.data)}, follow_redirects=True)
    assert b"has started" in joined.data and game_count(server) == 1
    again = theirs.post(f"/seeks/{seek.id}/join", data={"csrf_token": csrf_of(listed.data)}, follow_redirects=True)
    assert b"was taken" in again.data and game_count(server) == 1
    assert b"\xe2\x80\x9cx1\xe2\x80\x9d is not a whole number" in theirs.post(
        "/seeks/x1/join", data={"csrf_token": csrf_of(listed.data)}, follow_redirects=True).data

    second = post_seek(server, ALICE, "kriegspiel unrated")
    assert b"you have no seek" in theirs.post(f"/seeks/{second}/cancel", data={"csrf_token": csrf_of(listed.data)},
                                              follow_redirects=True).data
    cancelled = mine.post(f"/seeks/{second}/cancel", data={"csrf_token": token}, follow_redirects=True)
    assert b"is withdrawn" in cancelled.data and seek_rows(server)[-1].status == "cancelled"


def test_posting_or_joining_needs_a_session(server):
    number = post_seek(server, ALICE, "side-view")
    client = client_for(server)
    token = csrf_of(client.get("/seeks").data) if b"csrf_token" in client.get("/seeks").data else ""
    answer = client.post(f"/seeks/{number}/join", data={"csrf_token": token})
    assert answer.status_code in (302, 400) and game_count(server) == 0


@pytest.mark.browser
def test_a_seek_posted_on_the_web_is_joined_with_the_button(browser, site):  # noqa: F811
    server, base = site
    alice, bob = players(server, ALICE, BOB)
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    for width, name in ((1100, "seeks"), (390, "seeks-phone")):
        page = browser.new_page(viewport={"width": width, "height": 900})
        page.goto(base + sign_in_path(server, alice))
        page.click("button:has-text('Sign in')")
        page.goto(f"{base}/seeks")
        if width == 1100:
            page.select_option("#variant", "side-view")
            page.fill("#days", "4")
            page.click("button:has-text('Post the seek')")
            page.wait_for_selector("text=is open")
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # nothing wider than the screen
        page.screenshot(path=str(ARTEFACTS / f"{name}.png"), full_page=True)
        page.close()
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(base + sign_in_path(server, bob))
    page.click("button:has-text('Sign in')")
    page.goto(f"{base}/seeks")
    page.click("button:has-text('Join')")
    page.wait_for_selector("text=has started")
    assert game_count(server) == 1 and seek_rows(server)[0].status == "taken"
