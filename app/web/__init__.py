"""The players' web pages: sign-in, their games, their own history, the reveal after the end."""

from __future__ import annotations

from flask import Flask
from werkzeug.routing import BaseConverter, ValidationError

from app.rules.numbers import NumberError, whole_number


class RowId(BaseConverter):
    """A row's id in an address, read by the one reader of numbers: digits 0 to 9 only (``int`` would read
    "١٢" as 12), and 32-bit like the database's ids; anything else is not found (404), as any unknown id is,
    instead of reaching the database."""

    regex = r"[0-9]{1,10}"
    weight = 50

    def to_python(self, value: str) -> int:
        try:
            return whole_number(value, 0, 2**31 - 1)
        except NumberError:
            raise ValidationError from None

    def to_url(self, value: object) -> str:
        return str(int(value))  # type: ignore[call-overload]


def register(app: Flask) -> None:
    app.url_map.converters["id"] = RowId
    from app.web import headers, numbers, signin
    from app.web.auth import blueprint as auth
    from app.web.club import blueprint as club
    from app.web.pages import blueprint as pages
    from app.web.preferences import blueprint as preferences
    from app.web.seeks import blueprint as seeks
    from app.web.tournaments import blueprint as tournaments

    app.register_blueprint(auth)
    signin.register(app)
    app.register_blueprint(pages)
    app.register_blueprint(preferences)
    app.register_blueprint(seeks)
    app.register_blueprint(tournaments)
    app.register_blueprint(club)
    headers.register(app)
    numbers.register(app)
