"""One declaration per variant: everything the server and the generic tests need to serve it, in one value.

A variant's presenter package (``app/present/<variant>/``) exports ``DECLARATION``; ``app.present.registry``
finds it there. The rules themselves stay in ``app/rules/<variant>/`` (pure, found by
``app.rules.registry``); the declaration names them with the presenter, the rules page for players, a
sample game for the generic tests and the conformance suite, and the targets ``bench referee`` holds the
referee to.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from app.present.base import Presenter
from app.rules.base import Variant
from app.rules.options import Option


@dataclass(frozen=True)
class SampleGame:
    """A game the generic tests play by mail and web, and the conformance suite by the rules alone.

    ``options`` are written as a challenge writes them (``{"physics": "1"}``); a setup phase, where the
    options give one, is filled with ``518`` (the standard row) for both. ``opening`` is played from the start,
    White first, each order a move; ``refused`` is read but not played from the start (rejected, the game
    unchanged).
    """

    options: dict[str, str]
    opening: tuple[str, ...]
    refused: str


@dataclass(frozen=True)
class BenchTargets:
    """The most time the referee may take per order and per perft node, as a multiple of python-chess's
    on ordinary chess (``bench referee``); None where no target is stated."""

    ply: float | None = None
    perft: float | None = None
    moves: str = "legal"  # the baseline's move generation per ply: python-chess refereeing ordinary chess; or
    # "pseudo-legal" where an order needs no more than one side's moves without check (Looking-Glass)


@dataclass(frozen=True)
class Declaration:
    """A variant, declared: its rules, its presenter, its page of rules for players, its sample games (the first
    the main one; the others other options worth a run), the perft counts from the first sample's start
    (depth 1, 2, ...) and its bench targets."""

    rules: Variant
    presenter: type[Presenter]
    rules_page: Path
    samples: tuple[SampleGame, ...]
    perft: tuple[int, ...]
    bench: BenchTargets = BenchTargets()

    @property
    def name(self) -> str:
        return self.rules.name

    @property
    def title(self) -> str:
        return self.rules.title

    @property
    def options(self) -> tuple[Option, ...]:
        """Its options with their defaults and validation (``Variant.parse_options`` reads them)."""
        return self.rules.options

    @property
    def sample(self) -> SampleGame:
        return self.samples[0]

    def option_words(self, sample: SampleGame | None = None) -> str:
        """A sample's options as a challenge line writes them: ``physics=1 setup=hidden``."""
        return " ".join(f"{key}={value}" for key, value in (sample or self.sample).options.items())

    def check(self) -> None:
        """Raise ValueError where the declaration does not hold together (found at start-up, not in play)."""
        problems: list[str] = []
        if not self.rules.name or not self.rules.title:
            problems.append("the rules have no name or title")
        if not self.rules_page.is_file():
            problems.append(f"no rules page at {self.rules_page}")
        if not self.samples:
            problems.append("no sample game")
        for sample in self.samples:
            try:
                self.rules.parse_options(dict(sample.options))
            except ValueError as error:
                problems.append(f"sample options {sample.options}: {error}")
        if problems:
            raise ValueError(f"variant {self.rules.name!r}: " + "; ".join(problems))


def page_beside(module_file: str, name: str = "rules.md") -> Path:
    """The rules page in a presenter package, next to its ``__init__.py``."""
    return Path(module_file).resolve().parent / name

