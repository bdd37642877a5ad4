"""Variants by the names used on the command line, in options and in mail: the rules only.

Every package ``app/rules/<variant>/`` that exports ``VARIANT`` (one ``Variant`` instance) is found here
by itself, so adding a variant touches nothing outside its own packages. The full declaration of a
variant (its presenter, rules page, sample game, bench targets) lives with its presenter
(``app.present.registry``); ``referee play`` and ``referee perft`` need only this.
"""

from __future__ import annotations

import importlib
import pkgutil

import app.rules
from app.rules.base import Variant

DEFAULT_VARIANT = "looking-glass"  # the game a challenge means when it names none


def discover() -> dict[str, Variant]:
    """The variants of the rules packages, by name."""
    found: dict[str, Variant] = {}
    for module in pkgutil.iter_modules(app.rules.__path__):
        if module.ispkg:
            variant = getattr(importlib.import_module(f"app.rules.{module.name}"), "VARIANT", None)
            if isinstance(variant, Variant):
                found[variant.name] = variant
    return dict(sorted(found.items()))


VARIANTS: dict[str, Variant] = discover()


def register(variant: Variant) -> None:
    """Serve one more variant from a package elsewhere (a plug-in, a test's toy)."""
    VARIANTS[variant.name] = variant


def unregister(name: str) -> None:
    VARIANTS.pop(name, None)


def get_variant(name: str) -> Variant:
    """The referee for ``name``; raises KeyError naming the known variants."""
    try:
        return VARIANTS[name]
    except KeyError:
        known = ", ".join(sorted(VARIANTS))
        raise KeyError(f"unknown variant {name!r}; known variants: {known}") from None
