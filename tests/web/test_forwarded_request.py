"""A move request forwarded to a stranger, shown in real browsers: what its history link lets the stranger do.

Everything goes the way it goes in use: the game by mail over real SMTP (the server's listener in, an aiosmtpd
sink standing for the players' mail server out), the player's mail client forwarding the move request it
received, and two separate browser contexts (Playwright driving Debian's chromium): the stranger's, which
only has the forwarded mail, and the player's own, signed in with a link mailed to her.
"""

from __future__ import annotations

import re
import smtplib
import threading
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default

import pytest
from werkzeug.serving import make_server

from app import create_app
from app.games.models import Game as GameRow
from app.inbound.clients import fresh, reply
from app.inbound.listener import start_listener
from app.rules.registry import get_variant
from app.web.signin_links import wait_for_link_mail
from tests.conftest import make_server as make_mirrorpost
from tests.server.harness import Table
from tests.server.mailhost import Sink, free_port
from tests.server.smtp_game import ALICE, BOB, REFEREE, Game

pytestmark = pytest.mark.browser
CAROL, DAVE = "carol@club.test", "dave@players.test"
LINK = re.compile(r"(http://127\.0\.0\.1:\d+/games/\d+\?key=[A-Za-z0-9._-]+)")


@pytest.fixture
def world(tmp_path):
    """The server with its SMTP listener, the players' mail server, and the web pages over HTTP."""
    with Sink() as sink:
        smtp_port, web_port = free_port(), free_port()
        server = make_mirrorpost(tmp_path, f"sqlite:///{tmp_path / 'web.sqlite3'}", SMTP_HOST="127.0.0.1",
                                 SMTP_PORT=str(sink.port), INBOUND_SMTP_PORT=str(smtp_port),
                                 BASE_URL=f"http://127.0.0.1:{web_port}")
        listener = start_listener(server)
        http = make_server("127.0.0.1", web_port, create_app(server), threaded=True)
        threading.Thread(target=http.serve_forever, daemon=True).start()
        try:
            yield Game(server, sink, smtp_port), f"http://127.0.0.1:{web_port}"
        finally:
            http.shutdown()
            listener.stop()
            server.db.engine.dispose()


def latest_request(game: Game, player: str) -> bytes:
    """The raw latest move request to the player (other mail, such as a sign-in link, may have come since)."""
    with game.sink.lock:
        return [raw for _, rcpts, raw in game.sink.received if player in rcpts and b"your move" in raw][-1]


def move_each(game: Game) -> None:
    """Alice and then Bob play a legal move, each by a reply to their latest move request."""
    variant = get_variant("side-view")
    for player in (ALICE, BOB):
        with game.server.db.sessions() as session:
            state = variant.from_json(session.get(GameRow, 1).state)
        request = latest_request(game, player)
        answer_to = str(message_from_bytes(request, policy=default)["Reply-To"])
        game.send(player, reply(request, sorted(variant.legal_orders(state))[0], "gmail", player), answer_to)
    assert "your move (White)" in game.subject(ALICE)


def play_until_alices_second_request(game: Game) -> int:
    game.send(ALICE, fresh(ALICE, REFEREE, f"challenge {BOB} side-view", subject="a game"), REFEREE)
    game.reply(ALICE, "")  # she confirms her challenge
    game.reply(BOB, "accept")
    move_each(game)
    return 1


def forward(game: Game, to: str) -> str:
    """Alice's mail client forwards the request as its text, inline; the text Carol receives."""
    original = game.sink.to(ALICE)[-1]
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = ALICE, to, f"Fwd: {original['Subject']}"
    message.set_content("Carol, what would you play here?\n\n---------- Forwarded message ---------\n"
                        + original.get_body(("plain",)).get_content())
    with smtplib.SMTP("127.0.0.1", game.sink.port) as client:  # to the players' mail server
        client.send_message(message)
    return game.sink.last_text(to)


def csp_complaints(page) -> list[str]:
    found: list[str] = []
    page.on("console", lambda message: found.append(message.text) if "Content Security Policy" in message.text
            else None)
    return found


def test_a_forwarded_move_request_shows_its_game_read_only_and_nothing_more(browser, world, tmp_path):
    game, base = world
    game_id = play_until_alices_second_request(game)
    other_game = Table(game.server).new_game(ALICE, DAVE)  # another game of Alice's
    ply = 2
    forwarded = forward(game, CAROL)
    link = LINK.search(forwarded).group(1)

    # Carol, with nothing but the forwarded mail.
    carol = browser.new_context(viewport={"width": 1000, "height": 1400}).new_page()
    complaints = csp_complaints(carol)
    response = carol.goto(link)
    assert response.status == 200 and response.headers["referrer-policy"] == "no-referrer"
    main = carol.inner_text("main")
    assert "Alice's history of this game" in main and "read only" in main
    assert carol.locator(".boards svg").count() >= 1
    assert carol.locator("#order").count() == 0 and carol.locator("form").count() == 0
    assert "Sign out" not in carol.inner_text("header") and "Your games" not in carol.inner_text("header")
    carol.screenshot(path=str(tmp_path / "forwarded.png"), full_page=True)
    carol.keyboard.press("ArrowLeft")  # stepping back keeps to the read-only view of this game
    carol.wait_for_url(re.compile(r"key=.+&step=\d+$"))
    assert "read only" in carol.inner_text("main")
    assert complaints == []  # the page's own style and script are allowed by its policy
    key = link.split("key=")[1]
    json = carol.goto(f"{base}/games/{game_id}.json?key={key}")
    assert json.status == 200 and json.json()["game"]["you"] == "white"

    # What it does not give: a session, orders, other games.
    carol.goto(f"{base}/games")
    assert carol.url.endswith("/login")
    assert carol.goto(f"{base}/games/{game_id}").url.endswith("/login")
    assert carol.goto(f"{base}/games/{other_game}?key={key}").status == 404
    carol.goto(f"{base}/login")
    token = carol.locator("input[name=csrf_token]").first.get_attribute("value")
    for path in (f"/games/{game_id}/order", f"/games/{game_id}/order?key={key}"):
        forged = carol.request.post(base + path, form={"order": "e2-e4", "csrf_token": token})
        assert forged.status == 404
    with game.server.db.sessions() as session:
        assert session.get(GameRow, game_id).ply == ply

    # Alice signs in with a link mailed to her, and signs out everywhere: the forwarded link stops working.
    alice = browser.new_context().new_page()
    alice.goto(f"{base}/login")
    alice.fill("#email", ALICE)
    alice.click("text=Mail me a sign-in link")
    assert "a sign-in link is on its way" in alice.content()
    wait_for_link_mail()
    game.worker.run_once()  # out to her mail server
    sign_in = re.search(r"(http://\S+/login/\S+)", game.sink.last_text(ALICE)).group(1)
    alice.goto(sign_in)
    alice.click("button:has-text('Sign in')")
    assert alice.url.endswith("/games") and f"Game {other_game}" in alice.inner_text("main")
    alice.click("button:has-text('Sign out everywhere')")
    assert "Signed out everywhere" in alice.inner_text("main")
    gone = carol.goto(link)
    assert gone.status == 410 and "no longer works" in carol.inner_text("main")

    # Her next move request carries a link that works again.
    move_each(game)
    fresh_link = LINK.search(game.sink.last_text(ALICE))
    assert fresh_link and carol.goto(fresh_link.group(1)).status == 200
