"""The players' web pages: sign-in, their games, their own history, the reveal after the end."""

from __future__ import annotations

from flask import Flask


def register(app: Flask) -> None:
    from app.web import headers, signin
    from app.web.auth import blueprint as auth
    from app.web.club import blueprint as club
    from app.web.pages import blueprint as pages
    from app.web.preferences import blueprint as preferences
    from app.web.seeks import blueprint as seeks

    app.register_blueprint(auth)
    signin.register(app)
    app.register_blueprint(pages)
    app.register_blueprint(preferences)
    app.register_blueprint(seeks)
    app.register_blueprint(club)
    headers.register(app)
