"""Tournaments' pure core: plain values in and out, no web, database or mail (docs/tournaments.md tells players
the rules it follows).

- ``read_terms(words, today=...)`` / ``terms_from(variant, ...)``: an announcement's terms (``Terms``), or
  ``TermsError`` saying what is wrong;
- ``ranked(entrants)``: the entrants by rating, then order of entry: their places and starting numbers;
- ``round_robin_pairings(ranked)`` (``berger_rounds(n)`` by places): every round of a round robin by the FIDE
  Berger tables;
- ``pair_next_round(SwissHistory(...))``: a Swiss's next round by the FIDE (Dutch) system, or
  ``PairingImpossible``;
- ``standings(format, ranked, rounds)``: places, points and FIDE tie-breaks (``TIE_BREAKS`` names them).
"""

from app.club.tournaments.core.berger import berger_rounds, round_robin_pairings
from app.club.tournaments.core.ranking import ranked
from app.club.tournaments.core.standings import TIE_BREAKS, StandingsLine, standings
from app.club.tournaments.core.swiss import SwissHistory, default_swiss_rounds, pair_next_round, swiss_report
from app.club.tournaments.core.terms import Terms, TermsError, read_terms, terms_from
from app.club.tournaments.core.values import (
    BLACK_WINS,
    DRAW,
    ROUND_ROBIN,
    SWISS,
    WHITE_WINS,
    Game,
    Pairing,
    PairingImpossible,
    Round,
    TournamentError,
)

__all__ = [
    "BLACK_WINS", "DRAW", "ROUND_ROBIN", "SWISS", "TIE_BREAKS", "WHITE_WINS", "Game", "Pairing", "PairingImpossible",
    "Round", "StandingsLine", "SwissHistory", "Terms", "TermsError", "TournamentError", "berger_rounds",
    "default_swiss_rounds", "pair_next_round", "ranked", "read_terms", "round_robin_pairings", "standings",
    "swiss_report", "terms_from",
]
