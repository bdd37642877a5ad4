"""Numbers in a request (a form's field, an address, a query string) read by the one reader of whole numbers
(``app.rules.numbers``): anything else is answered by a 400 page that names the field and says what is wrong."""

from __future__ import annotations

from flask import Flask, render_template
from werkzeug.exceptions import BadRequest

from app.rules.numbers import LONGEST, NumberError, whole_number

SHOWN = 24  # characters of what was written repeated on the page


class BadNumber(BadRequest):
    """A number the request holds that cannot be read: which field, what is wrong, and where to go back to."""

    def __init__(self, field: str, problem: str, back: str) -> None:
        super().__init__(f"{field} {problem}")
        self.field, self.problem, self.back = field, problem, back


def number_from(written: str | None, field: str, low: int, high: int, back: str) -> int:
    """``written`` as a whole number from ``low`` to ``high``; raises ``BadNumber`` (a 400 page) otherwise."""
    text = written or ""
    try:
        return whole_number(text, low, high)
    except NumberError:
        wanted = f"a whole number from {low} to {high} written with the digits 0 to 9"
        shown = text if len(text) <= SHOWN else text[:SHOWN] + "\u2026"
        if not text:
            problem = f"it is empty; write {wanted}"
        elif len(text) > LONGEST and text.isascii() and text.isdigit():
            problem = f"\u201c{shown}\u201d is too large (more than {LONGEST} digits): write {wanted}"
        else:
            problem = f"\u201c{shown}\u201d is not {wanted}"
        raise BadNumber(field, problem, back) from None


def bad_number_page(error: BadNumber) -> tuple[str, int]:
    return render_template("web/bad_number.html", title="Not a number", field=error.field, problem=error.problem,
                           back=error.back), 400


def register(app: Flask) -> None:
    app.register_error_handler(BadNumber, bad_number_page)
