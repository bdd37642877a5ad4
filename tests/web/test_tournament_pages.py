"""Tournaments on the web: /tournaments lists the open, running and finished ones; /tournaments/T shows the
entrants, a round robin's crosstable or a Swiss's rounds, and the standings, every game linked to its page,
never an address; signed in, a player announces, enters, withdraws and starts, with CSRF, through the service."""

from __future__ import annotations

import html
from pathlib import Path

import pytest
from sqlalchemy import select

from app.club.models import Tournament, TournamentPairing
from app.games.models import Player
from app.service import Service
from tests.server.test_tournaments import PLAYERS, announce, enter, resign
from tests.web.test_browser import site  # noqa: F401 (the live server fixture)
from tests.web_helpers import client_for, csrf_of, sign_in_path

ARTEFACTS = Path(__file__).parent.parent.parent / "test-artefacts" / "web"
OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


def player_id(server, address: str) -> int:
    with server.db.engine.begin() as connection:
        service = Service(connection, server.settings, server.signer)
        return service.player(address).id


def played_round_robin(server) -> int:
    """A round robin of four, half its games over (White won), the rest under way."""
    number = announce(server, PLAYERS[0], "side-view players=4")
    for player in PLAYERS[1:4]:
        enter(server, player, number)
    with server.db.sessions() as session:
        pairings = list(session.scalars(select(TournamentPairing).order_by(TournamentPairing.id)))
        emails = {each.id: each.email for each in session.scalars(select(Player))}
    for pairing in pairings[:3]:
        resign(server, pairing.game_id, emails[pairing.black_id])
    return number


def test_the_lists_and_a_round_robins_page_name_players_by_name_alone(server):
    open_one = announce(server, PLAYERS[5], "kriegspiel swiss players=8")
    number = played_round_robin(server)
    client = client_for(server)
    listing = client.get("/tournaments").data.decode()
    assert f'href="/tournaments/{number}"' in listing and f'href="/tournaments/{open_one}"' in listing
    assert "Open for entry" in listing and "Under way" in listing and "Sign in</a> to announce" in listing
    page = client.get(f"/tournaments/{number}").data.decode()
    assert "Crosstable" in page and "Sonneborn-Berger" in page and page.count('href="/games/') >= 6
    assert "@" not in page.replace("@media", "").replace(server.settings.server_email, "")
    assert "@" not in listing.replace("@media", "").replace(server.settings.server_email, "")
    assert client.get("/tournaments/999999").status_code == 404


def flashed(answer) -> str:
    """The page's text, its entities read, for the words flashed on it."""
    return html.unescape(answer.data.decode())


def test_a_signed_in_player_announces_enters_withdraws_and_starts_through_the_service(server):
    """A Swiss for up to 6: the organiser starts it with 4 entrants, fewer than its places (it never starts by
    itself here), after being told it cannot with 3."""
    organiser = client_for(server, None, player_id(server, PLAYERS[0]))
    token = csrf_of(organiser.get("/tournaments").data)
    done = organiser.post("/tournaments", data={"csrf_token": token, "variant": "side-view", "format": "swiss",
                                                "players": "6", "days": "5", "rated": "1"}, follow_redirects=True)
    with server.db.sessions() as session:
        number = session.scalars(select(Tournament.id)).one()
    assert f"Tournament {number} is announced, and you are its first entrant." in flashed(done)
    again = organiser.post(f"/tournaments/{number}/enter", data={"csrf_token": token}, follow_redirects=True)
    assert f"Not done: you have already entered tournament {number}." in flashed(again)
    others = [client_for(server, None, player_id(server, address)) for address in PLAYERS[1:4]]
    tokens = [csrf_of(other.get("/tournaments").data) for other in others]
    for other, other_token in zip(others[:2], tokens[:2], strict=True):
        entered = other.post(f"/tournaments/{number}/enter", data={"csrf_token": other_token},
                             follow_redirects=True)
        assert f"You have entered tournament {number}." in flashed(entered)
    refused = others[0].post(f"/tournaments/{number}/start", data={"csrf_token": tokens[0]}, follow_redirects=True)
    assert f"Not done: only the organiser of tournament {number} starts it." in flashed(refused)
    third, third_token = others[2], tokens[2]
    third.post(f"/tournaments/{number}/enter", data={"csrf_token": third_token})
    left = third.post(f"/tournaments/{number}/withdraw", data={"csrf_token": third_token}, follow_redirects=True)
    assert f"You have left Tournament {number}: Side View Chess, Swiss." in flashed(left)
    too_few = organiser.post(f"/tournaments/{number}/start", data={"csrf_token": token}, follow_redirects=True)
    assert f"Not done: tournament {number} has 3 entrant(s); it starts with at least 4." in flashed(too_few)
    third.post(f"/tournaments/{number}/enter", data={"csrf_token": third_token})
    with server.db.sessions() as session:
        tournament = session.get(Tournament, number)
        assert (tournament.status, tournament.entrants, tournament.players) == ("open", 4, 6)
    assert organiser.post(f"/tournaments/{number}/enter", data={}).status_code == 400  # no CSRF token
    started = organiser.post(f"/tournaments/{number}/start", data={"csrf_token": token}, follow_redirects=True)
    assert f"Tournament {number} has started: its games are on their way." in flashed(started)
    with server.db.sessions() as session:
        assert session.get(Tournament, number).status == "running"
        assert len(session.scalars(select(TournamentPairing).where(TournamentPairing.round == 1)).all()) == 2
    page = organiser.get(f"/tournaments/{number}").data.decode()
    assert "Round 1" in page and "Buchholz Cut-1" in page
    bad = organiser.post("/tournaments/x1/enter", data={"csrf_token": token})
    assert bad.status_code == 400 and b"Tournament number" in bad.data


@pytest.mark.browser
def test_the_tournament_pages_fit_a_phone_and_a_desk(browser, site):  # noqa: F811
    server, base = site
    number = played_round_robin(server)
    swiss = announce(server, PLAYERS[4], "kriegspiel swiss players=5 rounds=3")
    for player in PLAYERS[5:9]:
        enter(server, player, swiss)
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    for width, suffix in ((1100, ""), (390, "-phone")):
        page = browser.new_page(viewport={"width": width, "height": 900})
        for path, name in (("/tournaments", "tournaments"), (f"/tournaments/{number}", "round-robin"),
                           (f"/tournaments/{swiss}", "swiss"), (f"/players/{player_id(server, PLAYERS[0])}",
                                                                 "player-tournaments")):
            page.goto(base + path)
            assert page.evaluate(OVERFLOW) <= 0, (path, width)
            page.screenshot(path=str(ARTEFACTS / f"{name}{suffix}.png"), full_page=True)
        page.goto(base + sign_in_path(server, player_id(server, PLAYERS[9])))
        page.click("button:has-text('Sign in')")
        page.goto(base + "/tournaments")
        assert page.locator("text=Announce the tournament").count() == 1
        page.close()
