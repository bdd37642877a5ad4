"""Every variant the server serves, by name: the declarations of the presenter packages.

Each package ``app/present/<variant>/`` that exports ``DECLARATION`` is found here by itself, so a new
variant touches nothing outside its own two packages (its rules in ``app/rules/<variant>/``, which the
rules-only registry finds the same way). ``add_package`` serves a variant from a package elsewhere.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from app.present.base import Presenter
from app.present.declaration import Declaration
from app.rules import registry as rules_registry


def discover(package: str = "app.present") -> dict[str, Declaration]:
    """The declarations of the subpackages of ``package``, by variant name, each checked."""
    found: dict[str, Declaration] = {}
    for module in pkgutil.iter_modules(importlib.import_module(package).__path__):
        if module.ispkg:
            declaration = getattr(importlib.import_module(f"{package}.{module.name}"), "DECLARATION", None)
            if isinstance(declaration, Declaration):
                declaration.check()
                found[declaration.name] = declaration
    return dict(sorted(found.items()))


DECLARATIONS: dict[str, Declaration] = discover()


def declaration_for(variant_name: str) -> Declaration:
    """The declaration of a served variant (KeyError for an unknown one)."""
    return DECLARATIONS[variant_name]


@cache
def presenter_for(variant_name: str) -> Presenter:
    """The presenter of a served variant (KeyError for an unknown one)."""
    declaration = DECLARATIONS[variant_name]
    return declaration.presenter(declaration.rules)


def register(declaration: Declaration) -> None:
    """Serve one more variant, rules and all (its rules join the rules-only registry too)."""
    declaration.check()
    DECLARATIONS[declaration.name] = declaration
    rules_registry.register(declaration.rules)
    presenter_for.cache_clear()


def unregister(variant_name: str) -> None:
    """Stop serving a variant ``register`` added."""
    DECLARATIONS.pop(variant_name, None)
    rules_registry.unregister(variant_name)
    presenter_for.cache_clear()


def add_package(module_name: str) -> Declaration:
    """Serve the variant a package outside ``app`` declares (``DECLARATION`` in its ``__init__``)."""
    declaration = importlib.import_module(module_name).DECLARATION
    if not isinstance(declaration, Declaration):
        raise TypeError(f"{module_name}.DECLARATION is no Declaration")
    register(declaration)
    return declaration
