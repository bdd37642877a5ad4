"""The pages in a real browser: Playwright driving Debian's chromium (never a downloaded browser)."""

from __future__ import annotations

import re
import threading
from email import message_from_bytes
from email.policy import default

import pytest
from werkzeug.serving import make_server

from app import create_app
from app.web.signin_links import wait_for_link_mail
from tests.conftest import make_server as make_mirrorpost
from tests.server.harness import ALICE, BOB, Table
from tests.server.mailhost import free_port

pytestmark = pytest.mark.browser
@pytest.fixture
def site(tmp_path):
    port = free_port()
    server = make_mirrorpost(tmp_path, f"sqlite:///{tmp_path / 'web.sqlite3'}", BASE_URL=f"http://127.0.0.1:{port}")
    http = make_server("127.0.0.1", port, create_app(server), threaded=True)
    thread = threading.Thread(target=http.serve_forever, daemon=True)
    thread.start()
    yield server, f"http://127.0.0.1:{port}"
    http.shutdown()
    server.db.engine.dispose()


def sign_in(page, base: str, table: Table, address: str) -> None:
    page.goto(f"{base}/login")
    page.fill("#email", address)
    page.click("text=Mail me a sign-in link")
    page.wait_for_selector("text=a sign-in link is on its way")
    wait_for_link_mail()
    link = re.search(r"(http://\S+/login/\S+)", table.text(address, "login")).group(1)
    page.goto(link)  # a page with a button: opening the link signs nobody in
    page.click("button:has-text('Sign in')")
    assert page.url.endswith("/games")


def test_sign_in_step_with_the_keyboard_order_and_see_the_reveal(browser, site):
    server, base = site
    table = Table(server)
    game_id = table.start()
    table.reply(ALICE, "R e2-e4", kind="request")
    table.reply(BOB, "M e7-e5", kind="request")
    page = browser.new_page(viewport={"width": 390, "height": 844})  # a phone
    sign_in(page, base, table, ALICE)
    page.click(f"text=Game {game_id}")
    steps = int(re.search(r"Step (\d+) of (\d+)", page.inner_text("#position")).group(2))
    assert f"Step {steps} of {steps}" in page.inner_text("#position")
    assert page.locator(".boards svg").count() == 2
    page.keyboard.press("ArrowLeft")
    page.wait_for_url(re.compile(rf"step={steps - 1}$"))
    assert f"Step {steps - 1} of {steps}" in page.inner_text("#position")
    page.keyboard.press("ArrowLeft")
    page.wait_for_url(re.compile(rf"step={steps - 2}$"))
    page.keyboard.press("ArrowRight")
    page.wait_for_url(re.compile(rf"step={steps - 1}$"))
    page.goto(f"{base}/games/{game_id}")
    page.fill("#order", "M d4-d5")  # no piece of White's there: a strike, told on the page and by mail
    page.click("text=Send order")
    assert "strike" in page.inner_text("main")
    page.fill("#order", "R d2-d4")
    page.click("text=Send order")
    assert "moved" in page.inner_text("main")
    assert table.game(game_id).ply == 3
    table.reply(BOB, "resign", kind="request")
    page.goto(f"{base}/games/{game_id}")
    page.click("text=See the reveal")
    text = page.inner_text("main")
    assert "the reveal" in text and "Black was told" in text and "R:d2-d4" in text  # orders as read, canonical
    page.keyboard.press("ArrowLeft")
    page.wait_for_url(re.compile(r"step=\d+$"))
    assert page.locator(".boards svg").count() == 4  # both true worlds and both players' notebooks
    assert "White's notebook of the Mirror world" in page.inner_text("main")


def test_a_second_player_cannot_open_the_first_players_history(browser, site):
    server, base = site
    table = Table(server)
    game_id = table.start()
    table.new_game("carol@players.test", "dave@players.test")
    page = browser.new_page()
    sign_in(page, base, table, "carol@players.test")
    response = page.goto(f"{base}/games/{game_id}")
    assert response.status == 404
    response = page.goto(f"{base}/games/{game_id}.json")
    assert response.status == 404
    assert f"Game {game_id}:" not in page.content()


def test_a_sign_in_link_to_someone_elses_account_says_whose_it_is_before_its_button(browser, site, tmp_path):
    """Mallory mails Alice a link to his own account: the page Alice opens names Mallory and his masked address
    above the button, and opening it signed her into nothing."""
    server, base = site
    table = Table(server)
    table.new_game(ALICE, "mallory.hacker@evil.test")
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{base}/login")
    page.fill("#email", "mallory.hacker@evil.test")
    page.click("text=Mail me a sign-in link")
    page.wait_for_selector("text=a sign-in link is on its way")
    wait_for_link_mail()
    link = re.search(r"(http://\S+/login/\S+)", table.text("mallory.hacker@evil.test", "login")).group(1)
    alice = browser.new_page(viewport={"width": 390, "height": 844})
    alice.goto(link)
    account = alice.locator("p.account")
    assert account.is_visible()
    assert "Mallory" in account.inner_text() and "m\u2022\u2022\u2022@evil.test" in account.inner_text()
    assert alice.locator("button:has-text('Sign in')").is_visible()
    assert "not you" in alice.inner_text("main") and "mallory.hacker" not in alice.content()
    box, button = account.bounding_box(), alice.locator("button:has-text('Sign in')").bounding_box()
    assert box["y"] + box["height"] <= button["y"]  # read before the button is reached
    alice.screenshot(path=str(tmp_path / "sign-in-link.png"), full_page=True)
    alice.goto(f"{base}/games")
    assert alice.url.endswith("/login")


SQUARES = "td[bgcolor]"


def test_move_request_boards_are_drawn_in_a_browser(browser, tmp_path):
    """A move request's HTML part draws both boards: 64 squares each, every piece a visible glyph."""
    server = make_mirrorpost(tmp_path, f"sqlite:///{tmp_path / 'mail.sqlite3'}")
    table = Table(server)
    table.start()
    table.reply(ALICE, "R e2-e4", kind="request")
    table.reply(BOB, "M g8-f6", kind="request")
    message = message_from_bytes(table.last(ALICE, "request").raw, policy=default)
    html = message.get_body(("html",)).get_content()
    text = message.get_body(("plain",)).get_content()
    pieces = sum(len(re.findall(r"[KQRBNPkqrbnp?]", line)) for line in text.splitlines()
                 if re.match(r"^ +[1-8] ", line))  # both diagrams of the text part
    server.db.engine.dispose()
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.set_content(html)
    squares = page.locator(SQUARES)
    assert squares.count() == 128  # two boards
    sizes = squares.evaluate_all("cells => cells.map(c => [c.getBoundingClientRect().width,"
                                 " c.getBoundingClientRect().height])")
    assert all(width >= 26 and height >= 26 for width, height in sizes), sizes
    glyphs = squares.evaluate_all("cells => cells.filter(c => c.textContent.trim()).map(c => {"
                                  " const s = getComputedStyle(c);"
                                  " return [c.childNodes[0].textContent, s.fontSize, s.color,"
                                  " s.textShadow, c.getBoundingClientRect().height]; })")
    assert len(glyphs) == pieces > 16
    for glyph, font_size, color, shadow, height in glyphs:
        assert font_size == "20px" and height >= 26
        # White's pieces hollow, Black's solid, both in dark ink: readable on either square, without shadows
        assert glyph in "\u2654\u2655\u2656\u2657\u2658\u2659\u265a\u265b\u265c\u265d\u265e\u265f"
        assert color == "rgb(17, 17, 17)" and shadow == "none"


def test_lg_10_an_unknown_square_is_drawn_readable(browser):
    """LG-10's "?" stands out on both square colours (it is neither white nor a board colour)."""
    from app.outbound.render import figure_html
    from app.present.diagram import UNKNOWN, Figure, board_grid

    grid = board_grid("Real world (your notebook)", {"a8": UNKNOWN, "b8": UNKNOWN})
    page = browser.new_page()
    page.set_content(str(figure_html(Figure(((grid,),)))))
    marks = page.locator(SQUARES).evaluate_all(
        "cells => cells.filter(c => c.textContent.trim() === '?').map(c => getComputedStyle(c).color)")
    assert len(marks) == 2
    assert all(color not in ("rgb(255, 255, 255)", "rgb(240, 217, 181)", "rgb(181, 136, 99)") for color in marks)
