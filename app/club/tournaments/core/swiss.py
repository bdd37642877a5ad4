"""The next round of a Swiss, by the FIDE (Dutch) system (C.04.3), paired by py4swiss.

py4swiss follows bbpPairings (the engine lichess pairs its Swiss events with) and gives the same pairings; it
reads the tournament's history as a TRF(x), FIDE's tournament report file with JaVaFo's extensions. The history
is written as one here, in memory, with the entrants' ranks as starting numbers:

- a game played: its colour and 1, = or 0; a game decided without play: + or - (its colours then count for
  nothing, as FIDE has it, and the two are forbidden to meet again (XXP): no two players meet twice);
- the bye: U, the pairing-allocated bye (one point; the system never gives it twice, nor to a player who has
  won a game without play);
- a round a player sat out after withdrawing: Z (nothing), and the withdrawn are left out of the next round
  (XXZ);
- the top seed has White in the first round (XXC white1), where FIDE leaves it to a draw.

The system relaxes its colour rules for one case only: in the last round, two players above half of the
possible points may both be due the same colour, and one of them then gets it a third time running, or three
more games with it than with the other.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from py4swiss.engines import DutchEngine
from py4swiss.engines.common import PairingError
from py4swiss.trf import ParsedTrf, TrfLine
from py4swiss.trf.codes import PlayerCode, TeamCode, TournamentCode, XCode
from py4swiss.trf.exceptions import ConsistencyError, LineError, ParsingError
from py4swiss.trf.results import ColorToken, ResultToken, RoundResult
from py4swiss.trf.sections import PlayerSection, TeamSection, TournamentSection, XSection
from py4swiss.trf.sections.x_section import XSectionConfiguration

from app.club.tournaments.core.values import DRAW, Game, Pairing, PairingImpossible, Round, TournamentError

FEWEST, MOST = 4, 128  # entrants in a Swiss, withdrawn ones included


def default_swiss_rounds(players: int) -> int:
    """The least number of rounds that can leave one player alone on full points, plus one, and never more
    rounds than there are opponents: ceil(log2(players)) + 1, at most players - 1."""
    return min((players - 1).bit_length() + 1, players - 1)


@dataclass(frozen=True)
class SwissHistory:
    """A Swiss so far: the entrants in ranked order (best first; their starting numbers follow), every round
    paired so far (each ended: no game under way), how many rounds the event has, and who has withdrawn."""

    players: tuple[int, ...]
    rounds: tuple[Round, ...]
    total_rounds: int
    withdrawn: frozenset[int] = frozenset()


def pair_next_round(history: SwissHistory) -> Pairing:
    """The pairings of the round after ``history``'s: each game (White, Black) by the players' ids, ordered
    as the system publishes them (top boards first), and the bye. Raises TournamentError for a history that
    cannot be (a round not over, a player twice in a round, every round already paired...), and
    PairingImpossible when no pairing satisfies the system's absolute criteria."""
    pairs = pair_report(swiss_report(history))
    games = tuple((history.players[white - 1], history.players[black - 1]) for white, black in pairs if black)
    byes = [history.players[white - 1] for white, black in pairs if not black]
    return Pairing(games, bye=byes[0] if byes else None)


def swiss_report(history: SwissHistory) -> str:
    """``history`` as a TRF(x) (the text an arbiter's program would read), checked whole first."""
    _check(history)
    number = {player: index for index, player in enumerate(history.players, start=1)}
    results: dict[int, list[RoundResult]] = {player: [] for player in history.players}
    forbidden: set[tuple[int, int]] = set()
    for paired in history.rounds:
        seen: set[int] = set()
        for game in paired.games:
            for player in (game.white, game.black):
                results[player].append(_result(game, player, number))
                seen.add(player)
            if not game.played:
                forbidden.add((number[game.white], number[game.black]))
        if paired.bye is not None:
            results[paired.bye].append(RoundResult(id=0, color=ColorToken.BYE_OR_NOT_PAIRED,
                                                   result=ResultToken.PAIRING_ALLOCATED_BYE))
            seen.add(paired.bye)
        for player in set(history.players) - seen:
            results[player].append(RoundResult(id=0, color=ColorToken.BYE_OR_NOT_PAIRED,
                                               result=ResultToken.ZERO_POINT_BYE))
    x_section = XSection(number_of_rounds=history.total_rounds, zeroed_ids={number[p] for p in history.withdrawn},
                         configuration=XSectionConfiguration(first_round_color=True), forbidden_pairs=forbidden)
    sections = [PlayerSection(code=PlayerCode.PLAYER, starting_number=number[player], rank=number[player],
                              points_times_ten=sum(x_section.scoring_point_system.get_points_times_ten(result)
                                                   for result in results[player]),
                              results=results[player]) for player in history.players]
    return "\n".join([*(section.to_string() for section in sections), *x_section.to_strings()]) + "\n"


def pair_report(report: str) -> list[tuple[int, int]]:
    """The next round of the tournament a TRF(x) ``report`` describes, paired by the Dutch system: each pair as
    (White, Black) by starting numbers, 0 as Black for the bye. The report is read strictly, in memory, by
    py4swiss's own readers of each line (its parser reads files only)."""
    try:
        trf = _read_report(report)
    except (ParsingError, LineError, ConsistencyError, ValueError) as error:
        raise TournamentError(f"the tournament report cannot be read: {error}") from None
    active = [section for section in trf.player_sections
              if section.starting_number not in trf.x_section.zeroed_ids]
    if len(active) < 2:
        raise PairingImpossible("fewer than two players are left to pair")
    try:
        pairings = DutchEngine.generate_pairings(trf)
    except PairingError:
        raise PairingImpossible("no pairing of the next round meets the Dutch system's absolute criteria: "
                                "everyone still playing has met everyone they could") from None
    return [(pairing.white, pairing.black) for pairing in pairings]


def _read_report(report: str) -> ParsedTrf:
    lines: dict[type, list[TrfLine]] = defaultdict(list)
    for index, text in enumerate(report.splitlines()):
        if text.strip() and not text.lstrip().startswith("#"):
            line = TrfLine(index, text.rstrip())
            lines[line.code_type].append(line)
    trf = ParsedTrf(player_sections=[PlayerSection.from_string(str(line)) for line in lines[PlayerCode]],
                    team_sections=[TeamSection.from_string(str(line)) for line in lines[TeamCode]],
                    tournament_section=TournamentSection.from_lines(lines[TournamentCode]),
                    x_section=XSection.from_lines(lines[XCode]))
    trf.validate_contents()
    return trf


def _result(game: Game, player: int, number: dict[int, int]) -> RoundResult:
    colour = ColorToken.WHITE if player == game.white else ColorToken.BLACK
    points = game.points(player)
    if not game.played:
        token = ResultToken.FORFEIT_WIN if points else ResultToken.FORFEIT_LOSS
    else:
        token = ResultToken.DRAW if game.result == DRAW else ResultToken.WIN if points else ResultToken.LOSS
    return RoundResult(id=number[game.opponent(player)], color=colour, result=token)


def _check(history: SwissHistory) -> None:
    """A history the system can pair from, or TournamentError saying what is wrong with it."""
    players = set(history.players)
    if len(players) != len(history.players):
        raise TournamentError("each player enters a Swiss once")
    if not FEWEST <= len(players) <= MOST:
        raise TournamentError(f"a Swiss has {FEWEST} to {MOST} players")
    if not 1 <= history.total_rounds <= len(players) - 1:
        raise TournamentError(f"a Swiss of {len(players)} players has 1 to {len(players) - 1} rounds")
    if len(history.rounds) >= history.total_rounds:
        raise TournamentError(f"all {history.total_rounds} rounds have been paired")
    if not history.withdrawn <= players:
        raise TournamentError("only an entrant can withdraw")
    for index, paired in enumerate(history.rounds, start=1):
        named = paired.players()
        if len(set(named)) != len(named) or not set(named) <= players:
            raise TournamentError(f"round {index} names a player twice or one who did not enter")
        if any(game.result is None for game in paired.games):
            raise TournamentError(f"round {index} is not over")
