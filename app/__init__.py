"""Mirrorpost: a play-by-email referee for hidden-information chess variants."""

from __future__ import annotations

from flask import Flask

from app.config import ROOT
from app.server import Server


def create_app(server: Server | None = None) -> Flask:
    """The web application: mail-in webhook now, the players' pages beside it."""
    server = server or Server.from_env()
    app = Flask(__name__, template_folder=str(ROOT / "templates"))
    app.config["SECRET_KEY"] = server.settings.secret_key
    app.config["MAX_CONTENT_LENGTH"] = 30 * 1024 * 1024
    app.extensions["mirrorpost"] = server

    from app.mail.webhook import blueprint as webhook

    app.register_blueprint(webhook)

    @app.get("/healthz")
    def health() -> dict[str, str]:
        return {"status": "ok"}

    return app
