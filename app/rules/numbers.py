"""Whole numbers as people write them to the referee: the ASCII digits 0 to 9 and nothing else, bounded.

``int`` also reads other scripts' digits ("١٢"), underscores ("1_0"), signs and spaces around, and
``str.isdigit`` (or ``isdecimal``) passes "²" or "١٢", which ``int`` then reads or refuses with an error
nobody expected. Every number read from a mail command, a web form, an address or a header goes through
``whole_number``: digits only, measured before it is turned into a number (a thousand digits cost nothing),
and a ``NumberError`` that says what is taken. Mail commands are folded before they are read (other scripts'
digits written as ASCII ones, ``app/games/lookalikes.py``); web forms and headers are not.
"""

from __future__ import annotations


class NumberError(ValueError):
    """A number not written with the digits 0 to 9, or outside its range: the message says what is taken."""


def whole_number(text: str, low: int = 0, high: int = 2**31 - 1) -> int:
    """``text`` read as a whole number from ``low`` to ``high``, written with the digits 0 to 9 alone."""
    if not (isinstance(text, str) and text.isascii() and text.isdigit()) or \
            len(text.lstrip("0")) > len(str(high)) or not low <= int(text) <= high:
        raise NumberError(f"must be a whole number from {low} to {high}, written with the digits 0 to 9")
    return int(text)
