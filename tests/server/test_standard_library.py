"""The server leaves shared modules as they are: no part of it patches the standard library's mail parser."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent.parent


def test_importing_every_module_of_the_app_leaves_the_feed_parser_as_it_is():
    """Run in a fresh interpreter: the feed parser's own patterns before and after importing the whole app."""
    script = (
        "import email.feedparser as f, pkgutil, importlib, re\n"
        "before = {name: getattr(f, name) for name in dir(f)}\n"
        "import app\n"
        "for module in pkgutil.walk_packages(app.__path__, 'app.'):\n"
        "    importlib.import_module(module.name)\n"
        "changed = sorted(name for name in dir(f) if before.get(name) is not getattr(f, name))\n"
        "assert changed == [], changed\n"
        "assert f.re is re and f.NLCRE_eol.pattern == r'(\\r\\n|\\r|\\n)\\Z', f.NLCRE_eol\n"
    )
    subprocess.run([sys.executable, "-c", script], cwd=ROOT, check=True, timeout=120)

