"""Every page: a Content-Security-Policy with no inline script or style, nothing kept in caches, and no
Referer sent from a page whose address carries a key."""

import re
from pathlib import Path

from app.games.mail.links import history_link
from app.rules.registry import VARIANTS
from app.web.headers import CONTENT_SECURITY_POLICY
from tests.server.harness import ALICE, BOB, Table
from tests.web_helpers import client_for, csrf_of, sign_in_path

TEMPLATES = Path(__file__).parent.parent.parent / "templates" / "web"
INLINE = [
    re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I),  # a script without a file
    re.compile(r"<style\b", re.I),
    re.compile(r"\sstyle\s*=", re.I),
    re.compile(r"\son[a-z]+\s*=", re.I),  # onclick= and the like
    re.compile(r"javascript:", re.I),
]


def inline_code(html: str) -> list[str]:
    return [match.group(0) for pattern in INLINE for match in pattern.finditer(html)]


def test_no_template_has_inline_script_style_or_handlers():
    for path in TEMPLATES.glob("*.html"):
        assert inline_code(path.read_text()) == [], path.name


def every_page(server):
    """(what, path, response) for every kind of page, as the people who see it get it."""
    table = Table(server)
    game_id = table.start()
    table.reply(ALICE, "R e2-e4", kind="request")
    white_id = table.game(game_id).white_id
    key_path = history_link(server.settings, game_id, white_id).replace(server.settings.base_url, "")
    signed_in = client_for(server, game_id, white_id)
    anyone = client_for(server)
    sign_in = sign_in_path(server, table.game(game_id).black_id)
    form = csrf_of(anyone.get("/login").data)
    pages = [
        ("sign-in form", "/login", anyone.get("/login"), False),
        ("link asked for", "/login", anyone.post("/login", data={"email": BOB, "csrf_token": form}), False),
        ("bad address", "/login", anyone.post("/login", data={"email": "x", "csrf_token": form}), False),
        ("sign-in link's page", sign_in, anyone.get(sign_in), True),
        ("rules", "/rules", anyone.get("/rules"), False),
        *((f"rules of {name}", f"/rules/{name}", anyone.get(f"/rules/{name}"), False) for name in VARIANTS),
        ("games", "/games", signed_in.get("/games"), False),
        ("history", f"/games/{game_id}", signed_in.get(f"/games/{game_id}"), False),
        ("a step", f"/games/{game_id}?step=1", signed_in.get(f"/games/{game_id}?step=1"), False),
        ("JSON", f"/games/{game_id}.json", signed_in.get(f"/games/{game_id}.json"), False),
        ("history by link", key_path, anyone.get(key_path), True),
        ("step by link", key_path + "&step=1", anyone.get(key_path + "&step=1"), True),
        ("JSON by link", key_path.replace("?", ".json?"), anyone.get(key_path.replace("?", ".json?")), True),
        ("not found", "/games/9999", signed_in.get("/games/9999"), False),
        ("redirect", "/games", anyone.get("/games"), False),
        ("health", "/healthz", anyone.get("/healthz"), False),
    ]
    table.reply(ALICE, "resign", kind="request")
    pages.append(("reveal", f"/games/{game_id}/reveal", signed_in.get(f"/games/{game_id}/reveal"), False))
    pages.append(("forged link", key_path, anyone.get(key_path.replace("key=", "key=x")), True))
    used = client_for(server)
    used.post(sign_in, data={"csrf_token": csrf_of(used.get(sign_in).data)})
    pages.append(("used-up link", sign_in, anyone.get(sign_in), True))
    return pages


def test_every_page_has_the_policy_no_store_and_the_right_referrer_policy(server):
    seen = set()
    for what, path, response, keyed in every_page(server):
        seen.add(response.status_code)
        headers = response.headers
        assert headers["Cache-Control"] == "no-store", what
        assert headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY, what
        assert headers["Referrer-Policy"] == ("no-referrer" if keyed else "same-origin"), (what, path)
        assert headers["X-Content-Type-Options"] == "nosniff" and headers["X-Frame-Options"] == "DENY", what
        if response.mimetype == "text/html":
            assert inline_code(response.data.decode()) == [], what
    assert {200, 302, 400, 404} <= seen, seen
    assert "'unsafe-inline'" not in CONTENT_SECURITY_POLICY and "script-src 'self'" in CONTENT_SECURITY_POLICY


def test_the_styles_and_the_script_are_files_of_the_site(server):
    client = client_for(server)
    page = client.get("/login").data.decode()
    for path in [*re.findall(r'(?:href|src)="(/static/[^"]+)"', page), "/static/web/steps.js"]:
        response = client.get(path)
        assert response.status_code == 200 and response.data, path
        assert response.mimetype in ("text/css", "text/javascript", "application/javascript"), path
        response.close()
    assert "/static/web/site.css" in page
