"""Helpers for web tests: a client signed in the way a player signs in."""

from __future__ import annotations

import re
import secrets

from app import create_app
from app.games.models import Player
from app.web.models import LoginToken
from app.web.signin_links import link_serializer, wait_for_link_mail
from tests.server.harness import Table

CSRF = re.compile(rb'name="csrf_token" value="([^"]+)"')


def csrf_of(page: bytes) -> str:
    match = CSRF.search(page)
    assert match, "no CSRF token on the page"
    return match.group(1).decode()


def sign_in_path(server, player_id: int) -> str:
    """A sign-in link for the player as their mail would carry it (its row made here rather than asked for at
    /login, so that tests signing in often meet no rate limit)."""
    nonce = secrets.token_urlsafe(24)
    with server.db.transaction() as session:
        email = session.get(Player, player_id).email
        session.add(LoginToken(nonce=nonce, email=email, player_id=player_id, client="tests"))
    return "/login/" + link_serializer(server.settings.secret_key).dumps(nonce)


def client_for(server, game_id: int | None = None, player_id: int | None = None):
    """A test client; signed in through a mailed sign-in link's page and button when a player is given
    (``game_id`` is not needed for it, and kept for the callers that name it)."""
    client = create_app(server).test_client()
    if player_id is not None:
        path = sign_in_path(server, player_id)
        page = client.get(path)  # a page with a button: the GET alone signs nobody in
        assert page.status_code == 200
        assert client.post(path, data={"csrf_token": csrf_of(page.data)}).status_code == 302
    return client


def login_link(table: Table, address: str) -> str:
    """The path of the latest sign-in link mailed to ``address`` (once the mail queued for it is made)."""
    wait_for_link_mail()
    text = table.text(address, "login")
    match = re.search(r"(/login/\S+)", text)
    assert match
    return match.group(1).rstrip(".")
