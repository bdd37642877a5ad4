"""The club end to end, through real SMTP on loopback and chromium: a seek posted by mail, listed by mail and on
/seeks, joined by a second player with the page's button, played to the end by mail; both ratings change as
Glicko-2 says, and no mail or page one player receives shows the other's address or any part of it."""

from __future__ import annotations

import re
import threading
from contextlib import contextmanager

import pytest
from sqlalchemy import select
from werkzeug.serving import make_server

from app import create_app
from app.club.glicko2 import Glicko, rate_game
from app.club.models import Rating, Seek
from app.games.models import Game as GameRow
from app.games.models import Player
from app.inbound.clients import fresh
from tests.server.conftest import game  # noqa: F401 (two players' mail clients and the server's listener)
from tests.server.mailhost import free_port
from tests.server.smtp_game import ALICE, BOB, REFEREE
from tests.web_helpers import sign_in_path

MATE = {"white": ("f2-f3", "g2-g4"), "black": ("e7-e5", "d8-h4")}  # Black mates on his second move


def said(message) -> str:
    parts = [part.get_content() for part in message.walk() if part.get_content_maintype() == "text"]
    return " ".join(" ".join(parts).split())


@contextmanager
def web(server):
    """The server's web app on loopback, as ``serve`` runs it."""
    port = free_port()
    http = make_server("127.0.0.1", port, create_app(server), threaded=True)
    thread = threading.Thread(target=http.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        http.shutdown()


def signed_in(browser, base: str, server, address: str):
    """A phone's browser signed in as ``address`` with a mailed link's page and button."""
    with server.db.sessions() as session:
        player_id = session.scalar(select(Player.id).where(Player.email == address))
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(base + sign_in_path(server, player_id))
    page.click("button:has-text('Sign in')")
    return page


@pytest.mark.browser
def test_a_seek_by_mail_joined_in_the_browser_and_played_out_rates_both_and_shows_no_address(game, browser):  # noqa: F811
    with web(game.server) as base:
        play_the_club(game, browser, base)


def play_the_club(table, browser, base: str) -> None:
    table.send(ALICE, fresh(ALICE, REFEREE, "seek side-view days=2", subject="a game, anyone?"), REFEREE)
    assert "please confirm" in table.subject(ALICE)
    table.reply(ALICE, "")
    with table.server.db.sessions() as session:
        number = session.scalar(select(Seek.id))
    assert f"Your seek {number} is open" in said(table.sink.to(ALICE)[-1])

    table.send(BOB, fresh(BOB, REFEREE, "seeks", subject="seeks"), REFEREE)
    assert f"Seek {number}: Side View Chess" in said(table.sink.to(BOB)[-1])
    bob = signed_in(browser, base, table.server, BOB)
    bob.goto(f"{base}/seeks")
    assert bob.locator(f"td:text-is('{number}')").count() == 1
    bob.click("button:has-text('Join')")
    bob.wait_for_selector("text=has started")
    table.worker.run_once()  # the game's first mails go out

    with table.server.db.sessions() as session:
        played = session.scalars(select(GameRow)).one()
        white = session.get(Player, played.white_id).email
    sides = {"white": white, "black": BOB if white == ALICE else ALICE}
    for number_of_move in range(2):
        for side in ("white", "black"):
            table.reply(sides[side], MATE[side][number_of_move])
    assert "game over" in table.subject(sides["white"]).lower()
    assert "Your rating in Side View Chess: 1500? ->" in said(table.sink.to(sides["black"])[-1])

    expected = dict(zip(("white", "black"), rate_game(Glicko(), Glicko(), 0.0), strict=True))
    with table.server.db.sessions() as session:
        ids = {side: session.scalar(select(Player.id).where(Player.email == address))
               for side, address in sides.items()}
        for side, new in expected.items():
            row = session.get(Rating, (ids[side], "side-view"))
            assert row.games == 1
            assert (row.rating, row.deviation) == pytest.approx((new.rating, new.deviation), abs=1e-9)

    alice = signed_in(browser, base, table.server, ALICE)
    pages = {}
    for player, page in ((BOB, bob), (ALICE, alice)):
        pages[player] = []
        for path in ("/", "/games", f"/games/{played.id}", f"/games/{played.id}/reveal", "/seeks",
                     f"/players/{ids['white']}", f"/players/{ids['black']}"):
            page.goto(base + path)
            pages[player].append(page.content().encode())
    for player, other in ((ALICE, BOB), (BOB, ALICE)):
        mails = [raw for _sender, recipients, raw in table.sink.received if player in recipients]
        for whole in [*mails, *pages[player]]:
            text = whole.decode("utf-8", "replace").lower()
            local = re.compile(rf"(?<![\w-]){other.split('@')[0]}(?![\w-])")  # not "quasi-alice", a game's name
            assert other not in text and not local.search(text), (player, text[:400])
