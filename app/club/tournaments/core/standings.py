"""Standings: points, then the tie-breaks of the FIDE Handbook's C.07 (the Tie-Break Regulations of 2023,
https://handbook.fide.com/chapter/TieBreakRegulations2023), places shared where everything is equal.

Points: a win 1, a draw 1/2, a loss 0, the Swiss bye 1; a game still under way counts for nothing yet.

Round robin: Sonneborn-Berger (for each game, the opponent's points times what the player scored against
them), then wins (every game won, whether or not it was played, C.07's WIN). A game decided without play counts
as played, as C.07 has it for round robins, and a round the player rests is no round of theirs.

Swiss: Buchholz Cut-1, Buchholz, Sonneborn-Berger, with C.07's rules for unplayed rounds (article 16):
- the participant's own unplayed rounds (the bye, a game won or lost without play, a round sat out after
  withdrawing) count as a game against a dummy opponent with the participant's own points;
- an opponent's points, as they count in others' Buchholz and Sonneborn-Berger, count each round they sat out
  after their last round that was not a voluntarily unplayed one (after they withdrew) as a draw;
- a voluntarily unplayed round (a game lost without play, a round sat out) is the first cut by Cut-1, the
  least valuable of them if there are several; without one, the least valuable round is cut.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.club.tournaments.core.values import (
    BYE_POINTS,
    ROUND_ROBIN,
    SWISS,
    Format,
    Game,
    Round,
    TournamentError,
)

TIE_BREAKS: dict[str, tuple[str, ...]] = {
    ROUND_ROBIN: ("Sonneborn-Berger", "wins"),
    SWISS: ("Buchholz Cut-1", "Buchholz", "Sonneborn-Berger"),
}
DRAW_POINTS = 0.5


@dataclass(frozen=True, slots=True)
class StandingsLine:
    """One line of the standings: the place (shared when everything is equal: ``shared``), the player, their
    points, their tie-breaks in the order of ``TIE_BREAKS[format]``, and the games they have finished (a bye is
    no game)."""

    place: int
    player: int
    points: float
    tie_breaks: tuple[float, ...]
    games: int
    shared: bool = False


@dataclass(frozen=True, slots=True)
class _Entry:
    """One round of one player: a game (its opponent), or none (the bye, a round sat out); what they scored."""

    number: int
    opponent: int | None
    scored: float
    played: bool
    bye: bool = False

    @property
    def voluntarily_unplayed(self) -> bool:
        """Unplayed and not won: a game lost without play, a round sat out (C.07's VUR)."""
        return not self.played and not self.bye and self.scored < 1


def standings(format: Format, players: Sequence[int], rounds: Sequence[Round]) -> list[StandingsLine]:
    """The standings of a tournament of ``players`` (ranked, best first) after ``rounds`` (each as paired, with
    the results so far), best first; players sharing a place keep their ranked order."""
    if format not in TIE_BREAKS:
        raise TournamentError(f"a tournament is {' or '.join(TIE_BREAKS)}")
    entries = _entries(players, rounds, format == SWISS)
    points = {player: sum(entry.scored for entry in entries[player]) for player in players}
    if format == ROUND_ROBIN:
        tie_breaks = {player: _round_robin_tie_breaks(entries[player], points) for player in players}
    else:
        adjusted = {player: _adjusted_points(entries[player]) for player in players}
        tie_breaks = {player: _swiss_tie_breaks(entries[player], adjusted) for player in players}
    keys = {player: (points[player], *tie_breaks[player]) for player in players}
    order = sorted(players, key=lambda player: tuple(-value for value in keys[player]))
    return [StandingsLine(place=1 + sum(keys[other] > keys[player] for other in players), player=player,
                     points=points[player], tie_breaks=tie_breaks[player],
                     games=sum(entry.opponent is not None for entry in entries[player]),
                     shared=sum(keys[other] == keys[player] for other in players) > 1)
            for player in order]


def _entries(players: Sequence[int], rounds: Sequence[Round], sat_out_counts: bool) -> dict[int, list[_Entry]]:
    """Each player's rounds: their finished games, their bye, and (in a Swiss) the rounds they sat out; a game
    under way is left out until it ends."""
    known = set(players)
    if len(known) != len(players):
        raise TournamentError("each player enters a tournament once")
    entries: dict[int, list[_Entry]] = {player: [] for player in players}
    for number, paired in enumerate(rounds, start=1):
        named = paired.players()
        if len(set(named)) != len(named) or not set(named) <= known:
            raise TournamentError(f"round {number} names a player twice or one who did not enter")
        for game in paired.games:
            if game.result is not None:
                for player in (game.white, game.black):
                    entries[player].append(_game_entry(number, game, player))
        if paired.bye is not None:
            entries[paired.bye].append(_Entry(number, None, BYE_POINTS, played=False, bye=True))
        if sat_out_counts:
            for player in known - set(named):
                entries[player].append(_Entry(number, None, 0.0, played=False))
    return entries


def _game_entry(number: int, game: Game, player: int) -> _Entry:
    return _Entry(number, game.opponent(player), game.points(player), played=game.played)


def _round_robin_tie_breaks(entries: list[_Entry], points: dict[int, float]) -> tuple[float, float]:
    sonneborn_berger = sum(points[entry.opponent] * entry.scored for entry in entries if entry.opponent is not None)
    wins = sum(entry.scored == 1 for entry in entries)
    return sonneborn_berger, float(wins)


def _adjusted_points(entries: list[_Entry]) -> float:
    """A player's points as they count for their opponents: a round sat out after their last round not
    voluntarily unplayed (after withdrawing) counts as a draw."""
    last_active = max((entry.number for entry in entries if not entry.voluntarily_unplayed), default=0)
    return sum(DRAW_POINTS if entry.opponent is None and not entry.bye and entry.number > last_active
               else entry.scored for entry in entries)


def _swiss_tie_breaks(entries: list[_Entry], adjusted: dict[int, float]) -> tuple[float, float, float]:
    own = sum(entry.scored for entry in entries)
    values = [(entry, adjusted[entry.opponent] if entry.played and entry.opponent is not None else own)
              for entry in entries]
    buchholz = sum(value for _, value in values)
    unplayed = [value for entry, value in values if entry.voluntarily_unplayed]
    cut = min(unplayed or [value for _, value in values] or [0.0])
    sonneborn_berger = sum(value * entry.scored for entry, value in values)
    return buchholz - cut, buchholz, sonneborn_berger
