"""Mirrorpost: a play-by-email referee for hidden-information chess variants."""

from __future__ import annotations

from datetime import timedelta

from flask import Flask
from flask_wtf.csrf import CSRFProtect

from app.config import ROOT
from app.server import Server


def create_app(server: Server | None = None) -> Flask:
    """The web application: mail-in webhook now, the players' pages beside it."""
    from app.inbound import receive as inbound

    server = server or Server.from_env()
    app = Flask(__name__, template_folder=str(ROOT / "templates"), static_folder=str(ROOT / "static"))
    app.config["SECRET_KEY"] = server.settings.secret_key
    app.config["MAX_CONTENT_LENGTH"] = inbound.LARGEST_MESSAGE  # a larger webhook body gets 413
    app.config.update(
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=server.settings.base_url.startswith("https://"),
        PERMANENT_SESSION_LIFETIME=timedelta(days=30),
    )
    app.extensions["mirrorpost"] = server
    if server.settings.trusted_proxies:  # the client's address and scheme as the proxies saw them
        from app.forwarding import TrustedForwarding

        app.wsgi_app = TrustedForwarding(  # type: ignore[method-assign]
            app.wsgi_app, server.settings.trusted_proxies, server.settings.trusted_proxy_addresses)

    from app.inbound.webhook import blueprint as webhook
    from app.web import register

    csrf = CSRFProtect(app)
    csrf.exempt(webhook)  # machine-to-machine, authenticated by its own HMAC
    app.register_blueprint(webhook)
    register(app)  # with the headers every response gets (app/web/headers.py)

    @app.get("/healthz")
    def health() -> dict[str, str]:
        return {"status": "ok"}

    return app
