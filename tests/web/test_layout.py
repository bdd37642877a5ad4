"""How the pages and the HTML mails lay out in Debian's chromium: nothing wider than a phone, a Side View strip
beside its board at the board's height, every column of a board of one width."""

from __future__ import annotations

import random
import re
import threading
from email import message_from_bytes
from email.policy import default

import pytest
from werkzeug.serving import make_server

from app import create_app
from app.rules.registry import VARIANTS, get_variant
from tests.conftest import make_server as make_mirrorpost
from tests.server.harness import ALICE, BOB, Table
from tests.server.mailhost import free_port
from tests.web.test_browser import sign_in

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
OVERFLOW = "document.scrollingElement.scrollWidth - innerWidth"


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



def play(table: Table, game_id: int, name: str, plies: int, seed: int) -> None:
    """Random legal moves by the player to move, each as a reply to their latest mail."""
    variant, rng = get_variant(name), random.Random(seed)
    for _ply in range(plies):
        state = variant.from_json(table.game(game_id).state)
        side = variant.orderer(state)
        if side is None:
            return
        table.reply(ALICE if side == "white" else BOB, rng.choice(variant.legal_orders(state)))


def games_of_every_variant(table: Table) -> tuple[list[int], list[int]]:
    """Per variant a running game and a finished one (long enough for a record of full lines)."""
    running, over = [], []
    for name in sorted(VARIANTS):
        table.variant = name
        options = {"physics": "2"} if name == "side-view" else {}
        running.append(table.start(**options))
        play(table, running[-1], name, 6, 1)
        over.append(table.start(**options))
        play(table, over[-1], name, 40, 2)
        if table.game(over[-1]).status != "over":
            side = get_variant(name).orderer(get_variant(name).from_json(table.game(over[-1]).state))
            table.reply(ALICE if side == "white" else BOB, "resign")
    return running, over


def test_no_page_is_wider_than_a_phone(browser, site):
    """At 390 px, every kind of page (public, signed-in, each variant's history and reveal) fits: the reveal's
    record wraps, the games table keeps every column, a board and its strip shrink together."""
    server, base = site
    table = Table(server)
    running, over = games_of_every_variant(table)
    history_link = re.search(r"(http://\S+/games/\d+\?key=\S+)", table.text(ALICE, "request")).group(1)
    page = browser.new_page(viewport=PHONE)
    pages = ["/", "/rules", *(f"/rules/{name}" for name in sorted(VARIANTS)), "/login", "/login/not-a-token",
             "/games/999999"]
    wide = {}
    for path in pages:
        page.goto(base + path)
        wide[path] = page.evaluate(OVERFLOW)
    page.goto(history_link)
    wide["history link"] = page.evaluate(OVERFLOW)
    sign_in(page, base, table, ALICE)
    for path in ["/games", *(f"/games/{game_id}" for game_id in running + over),
                 *(f"/games/{game_id}/reveal" for game_id in over),
                 *(f"/games/{game_id}/reveal?step=1" for game_id in over)]:
        page.goto(base + path)
        assert "Internal Server Error" not in page.content(), path
        wide[path] = page.evaluate(OVERFLOW)
    assert {path: extra for path, extra in wide.items() if extra > 0} == {}
    page.goto(f"{base}/games")
    headings = page.locator("table.games th").all_inner_texts()
    assert "Variant" in headings and page.locator("table.games th", has_text="Variant").first.is_visible()
    palindromic = over[sorted(VARIANTS).index("palindromic")]
    page.goto(f"{base}/games/{palindromic}/reveal")
    assert len(max(page.inner_text("pre.record").splitlines(), key=len)) >= 60  # full record lines, wrapped


def test_SV_the_view_from_the_east_stands_beside_the_board_at_its_height(browser, site):
    server, base = site
    table = Table(server, "side-view")
    for physics in ("3", "2"):
        game_id = table.start(physics=physics)
        play(table, game_id, "side-view", 5, 3)
    page = browser.new_page(viewport=DESKTOP)
    sign_in(page, base, table, ALICE)
    for viewport in (DESKTOP, PHONE):
        page.set_viewport_size(viewport)
        for game_id in (1, 2):
            page.goto(f"{base}/games/{game_id}")
            board = page.locator("svg.board").first.bounding_box()
            strip = page.locator("svg.strip").first.bounding_box()
            assert abs(strip["height"] - board["height"]) <= 2, (viewport, board, strip)
            assert abs(strip["y"] - board["y"]) <= 2 and strip["x"] >= board["x"] + board["width"]
            assert board["height"] >= (250 if viewport is DESKTOP else 150)
            assert page.evaluate(OVERFLOW) <= 0
        table.reply(BOB, "resign")
        page.goto(f"{base}/games/2/reveal")
        boxes = [page.locator("svg").nth(index).bounding_box() for index in range(3)]
        assert max(box["height"] for box in boxes) - min(box["height"] for box in boxes) <= 2, boxes


def test_LG_10_every_column_of_a_notebook_in_the_mail_has_one_width(browser, tmp_path):
    """A notebook entry's move number ("m12") is drawn under its piece inside the square: no column of a board
    in the HTML part is wider than another, and no row taller."""
    server = make_mirrorpost(tmp_path, f"sqlite:///{tmp_path / 'mail.sqlite3'}")
    table = Table(server)
    game_id = table.start()
    play(table, game_id, "looking-glass", 40, 5)
    table.reply(BOB, "resign")
    html = message_from_bytes(table.last(BOB, "game-over").raw, policy=default).get_body(("html",)).get_content()
    server.db.engine.dispose()
    assert re.search(r">m\d+</span>", html)  # notebook entries with their move numbers
    page = browser.new_page(viewport={"width": 720, "height": 900})
    page.set_content(html)
    tables = page.locator("table[role=img]")
    assert tables.count() == 4  # both worlds, both notebooks
    for index in range(4):
        sizes = tables.nth(index).locator("td[bgcolor]").evaluate_all(
            "cells => cells.map(c => [c.getBoundingClientRect().width, c.getBoundingClientRect().height])")
        assert len(sizes) == 64
        widths, heights = {round(width) for width, _h in sizes}, {round(height) for _w, height in sizes}
        assert len(widths) == 1 and len(heights) == 1, (widths, heights)  # the installed fonts decide the size
