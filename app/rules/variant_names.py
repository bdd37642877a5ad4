"""Variants named as people write them: one reader for every place a player names a game (``seek``,
``challenge``, ``rules``, ``tournament`` by mail, the command line and the web's forms), so that a game is
named the same way everywhere.

A game is named by its name or its title, in any case, with spaces, hyphens or underscores between its words
or none (``side-view``, ``Side View Chess``, ``Side-View``, ``sideview``), and its title may leave out a
leading "Through the" and a closing "Chess" (``looking glass``, ``palindromic``). The registry's own names and
titles: a new variant is read by being declared.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from app.rules.registry import VARIANTS

_BARE_TITLE = re.compile(r"^(?:through )?the |(?<=.) chess$")


def spelt(name: str) -> str:
    """A game's name as compared: its letters and digits in lower case ("Toy-Chess" -> "toychess")."""
    return "".join(char for char in name.lower() if char.isalnum())


def spellings(name: str, title: str) -> set[str]:
    """Every way of writing one game that names it, as compared (``spelt``)."""
    words = " ".join(re.split(r"[\s_\-]+", title.lower())).strip()
    return {spelt(name), spelt(title), spelt(_BARE_TITLE.sub("", words))}


NAMES = {spelling: name for name, variant in VARIANTS.items() for spelling in spellings(name, variant.title)}
LONGEST_NAME = max(len(re.split(r"[\s_\-]+", text)) for variant in VARIANTS.values()
                   for text in (variant.name, variant.title))  # words of a game's longest name or title


def variant_named(words: Sequence[str]) -> tuple[str, int] | None:
    """The variant the first words name, and how many words name it (the most that do); None when they name
    none."""
    for count in range(min(len(words), LONGEST_NAME), 0, -1):
        found = NAMES.get(spelt(" ".join(words[:count])))
        if found is not None:
            return found, count
    return None


def nearest_variant(text: str) -> str | None:
    """The variant whose name is nearest to ``text`` (a misspelling), None when none is near."""
    nearest = difflib.get_close_matches(spelt(text), list(NAMES), n=1, cutoff=0.6)
    return NAMES[nearest[0]] if nearest else None
