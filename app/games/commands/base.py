"""A mail command as one object (``MailCommand``), and what it works with (``Jobs``, ``InGame``, ``InLobby``).

Moves and the referee's own commands (``resign``, draw offers, ``setup`` ...) are read by the
variant. Every other command is a ``MailCommand``: its name, how its argument is written, one
line of help and what carries it out, in a reply about a game, in a mail to the bare address, or
there only once its sender confirms (``Held``). ``help`` and the order forms are written from these
objects (``app.games.commands.registry`` lists them, with the commands a variant's presenter adds).
A command is carried out by the game service's jobs, handed to it in its context: it never sees the
service itself, which reads the commands.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from functools import cached_property
from typing import TYPE_CHECKING

from app.games.commands.reading import Command

if TYPE_CHECKING:
    from app.config import Settings
    from app.games.digest.digests import Digests
    from app.games.lobby.invitations import Invitations
    from app.games.lobby.preferences import Preferences
    from app.games.mail.mailing import Mailer
    from app.games.mail.mails import Mails
    from app.games.play.clocks import Clocks
    from app.games.play.turn import Turn
    from app.games.records.events import EventRecord
    from app.games.records.rows import GameRecord, PlayerRecord
    from app.games.records.work import UnitOfWork
    from app.outbound.render import Document

GAME, LOBBY = "game", "lobby"  # where a command is understood: a reply in a game, or mail to the bare address
FORM, ALSO = "form", "also"  # how the order forms show a command: a form of its own, or named after the last one
NEAREST = 3  # commands named for a line that names none
NEAR_ENOUGH = 0.6  # difflib's ratio below which a command is not named as meant


@dataclass(frozen=True)
class Jobs:
    """The jobs of one game service, each doing one thing in its transaction: what the commands (and the parts
    of the service that read them) work with, and the commands it reads (``book``). A layer above the game
    service (the club) hands its commands jobs of its own by extending this."""

    settings: Settings
    work: UnitOfWork
    mailer: Mailer
    events: EventRecord
    turn: Turn
    clocks: Clocks
    invitations: Invitations
    preferences: Preferences
    digests: Digests
    book: CommandBook


@dataclass
class InGame:
    """What a command in a reply about a game works on: the game (locked), the sender, the mails of the reply."""

    jobs: Jobs
    game: GameRecord
    side: str
    player: PlayerRecord
    mails: Mails


Notify = Callable[[str, str, list[str], "Document | None"], None]


@dataclass
class InLobby:
    """What a command to the bare address works on: its sender, answered by ``notify`` (which sends only while
    answers to that address are allowed); what was done, refused and held, for the inbound record. ``proven``:
    the mail is proven to come from its sender (DKIM or SPF, or a reply carrying a key only they were sent), so
    an answer may quote their own words back to them."""

    jobs: Jobs
    player: PlayerRecord
    notify: Notify
    proven: bool = False
    done: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    held: list[str] = field(default_factory=list)

    def tell(self, kind: str, subject: str, paragraphs: list[str], document: Document | None = None) -> None:
        self.notify(kind, subject, paragraphs, document)


@dataclass(frozen=True)
class Held:
    """A command to the bare address carried out only once its sender confirms by a reply: such a mail proves
    nothing about its From. ``check`` reads the argument and writes it again in the referee's words (raising
    ServiceError, which quotes nothing of the mail); ``describe`` says what will be done, for the "please
    confirm" mail; ``carry_out`` does it once confirmed and says what was done."""

    check: Callable[[InLobby, str], str]
    describe: Callable[[str], str]
    carry_out: Callable[[InLobby, str], str]
    describe_found: Callable[[InLobby, str], str] | None = None  # ``describe`` with what the argument names, read
    # now (a seek: its game, its seeker and their rating), for a command whose argument is only a number

    def described(self, context: InLobby, argument: str) -> str:
        """What will be done, for the "please confirm" mail."""
        return self.describe_found(context, argument) if self.describe_found else self.describe(argument)


@dataclass(frozen=True)
class MailCommand:
    """One command beside the orders: its name (one or more words), how its argument is written, one line of help,
    and what carries it out in a game reply (``in_game``), in a mail to the bare address at once (``in_lobby``)
    or there once confirmed (``held``). ``form``: how the order forms show it (FORM, ALSO, or not at all).
    ``also``: other names people write it by (``ratings`` for ``rating``, ``join seek`` for ``join``), read as
    its name; help and the confirmations write the name."""

    name: str
    argument: str
    help: str
    in_game: Callable[[InGame, Command], None] | None = None
    in_lobby: Callable[[InLobby, Command], None] | None = None
    held: Held | None = None
    form: str = ""
    also: tuple[str, ...] = ()

    @property
    def spellings(self) -> tuple[str, ...]:
        """Every name the command is read by, its own first."""
        return (self.name, *self.also)

    @property
    def usage(self) -> str:
        """The command as help writes it: ``say <text>``."""
        return f"{self.name} {self.argument}".strip()

    @property
    def where(self) -> frozenset[str]:
        return frozenset(([GAME] if self.in_game else []) + ([LOBBY] if self.in_lobby or self.held else []))


def first_words(commands: Sequence[MailCommand]) -> frozenset[str]:
    """The words that start a command line: what the reader looks for at the start of a line."""
    return frozenset(spelling.split()[0] for command in commands for spelling in command.spellings)


def find(commands: Sequence[MailCommand], line: Command) -> tuple[MailCommand, Command] | None:
    """The command a line names (the longest name its words start with, its own or another it is written by),
    and the line under the command's name with the rest of the name taken off its argument (``cancel seek 3``
    and ``cancel 3``: the argument ``3``); None when no command has that name."""
    words = [line.kind.lower(), *(word.lower() for word in line.argument.split())]
    spelt = sorted(((spelling.split(), command) for command in commands for spelling in command.spellings),
                   key=lambda each: -len(each[0]))
    for name, command in spelt:
        if words[: len(name)] != name:
            continue
        if len(name) == 1:
            return command, Command(command.name, line.text, line.argument)
        rest = line.argument.strip().split(None, len(name) - 1)[len(name) - 1 :]
        return command, Command(command.name, line.text, rest[0] if rest else "")
    return None


def nearest(commands: Sequence[MailCommand], text: str, most: int = NEAREST) -> list[MailCommand]:
    """The commands a line that names none most likely meant, nearest first: its first words against each name a
    command is written by, and the line against the command as help writes it (difflib's ratio); none below
    ``NEAR_ENOUGH``."""
    words = text.lower().split()

    def closeness(command: MailCommand) -> float:
        names = (SequenceMatcher(None, " ".join(words[: len(spelling.split())]), spelling).ratio()
                 for spelling in command.spellings)
        return max(*names, SequenceMatcher(None, " ".join(words), command.usage.lower()).ratio())

    scored = sorted(((closeness(command), index, command) for index, command in enumerate(commands)),
                    key=lambda each: (-each[0], each[1]))
    return [command for score, _index, command in scored[:most] if score >= NEAR_ENOUGH]


def help_line(commands: Sequence[MailCommand]) -> str:
    """Every command with its one line of help, in the order given."""
    return "Commands: " + "; ".join(f"{command.usage} ({command.help})" for command in commands) + "."


def order_forms(commands: Sequence[MailCommand]) -> list[tuple[str, str]]:
    """The command lines of the order forms: each FORM command with its help, the ALSO ones named after the last."""
    forms = [(command.usage, command.help) for command in commands if command.form == FORM]
    also = [command.usage for command in commands if command.form == ALSO]
    if forms and also:
        forms[-1] = (forms[-1][0], f"{forms[-1][1]}; also: {', '.join(also)}")
    return forms


@dataclass(frozen=True)
class CommandBook:
    """The commands a service reads: those of a reply about a game and those of a mail to the bare address, with
    the first words the reader looks for. The game service has its own; the layer above adds the club's."""

    commands: tuple[MailCommand, ...]

    @cached_property
    def game(self) -> tuple[MailCommand, ...]:
        return tuple(command for command in self.commands if command.in_game)

    @cached_property
    def lobby(self) -> tuple[MailCommand, ...]:
        return tuple(command for command in self.commands if command.in_lobby or command.held)

    @cached_property
    def game_words(self) -> frozenset[str]:
        return first_words(self.game)

    @cached_property
    def lobby_words(self) -> frozenset[str]:
        return first_words(self.lobby)
