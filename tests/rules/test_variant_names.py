"""A game is named the same way everywhere (``app.rules.variant_names``): by its name or its title, in any
case, with spaces, hyphens, underscores or nothing between its words; every variant the registry declares."""

from __future__ import annotations

import re

import pytest

from app.rules.registry import VARIANTS
from app.rules.variant_names import nearest_variant, variant_named


def spellings_of(name: str, title: str) -> list[str]:
    """Ways a player writes a game: its name and title as they are, in capitals, in lower case, with spaces,
    hyphens or underscores between the words, or run together."""
    found = []
    for written in (name, title):
        words = re.split(r"[\s\-_]+", written)
        found += [written, written.upper(), written.lower(), " ".join(words), "-".join(words), "_".join(words),
                  "".join(words), " ".join(words).title()]
    return list(dict.fromkeys(found))


SPELLINGS = [(name, spelling) for name, variant in VARIANTS.items()
             for spelling in spellings_of(name, variant.title)]


@pytest.mark.parametrize(("name", "spelling"), SPELLINGS)
def test_every_variant_is_named_by_its_name_or_its_title_however_written(name, spelling):
    words = spelling.split()
    assert variant_named(words) == (name, len(words))
    assert variant_named([*words, "days=3", "rated"]) == (name, len(words))  # the words after it are its terms


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_misspelt_name_is_answered_with_the_nearest(name):
    misspelt = name[1] + name[0] + name[2:]  # the first two letters swapped
    assert variant_named([misspelt]) is None
    assert nearest_variant(misspelt) == name


def test_words_that_name_no_game_name_none():
    assert variant_named(["chess"]) is None and variant_named([]) is None and variant_named(["days=3"]) is None
