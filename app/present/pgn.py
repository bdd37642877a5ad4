"""The record of a game as PGN, the file the game-over mail carries for a variant a chess program can replay.

A presenter supplies its moves in PGN's notation and any tags its start needs (``Variant``, ``SetUp``,
``FEN``); the seven tags every PGN has and the lines of 72 characters are written here.
"""

from __future__ import annotations

from datetime import date

from app.present.words import Names

PLAIN = str.maketrans({'"': "'", "\\": "/"})
WIDTH = 72
PGN_TYPE = "text/x-chess-pgn"


def tag(name: str, value: str) -> str:
    """A PGN tag pair. A quote or backslash in a player's name becomes ' or /: some readers unescape
    backslash escapes and others (python-chess) do not, so leaving none reads the same everywhere."""
    return f'[{name} "{value.translate(PLAIN)}"]'


def wrapped(words: list[str], width: int = WIDTH) -> list[str]:
    """Move text in lines of at most ``width`` characters, a word never split."""
    lines, line = [], ""
    for word in words:
        if len(line) + len(word) + 1 > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return [*lines, line]


def pgn_file(title: str, names: Names, result: str | None, started: date | None, moves: list[str],
             start_tags: tuple[tuple[str, str], ...] = ()) -> tuple[str, str, str]:
    """(extension, type, text) of the PGN of a game: the seven tags (``started``, the day the game began, is the
    Date), the start's own tags, then the move text (lines of ``moves`` as ``wrapped`` writes them)."""
    day = started.strftime("%Y.%m.%d") if started else "????.??.??"
    tags = [tag(name, value) for name, value in (
        ("Event", f"Mirrorpost: {title}"), ("Site", "?"), ("Date", day), ("Round", "-"),
        ("White", names.white), ("Black", names.black), ("Result", result or "*"), *start_tags)]
    return "pgn", PGN_TYPE, "\n".join([*tags, "", *moves]) + "\n"
