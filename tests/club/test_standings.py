"""Standings and tie-breaks (FIDE Handbook C.07, the Tie-Break Regulations of 2023) on tables worked by hand:
each expected value is written out with its arithmetic."""

import pytest

from app.club.tournaments.core.standings import TIE_BREAKS, standings
from app.club.tournaments.core.values import (
    BLACK_WINS,
    DRAW,
    ROUND_ROBIN,
    SWISS,
    WHITE_WINS,
    Game,
    Round,
    TournamentError,
)


def table(format, players, rounds):
    return [(line.place, line.player, line.points, line.tie_breaks, line.games, line.shared)
            for line in standings(format, players, rounds)]


def test_round_robin_of_five_ties_broken_by_sonneborn_berger():
    """Five players on the Berger table for 5 or 6 (one rests each round).
    Results: 1-2 draw, 1 beat 3, 4 beat 1, 1 beat 5, 2 beat 3, 2-4 draw, 5 beat 2, 3 beat 4, 3-5 draw, 5 beat 4.
    Points: 1: 1/2+1+0+1 = 2.5; 2: 1/2+1+1/2+0 = 2; 3: 0+0+1+1/2 = 1.5; 4: 1+1/2+0+0 = 1.5; 5: 0+1+1/2+1 = 2.5.
    Sonneborn-Berger (opponent's points x what was scored against them):
      1: 2x1/2 + 1.5x1 + 1.5x0 + 2.5x1 = 1 + 1.5 + 0 + 2.5 = 5
      5: 2.5x0 + 2x1 + 1.5x1/2 + 1.5x1 = 0 + 2 + 0.75 + 1.5 = 4.25
      2: 2.5x1/2 + 1.5x1 + 1.5x1/2 + 2.5x0 = 1.25 + 1.5 + 0.75 + 0 = 3.5
      4: 2.5x1 + 2x1/2 + 1.5x0 + 2.5x0 = 2.5 + 1 = 3.5
      3: 2.5x0 + 2x0 + 1.5x1 + 2.5x1/2 = 1.5 + 1.25 = 2.75
    Wins: 1: 2, 5: 2, 2: 1, 4: 1, 3: 1."""
    rounds = [
        Round((Game(2, 5, BLACK_WINS), Game(3, 4, WHITE_WINS))),  # 1 rests
        Round((Game(5, 3, DRAW), Game(1, 2, DRAW))),  # 4 rests
        Round((Game(3, 1, BLACK_WINS), Game(4, 5, BLACK_WINS))),  # 2 rests
        Round((Game(1, 4, BLACK_WINS), Game(2, 3, WHITE_WINS))),  # 5 rests
        Round((Game(4, 2, DRAW), Game(5, 1, BLACK_WINS))),  # 3 rests
    ]
    assert table(ROUND_ROBIN, [1, 2, 3, 4, 5], rounds) == [
        (1, 1, 2.5, (5.0, 2.0), 4, False),
        (2, 5, 2.5, (4.25, 2.0), 4, False),
        (3, 2, 2.0, (3.5, 1.0), 4, False),
        (4, 4, 1.5, (3.5, 1.0), 4, False),
        (5, 3, 1.5, (2.75, 1.0), 4, False),
    ]


def test_round_robin_equal_on_points_and_sonneborn_berger_is_decided_by_wins_and_then_shared():
    """Four players (Berger: 1-4 2-3 / 4-3 1-2 / 2-4 3-1). 4 beat 1, 2-3 draw, 3 beat 4, 1-2 draw, 2-4 draw,
    1 beat 3. Everyone has 1.5 points.
    Sonneborn-Berger: 1: 1.5x0 + 1.5x1/2 + 1.5x1 = 2.25; 2: 1.5x1/2 x 3 = 2.25; 3: 1.5x1/2 + 1.5x1 + 1.5x0 = 2.25;
    4: 1.5x1 + 1.5x0 + 1.5x1/2 = 2.25. Wins: 1, 3 and 4 one each, 2 none: 1, 3, 4 share first place (in
    their ranked order), 2 is fourth."""
    rounds = [
        Round((Game(1, 4, BLACK_WINS), Game(2, 3, DRAW))),
        Round((Game(4, 3, BLACK_WINS), Game(1, 2, DRAW))),
        Round((Game(2, 4, DRAW), Game(3, 1, BLACK_WINS))),
    ]
    assert table(ROUND_ROBIN, [1, 2, 3, 4], rounds) == [
        (1, 1, 1.5, (2.25, 1.0), 3, True),
        (1, 3, 1.5, (2.25, 1.0), 3, True),
        (1, 4, 1.5, (2.25, 1.0), 3, True),
        (4, 2, 1.5, (2.25, 0.0), 3, False),
    ]


def test_a_round_robin_under_way_counts_the_finished_games_only():
    """All games start at once; two have ended. 1 beat 2 (1 point, SB 0x1 = 0, one win), 3 drew 4."""
    rounds = [Round((Game(1, 4), Game(2, 3))), Round((Game(4, 3, DRAW), Game(1, 2, WHITE_WINS))),
              Round((Game(2, 4), Game(3, 1)))]
    assert table(ROUND_ROBIN, [1, 2, 3, 4], rounds) == [
        (1, 1, 1.0, (0.0, 1.0), 1, False),
        (2, 3, 0.5, (0.25, 0.0), 1, True),
        (2, 4, 0.5, (0.25, 0.0), 1, True),
        (4, 2, 0.0, (0.0, 0.0), 1, False),
    ]


def test_a_round_robin_game_won_without_play_counts_as_a_game_and_a_win():
    """2 withdrew before moving against 1: 1 wins (SB 0x1 = 0, one win). 3 beat 4 over the board."""
    rounds = [Round((Game(1, 2, WHITE_WINS, played=False), Game(3, 4, WHITE_WINS)))]
    assert table(ROUND_ROBIN, [1, 2, 3, 4], rounds)[:2] == [
        (1, 1, 1.0, (0.0, 1.0), 1, True),
        (1, 3, 1.0, (0.0, 1.0), 1, True),
    ]


def test_swiss_with_a_bye_a_win_without_play_and_a_withdrawal():
    """Five players, three rounds.
    Round 1: 1 beat 3, 2 beat 4 (4-2 0-1), 5 the bye. Round 2: 5-1 draw, 2 beat 3 without play (3 never moved),
    4 the bye. Then 3 withdrew. Round 3: 1 beat 2 (2-1 0-1), 4-5 draw; 3 sits it out.
    Points: 1: 1+1/2+1 = 2.5; 2: 1+1+0 = 2; 3: 0+0+0 = 0; 4: 0+1+1/2 = 1.5; 5: 1+1/2+1/2 = 2.
    As opponents count them: 3's last round not voluntarily unplayed is round 1; round 2 (a game lost without
    play) keeps its 0, round 3 (sat out) counts as a draw: 0+0+1/2 = 0.5. The others as their points.
    Each round's value (a game played: the opponent's points as counted; otherwise the player's own points):
      1: 0.5 (3), 2 (5), 2 (2): Buchholz 4.5; no round voluntarily unplayed, the least (0.5) cut: 4;
         Sonneborn-Berger 0.5x1 + 2x1/2 + 2x1 = 3.5
      2: 1.5 (4), own 2 (won without play), 2.5 (1): Buchholz 6; cut 1.5: 4.5; SB 1.5x1 + 2x1 + 2.5x0 = 3.5
      3: 2.5 (1), own 0 (lost without play), own 0 (sat out): Buchholz 2.5; a voluntarily unplayed round is cut
         first (0): 2.5; SB 2.5x0 + 0 + 0 = 0
      4: 2 (2), own 1.5 (the bye), 2 (5): Buchholz 5.5; cut 1.5: 4; SB 2x0 + 1.5x1 + 2x1/2 = 2.5
      5: own 2 (the bye), 2.5 (1), 1.5 (4): Buchholz 6; cut 1.5: 4.5; SB 2x1 + 2.5x1/2 + 1.5x1/2 = 4
    2 and 5 are equal on points, Cut-1 and Buchholz; Sonneborn-Berger puts 5 ahead."""
    rounds = [
        Round((Game(1, 3, WHITE_WINS), Game(4, 2, BLACK_WINS)), bye=5),
        Round((Game(5, 1, DRAW), Game(2, 3, WHITE_WINS, played=False)), bye=4),
        Round((Game(2, 1, BLACK_WINS), Game(4, 5, DRAW))),
    ]
    assert table(SWISS, [1, 2, 3, 4, 5], rounds) == [
        (1, 1, 2.5, (4.0, 4.5, 3.5), 3, False),
        (2, 5, 2.0, (4.5, 6.0, 4.0), 2, False),
        (3, 2, 2.0, (4.5, 6.0, 3.5), 3, False),
        (4, 4, 1.5, (4.0, 5.5, 2.5), 2, False),
        (5, 3, 0.0, (2.5, 2.5, 0.0), 2, False),
    ]


def test_swiss_cut_one_cuts_a_game_lost_without_play_before_a_weaker_opponent():
    """Four players. Round 1: 1 beat 4, 2 beat 3. Round 2: 1 lost to 2 without play (never moved), 3 beat 4.
    Round 3: 1 beat 3, 2 beat 4. Points: 1: 2, 2: 3, 3: 1, 4: 0.
    1's rounds: 0 (4), own 2 (lost without play), 1 (3): Buchholz 3. Cut-1 takes the voluntarily unplayed
    round (2), not the weakest opponent (0): 1. Sonneborn-Berger 0x1 + 2x0 + 1x1 = 1."""
    rounds = [
        Round((Game(1, 4, WHITE_WINS), Game(2, 3, WHITE_WINS))),
        Round((Game(1, 2, BLACK_WINS, played=False), Game(3, 4, WHITE_WINS))),
        Round((Game(1, 3, WHITE_WINS), Game(2, 4, WHITE_WINS))),
    ]
    first = {line.player: line for line in standings(SWISS, [1, 2, 3, 4], rounds)}[1]
    assert (first.points, first.tie_breaks) == (2.0, (1.0, 3.0, 1.0))


def test_everyone_equal_shares_first_place():
    rounds = [Round((Game(1, 2, DRAW), Game(3, 4, DRAW)))]
    assert [(line.place, line.shared) for line in standings(SWISS, [1, 2, 3, 4], rounds)] == [(1, True)] * 4


def test_the_tie_breaks_are_named_in_their_order():
    assert TIE_BREAKS == {ROUND_ROBIN: ("Sonneborn-Berger", "wins"),
                          SWISS: ("Buchholz Cut-1", "Buchholz", "Sonneborn-Berger")}


def test_before_any_round_everyone_shares_first_place_with_nothing():
    assert table(SWISS, [5, 6, 7, 8], [])[0] == (1, 5, 0.0, (0.0, 0.0, 0.0), 0, True)


@pytest.mark.parametrize(("format", "players", "rounds", "message"), [
    ("knockout", [1, 2], [], "round-robin or swiss"),
    (SWISS, [1, 1, 2], [], "once"),
    (SWISS, [1, 2, 3, 4], [Round((Game(1, 2, DRAW), Game(1, 3, DRAW)))], "round 1 names a player twice"),
    (SWISS, [1, 2, 3, 4], [Round((Game(1, 9, DRAW),))], "did not enter"),
])
def test_what_cannot_be_is_refused(format, players, rounds, message):
    with pytest.raises(TournamentError, match=message):
        standings(format, players, rounds)

