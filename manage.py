#!/usr/bin/env python3
"""Mirrorpost's command line: ``python3 manage.py serve``, ``python3 manage.py test``, ...

It runs itself inside ``./.venv``, creating it and installing the requirements
first when they are missing or have changed, so a fresh clone needs nothing else.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = Path(os.environ.get("MIRRORPOST_VENV", ROOT / ".venv"))


def _requirements_for(command: str) -> Path:
    return ROOT / ("requirements-dev.txt" if command in ("test", "bench", "lint") else "requirements.txt")


def _digest(requirements: Path) -> str:
    text = "".join(path.read_text() for path in sorted(ROOT.glob("requirements*.txt")))
    return hashlib.sha256((requirements.name + text).encode()).hexdigest()


def _ensure_environment(command: str) -> None:
    """Re-run inside the project's virtualenv, installing requirements when they changed."""
    if os.environ.get("MIRRORPOST_SKIP_BOOTSTRAP"):
        return
    python = VENV / "bin" / "python"
    requirements = _requirements_for(command)
    stamp = VENV / f".installed-{requirements.stem}"
    if not python.exists():
        print(f"Creating the virtualenv in {VENV} ...", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    wanted = _digest(requirements)
    if not stamp.exists() or stamp.read_text() != wanted:
        print(f"Installing {requirements.name} ...", file=sys.stderr)
        subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", str(requirements)],
            check=True,
        )
        stamp.write_text(wanted)
    if Path(sys.prefix).resolve() != VENV.resolve():
        os.execv(str(python), [str(python), str(ROOT / "manage.py"), *sys.argv[1:]])


def main() -> None:
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    _ensure_environment(command)
    sys.path.insert(0, str(ROOT))
    from app.cli import cli

    cli(prog_name="manage.py")


if __name__ == "__main__":
    main()
