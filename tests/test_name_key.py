"""Two names are one when they look alike (``name_key``): the TR39 skeleton of the name, with compatibility forms,
case, combining marks and every character drawn as nothing folded; a name holds at least one letter or digit
that can be seen."""

from __future__ import annotations

import pytest

from app.games.lobby.names import generated, name_key, unseen_name


@pytest.mark.parametrize(("one", "other"), [
    ("Alice", "ALICE"), ("Alice", "\u0410lice"), ("Alice", "A1ice"), ("Darn", "Dam"), ("Zoë", "ZOE\u0308"),
    ("Ann  Lee", "ann lee"),
    ("Alice", "AIice"),  # capital I for small l
    ("Bill", "BiII"),
    ("Alice", "Al\u2800ice"), ("Alice", "\u2800Alice"),  # braille blank
    ("Alice", "Al\u200bice"), ("Alice", "A\u200dlice\u2060"), ("Alice", "Ali\u00adce"),  # zero-width, soft hyphen
    ("Alice", "Alice\ufe0f"), ("Alice", "Al\u3164ice"), ("Alice", "Al\U000e0041ice"),  # selectors, fillers, tags
    ("Ann Lee", "Ann\u3000Lee"), ("Ann Lee", "Ann\u2003Lee"),  # other spaces
    ("ABBA", "\u13aa\u13f4\u13f4\u13aa"),  # Cherokee A and B
    ("Alice", "\u0251lice"),  # Latin small alpha
    ("Lee", "\u029fee"), ("Lee", "\u029f\u1d07\u1d07"),  # small capitals
    ("Alice", "\uff21\uff4c\uff49\uff43\uff45"),  # fullwidth
    ("Alice", "A\u0301lice"), ("Alice", "Álice"), ("Zoe", "Zoë"),  # combining marks
    ("Paypal", "\U0001d52d\U0001d4b6\u1ef3\U0001d561\U0001d552\u2113"),
])
def test_names_that_look_alike_have_one_key(one, other):
    assert name_key(one) == name_key(other)


def test_names_that_differ_have_keys_that_differ():
    assert len({name_key(name) for name in ("Alice", "Alicia", "Alice B.", "Bob", "Zoe", "Bo", "Аня",
                                            "Анна", "李雷", "李四")}) == 10


def test_the_clubs_own_names_are_known_however_written():
    for written in ("Player 12", "PLAYER 1O", "P\u029fayer 12", "Player\u2800 12", "ＰＬＡＹＥＲ １２", "P1ayer 7"):
        assert generated(name_key(written)), written
    assert not generated(name_key("Player One")) and not generated(name_key("The Player 12"))


@pytest.mark.parametrize("name", ["\u2800", "\u200b\u200d", " \u3164 ", "\u0301", "...", "-", "\ufe0f"])
def test_a_name_with_no_letter_or_digit_that_can_be_seen_is_unseen(name):
    assert unseen_name(name)


@pytest.mark.parametrize("name", ["Al", "7", "李", "Ann-Lee", "Zoë"])
def test_a_name_with_a_letter_or_digit_is_seen(name):
    assert not unseen_name(name)


def test_a_key_is_bounded_whatever_the_name():
    assert len(name_key("\ufdfa" * 10_000)) <= 100 and len(name_key("A" * 10_000)) == 100
