"""The players' web pages: sign-in, their games, their own history, the reveal after the end."""

from __future__ import annotations

from flask import Flask
from werkzeug.routing import IntegerConverter


class RowId(IntegerConverter):
    """A row's id in an address: the database's ids are 32-bit, so a larger number is not found (404), as any
    unknown id is, instead of reaching the database."""

    def __init__(self, url_map, **kwargs) -> None:
        super().__init__(url_map, max=2**31 - 1, **kwargs)


def register(app: Flask) -> None:
    app.url_map.converters["id"] = RowId
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
