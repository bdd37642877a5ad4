"""The plain values a tournament's core reads and answers with: formats, games, rounds, pairings, errors.

Players are the caller's own ids (whole numbers); a tournament's entrants are given in ranked order, so that
an entrant's place in that order is their pairing number (Berger place, Swiss starting rank).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Format = Literal["round-robin", "swiss"]
ROUND_ROBIN: Format = "round-robin"
SWISS: Format = "swiss"
FORMATS: tuple[Format, ...] = (ROUND_ROBIN, SWISS)

WHITE_WINS, BLACK_WINS, DRAW = "1-0", "0-1", "1/2-1/2"
RESULTS = (WHITE_WINS, BLACK_WINS, DRAW)
WHITE_POINTS = {WHITE_WINS: 1.0, BLACK_WINS: 0.0, DRAW: 0.5}  # points are halves: exact as floats
BYE_POINTS = 1.0  # the Swiss pairing-allocated bye


class TournamentError(ValueError):
    """Something a tournament's core cannot do with what it was given; the message says what, in plain words."""


class PairingImpossible(TournamentError):
    """No next round satisfies the Dutch system's absolute criteria (typically: everyone still playing has met
    everyone else): the Swiss ends with the rounds already played."""


@dataclass(frozen=True, slots=True)
class Game:
    """One game of a round: who has White and Black, its result once it has ended (None while it is under way),
    and whether it was played. ``played=False`` marks a forfeit: the game was decided before its loser made a
    move (they withdrew, or let their first move's time run out); FIDE counts such a game apart for colours and
    some tie-breaks, and the two never meet again all the same."""

    white: int
    black: int
    result: str | None = None
    played: bool = True

    def __post_init__(self) -> None:
        if self.white == self.black:
            raise TournamentError("a game needs two different players")
        if self.result is not None and self.result not in RESULTS:
            raise TournamentError(f"a game's result is one of {', '.join(RESULTS)}")
        if not self.played and self.result == DRAW:
            raise TournamentError("a game decided without play is won by one side, not drawn")

    def points(self, player: int) -> float:
        """What ``player`` scored in this finished game."""
        assert self.result is not None
        return WHITE_POINTS[self.result] if player == self.white else 1.0 - WHITE_POINTS[self.result]

    def opponent(self, player: int) -> int:
        return self.black if player == self.white else self.white


@dataclass(frozen=True, slots=True)
class Round:
    """One round: its games and, in a Swiss, the player given the pairing-allocated bye (one point, no game).
    An entrant in neither sat the round out: the empty place of an odd round robin, or a Swiss round after
    they withdrew."""

    games: tuple[Game, ...] = ()
    bye: int | None = None

    def players(self) -> list[int]:
        return [player for game in self.games for player in (game.white, game.black)] + \
            ([self.bye] if self.bye is not None else [])


@dataclass(frozen=True, slots=True)
class Pairing:
    """The pairings of one round: each game as (White, Black) by the caller's ids, board by board; in a Swiss the
    player given the bye (one point, no game); in a round robin of an odd number the one who rests (no game, no
    point)."""

    games: tuple[tuple[int, int], ...]
    bye: int | None = None
    rests: int | None = None
