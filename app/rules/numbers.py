"""Whole numbers as people write them to the referee: the ASCII digits 0 to 9 and nothing else, bounded.

``int`` also reads other scripts' digits ("١٢"), underscores ("1_0"), signs and spaces around, and
``str.isdigit`` (or ``isdecimal``) passes "²" or "١٢", which ``int`` then reads or refuses with an error
nobody expected. Every number read from a mail command, a web form, an address or a header goes through
``whole_number``: digits only, and at most ``LONGEST`` of them (leading zeros counted) before it is turned into
a number, so that no length of digits costs anything nor reaches ``int``'s own limit on digits; and a
``NumberError`` that says what is taken. Mail commands are folded before they are read (other scripts'
digits written as ASCII ones, ``app/games/lookalikes.py``); web forms and headers are not.
"""

from __future__ import annotations

LONGEST = 18  # digits: more than anything the referee counts, and any such number fits in 64 bits


class NumberError(ValueError):
    """A number not written with the digits 0 to 9, or outside its range: the message says what is taken."""


def whole_number(text: str, low: int = 0, high: int = 2**31 - 1) -> int:
    """``text`` read as a whole number from ``low`` to ``high``, written with the digits 0 to 9 alone."""
    wanted = f"a whole number from {low} to {high}, written with the digits 0 to 9"
    if not (isinstance(text, str) and text.isascii() and text.isdigit()):
        raise NumberError(f"must be {wanted}")
    if len(text) > LONGEST:
        raise NumberError(f"is too large: more than {LONGEST} digits; it must be {wanted}")
    if not low <= int(text) <= high:
        raise NumberError(f"must be {wanted}")
    return int(text)
