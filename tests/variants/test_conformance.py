"""The conformance suite, run for every declared variant (docs/variants.md): a variant
that the registry serves must pass every check of ``tests/variants/conformance.py``."""

import re

import pytest

from app.present.registry import DECLARATIONS
from tests.variants import conformance

PLAYED: dict[str, list[conformance.Game]] = {}


def played(name: str) -> list[conformance.Game]:
    """The random games of a variant, played once for all its checks."""
    if name not in PLAYED:
        PLAYED[name] = conformance.games(DECLARATIONS[name])
    return PLAYED[name]


@pytest.mark.parametrize("check", sorted(conformance.CHECKS))
@pytest.mark.parametrize("name", sorted(DECLARATIONS))
def test_every_declared_variant_conforms(name, check):
    assert conformance.CHECKS[check](DECLARATIONS[name], played(name)) == []


@pytest.mark.parametrize("name", sorted(DECLARATIONS))
def test_every_declared_variant_counts_the_perft_it_declares(name):
    assert conformance.perft_matches(DECLARATIONS[name]) == []


RULE_ID = re.compile(r"\b([A-Z][A-Z0-9]*)-(\d+)[a-z]?\b")


@pytest.mark.parametrize("name", sorted(DECLARATIONS))
def test_every_declared_variant_has_a_rules_page_for_players_that_cites_its_rule_ids(name):
    """Players, and anyone who answers them, can tell which rules a section of the page tells (docs/variants.md):
    the headings name the rule ids, all of one variant."""
    headings = [line for line in DECLARATIONS[name].rules_page.read_text().splitlines() if line.startswith("## ")]
    cited = {found for line in headings for found in RULE_ID.findall(line)}
    assert len({prefix for prefix, _number in cited}) == 1 and len(cited) >= 3, headings
