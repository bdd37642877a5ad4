"""Helpers for web tests: a client signed in the way a player signs in."""

from __future__ import annotations

import re

from app import create_app
from app.games.links import history_link
from tests.server.harness import Table

CSRF = re.compile(rb'name="csrf_token" value="([^"]+)"')


def csrf_of(page: bytes) -> str:
    match = CSRF.search(page)
    assert match, "no CSRF token on the page"
    return match.group(1).decode()


def client_for(server, game_id: int | None = None, player_id: int | None = None):
    """A test client; signed in through a move request's history link when a player is given."""
    client = create_app(server).test_client()
    if player_id is not None:
        url = history_link(server.settings, game_id or 1, player_id).replace(server.settings.base_url, "")
        page = client.get(url)  # a page with a button: the GET alone signs nobody in
        assert page.status_code == 200
        key = url.split("key=", 1)[1]
        assert client.post(f"/games/{game_id or 1}/open", data={"key": key, "csrf_token": csrf_of(page.data)}
                           ).status_code == 302
    return client


def login_link(table: Table, address: str) -> str:
    text = table.text(address, "login")
    match = re.search(r"(/login/\S+)", text)
    assert match
    return match.group(1).rstrip(".")
