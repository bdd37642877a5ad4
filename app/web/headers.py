"""Headers on every response of the app, so that every page, present or to come, has them.

- ``Content-Security-Policy``: scripts, styles and images from the site's own files only (no inline
  script or style: the pages use static/web), no frames, forms posting only to the site.
- ``Cache-Control: no-store`` unless the response set its own (the static files): a player's games and
  histories stay out of shared and browser caches.
- ``Referrer-Policy: no-referrer`` where the address carries a key (a history link's ``key``, a sign-in
  link's token), so that no request made from the page passes it on; ``same-origin`` elsewhere.
"""

from __future__ import annotations

from flask import Flask, request
from werkzeug.wrappers import Response

CONTENT_SECURITY_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
                           "form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
KEYED_ENDPOINTS = frozenset({"signin.link_page", "signin.use_link"})


def address_carries_key() -> bool:
    return "key" in request.args or request.endpoint in KEYED_ENDPOINTS


def security_headers(response: Response) -> Response:
    headers = response.headers
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("X-Frame-Options", "DENY")
    headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    headers.setdefault("Cache-Control", "no-store")
    headers["Referrer-Policy"] = "no-referrer" if address_carries_key() else "same-origin"
    return response


def register(app: Flask) -> None:
    app.after_request(security_headers)
