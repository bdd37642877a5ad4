"""The tournaments' core is pure: plain values in and out, nothing of the web, the database, mail or the game
service; it reads the variants through app.rules and pairs a Swiss through py4swiss."""

import sys
from pathlib import Path

from tests.test_architecture import imports_of

CORE = Path(__file__).parent.parent.parent / "app" / "club" / "tournaments" / "core"
ALLOWED = ("app.club.tournaments.core", "app.rules", "py4swiss", "__future__")


def test_the_core_imports_only_the_standard_library_the_rules_and_py4swiss():
    modules = sorted(CORE.glob("*.py"))
    assert {path.name for path in modules} >= {"berger.py", "swiss.py", "standings.py", "terms.py", "values.py"}
    for path in modules:
        for name in imports_of(path):
            top = name.split(".")[0]
            assert name.startswith(ALLOWED) or top in sys.stdlib_module_names, (path.name, name)
