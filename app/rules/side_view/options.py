"""The options of Side View Chess (SV-5): ``physics`` and ``setup``."""

from __future__ import annotations

from typing import Any

from app.rules.base import OptionError

PHYSICS = (1, 2, 3)
SETUPS = ("standard", "chess960", "hidden")
DEFAULT_OPTIONS: dict[str, Any] = {"physics": 3, "setup": "standard"}


def parse_options(raw: dict[str, Any]) -> dict[str, Any]:
    """Complete ``raw`` with the defaults; raises OptionError naming what is wrong and what is accepted.

    Parsing its own output gives the same options, so stored options can be read again.
    """
    options = dict(DEFAULT_OPTIONS)
    for key, value in raw.items():
        if key == "physics":
            text = str(value).strip()
            if text not in {str(number) for number in PHYSICS}:
                raise OptionError(f"physics must be 1, 2 or 3, not {value!r}")
            options["physics"] = int(text)
        elif key == "setup":
            text = str(value).strip().lower()
            if text not in SETUPS:
                raise OptionError(f"setup must be one of {', '.join(SETUPS)}, not {value!r}")
            options["setup"] = text
        else:
            raise OptionError(f"unknown option {key!r} for side-view; known: physics, setup")
    return options
