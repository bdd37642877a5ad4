"""docs/commands.md names every command of ``manage.py`` (each of a group's too), every benchmark suite in the
``bench`` row, and the mail commands of a reply about a game: the page is read by operators and players, and
a command it leaves out is one they never learn of."""

from __future__ import annotations

import re
from pathlib import Path

import click

from app.cli import cli
from app.games.commands.registry import GAME_COMMANDS
from benchmarks import SUITES

PAGE = (Path(__file__).parent.parent / "docs" / "commands.md").read_text()


def command_lines(group: click.Group, prefix: str) -> list[str]:
    found = []
    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            found += command_lines(command, f"{prefix} {name}")
        else:
            found.append(f"{prefix} {name}")
    return found


def test_every_command_line_command_has_its_row():
    rows = [line for line in PAGE.splitlines() if line.startswith("| `python3 manage.py ")]
    missing = [command for command in command_lines(cli, "python3 manage.py")
               if not any(row.startswith(f"| `{command}") for row in rows)]
    assert missing == []


def test_the_bench_row_names_every_suite():
    row = next(line for line in PAGE.splitlines() if line.startswith("| `python3 manage.py bench ["))
    usage = row.split("`")[1]
    assert [suite for suite in SUITES if not re.search(rf"\[{suite}[\] ]", usage)] == []


def test_the_reply_table_names_accept_and_decline():
    replies = PAGE.split("In a reply about a game", 1)[1].split("To the referee's bare address", 1)[0]
    for word in ("accept", "decline"):
        assert any(command.name == word for command in GAME_COMMANDS)
        assert f"`{word}`" in replies, word
