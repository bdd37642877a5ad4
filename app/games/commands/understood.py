"""What the referee answers about lines it did not understand: a short word, never the whole help.

The lines are quoted (bounded, printable characters only) to a sender whose mail is proven to be theirs,
and only said to be there to any other: a mail to the bare address proves nothing of its From, and
quoting its lines back would let anyone put words of theirs into the referee's mail to someone else.
The commands named are the nearest to each line, worked out from the command objects themselves
(``nearest``), so a command added anywhere is named when it is meant.
"""

from __future__ import annotations

from collections.abc import Sequence
from difflib import get_close_matches

from app.games.commands.base import MailCommand, first_words, nearest
from app.games.commands.reading import quoted

NAMED = 4  # commands named at most in one answer
LINES_TOLD = 3  # lines said not understood in one answer
NEAR_WORD = 0.75  # difflib's ratio from which a line's first word is taken for a command word mistyped


def mistyped(lines: Sequence[str], commands: Sequence[MailCommand]) -> list[str]:
    """The lines whose first word is nearly a command's (``jion 5``): in a mail that has commands too, the lines
    worth a word; the others are chatter (a greeting, a signature)."""
    words = sorted(first_words(commands))
    return [line for line in lines if line.split() and get_close_matches(
        line.split()[0].lower().strip(".,:;!?"), words, n=1, cutoff=NEAR_WORD)]


def named(lines: Sequence[str], commands: Sequence[MailCommand]) -> list[MailCommand]:
    """The commands nearest to each line, the nearest to the first line first, each once, at most ``NAMED``."""
    found: list[MailCommand] = []
    for line in lines:
        found += [command for command in nearest(commands, line) if command not in found]
    return found[:NAMED]


def not_understood(chatter: Sequence[str], commands: Sequence[MailCommand], proven: bool) -> list[str]:
    """Paragraphs saying which lines were not understood (quoted only when ``proven``), those nearly a command
    first, and the nearest commands, each with its one line of help."""
    lines = list(dict.fromkeys([*mistyped(chatter, commands), *chatter]))[:LINES_TOLD]
    if not lines:
        return []
    if proven:
        said = [f"Not understood: {', '.join(quoted(line) for line in lines)}."]
    else:
        said = [f"{'A line' if len(lines) == 1 else 'Some lines'} of your mail could not be understood as a "
                "command."]
    near = named(lines, commands)
    if near:
        said.append(f"The nearest command{'s' if len(near) > 1 else ''}:")
        said += [f"- {command.usage}: {command.help}" for command in near]
    return said


def mistyped_problem(lines: Sequence[str], commands: Sequence[MailCommand], proven: bool) -> list[str]:
    """One sentence for each mistyped line (``mistyped``) of a mail that had commands too."""
    said = []
    for line in lines[:LINES_TOLD]:
        near = ", ".join(command.usage for command in named([line], commands))
        what = quoted(line) if proven else "A line"
        said.append(f"{what} was not understood" + (f"; the nearest: {near}" if near else ""))
    return said
