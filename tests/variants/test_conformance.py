"""The conformance suite, run for every declared variant (docs/variants.md): a variant
that the registry serves must pass every check of ``tests/variants/conformance.py``."""

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
