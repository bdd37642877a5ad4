"""Round robin pairings against the Berger tables printed in the FIDE Handbook (C.05, Annex 1,
https://handbook.fide.com/chapter/C05Annex1).

The tables below are transcribed from the Handbook, one line per round, each board as "White-Black" in the
Handbook's board order; a table for 2k players serves 2k - 1 players too, the one paired with place 2k resting.
The table for 9 or 10 players was checked by hand, board by board, against a second published copy (the
round robin appendix of the Vega pairing program's manual, which prints it as its sample).
"""

import itertools

import pytest

from app.club.tournaments.core.berger import berger_rounds, round_robin_pairings
from app.club.tournaments.core.values import TournamentError

HANDBOOK = {
    4: """
        1-4 2-3
        4-3 1-2
        2-4 3-1
    """,
    6: """
        1-6 2-5 3-4
        6-4 5-3 1-2
        2-6 3-1 4-5
        6-5 1-4 2-3
        3-6 4-2 5-1
    """,
    8: """
        1-8 2-7 3-6 4-5
        8-5 6-4 7-3 1-2
        2-8 3-1 4-7 5-6
        8-6 7-5 1-4 2-3
        3-8 4-2 5-1 6-7
        8-7 1-6 2-5 3-4
        4-8 5-3 6-2 7-1
    """,
    10: """
        1-10 2-9 3-8 4-7 5-6
        10-6 7-5 8-4 9-3 1-2
        2-10 3-1 4-9 5-8 6-7
        10-7 8-6 9-5 1-4 2-3
        3-10 4-2 5-1 6-9 7-8
        10-8 9-7 1-6 2-5 3-4
        4-10 5-3 6-2 7-1 8-9
        10-9 1-8 2-7 3-6 4-5
        5-10 6-4 7-3 8-2 9-1
    """,
    12: """
        1-12 2-11 3-10 4-9 5-8 6-7
        12-7 8-6 9-5 10-4 11-3 1-2
        2-12 3-1 4-11 5-10 6-9 7-8
        12-8 9-7 10-6 11-5 1-4 2-3
        3-12 4-2 5-1 6-11 7-10 8-9
        12-9 10-8 11-7 1-6 2-5 3-4
        4-12 5-3 6-2 7-1 8-11 9-10
        12-10 11-9 1-8 2-7 3-6 4-5
        5-12 6-4 7-3 8-2 9-1 10-11
        12-11 1-10 2-9 3-8 4-7 5-6
        6-12 7-5 8-4 9-3 10-2 11-1
    """,
    14: """
        1-14 2-13 3-12 4-11 5-10 6-9 7-8
        14-8 9-7 10-6 11-5 12-4 13-3 1-2
        2-14 3-1 4-13 5-12 6-11 7-10 8-9
        14-9 10-8 11-7 12-6 13-5 1-4 2-3
        3-14 4-2 5-1 6-13 7-12 8-11 9-10
        14-10 11-9 12-8 13-7 1-6 2-5 3-4
        4-14 5-3 6-2 7-1 8-13 9-12 10-11
        14-11 12-10 13-9 1-8 2-7 3-6 4-5
        5-14 6-4 7-3 8-2 9-1 10-13 11-12
        14-12 13-11 1-10 2-9 3-8 4-7 5-6
        6-14 7-5 8-4 9-3 10-2 11-1 12-13
        14-13 1-12 2-11 3-10 4-9 5-8 6-7
        7-14 8-6 9-5 10-4 11-3 12-2 13-1
    """,
    16: """
        1-16 2-15 3-14 4-13 5-12 6-11 7-10 8-9
        16-9 10-8 11-7 12-6 13-5 14-4 15-3 1-2
        2-16 3-1 4-15 5-14 6-13 7-12 8-11 9-10
        16-10 11-9 12-8 13-7 14-6 15-5 1-4 2-3
        3-16 4-2 5-1 6-15 7-14 8-13 9-12 10-11
        16-11 12-10 13-9 14-8 15-7 1-6 2-5 3-4
        4-16 5-3 6-2 7-1 8-15 9-14 10-13 11-12
        16-12 13-11 14-10 15-9 1-8 2-7 3-6 4-5
        5-16 6-4 7-3 8-2 9-1 10-15 11-14 12-13
        16-13 14-12 15-11 1-10 2-9 3-8 4-7 5-6
        6-16 7-5 8-4 9-3 10-2 11-1 12-15 13-14
        16-14 15-13 1-12 2-11 3-10 4-9 5-8 6-7
        7-16 8-6 9-5 10-4 11-3 12-2 13-1 14-15
        16-15 1-14 2-13 3-12 4-11 5-10 6-9 7-8
        8-16 9-7 10-6 11-5 12-4 13-3 14-2 15-1
    """,
}


def handbook_table(players: int) -> list[list[tuple[int, int]]]:
    """The Handbook's table for ``players`` as (White, Black) pairs, the empty place's games left out."""
    places = players + players % 2
    rounds = [[tuple(int(place) for place in board.split("-")) for board in line.split()]
              for line in HANDBOOK[places].strip().splitlines()]
    return [[pair for pair in boards if places not in pair or places == players] for boards in rounds]


@pytest.mark.parametrize("players", range(3, 17))
def test_every_round_is_the_handbooks_board_by_board(players):
    assert berger_rounds(players) == handbook_table(players)


def test_the_transcribed_tables_pair_everyone_once_each_round():
    """A check on the transcription itself: a typo would pair someone twice in a round or twice overall."""
    for places, text in HANDBOOK.items():
        rounds = [[tuple(sorted(map(int, board.split("-")))) for board in line.split()] for line in
                  text.strip().splitlines()]
        assert len(rounds) == places - 1
        assert all(sorted(itertools.chain(*boards)) == list(range(1, places + 1)) for boards in rounds)
        assert sorted(itertools.chain(*rounds)) == list(itertools.combinations(range(1, places + 1), 2))


@pytest.mark.parametrize("players", range(3, 17))
def test_every_pair_meets_once_and_colours_are_as_balanced_as_berger_makes_them(players):
    rounds = berger_rounds(players)
    games = [pair for boards in rounds for pair in boards]
    assert sorted(tuple(sorted(pair)) for pair in games) == list(itertools.combinations(range(1, players + 1), 2))
    assert len(rounds) == players - 1 + players % 2
    whites = {place: sum(white == place for white, _ in games) for place in range(1, players + 1)}
    played = players - 1
    if players % 2:  # every place rests once and has as many Whites as Blacks
        assert set(whites.values()) == {played // 2}
    else:  # half the places have one White more than Black, the other half one fewer
        assert sorted(whites.values()) == [played // 2] * (players // 2) + [played // 2 + 1] * (players // 2)


@pytest.mark.parametrize("players", range(3, 17))
def test_nobody_has_the_same_colour_three_rounds_running(players):
    """Each place alternates colours but for one repeat at most (Berger's property)."""
    rounds = berger_rounds(players)
    for place in range(1, players + 1):
        colours = "".join("W" if any(white == place for white, _ in boards) else
                          "B" if any(black == place for _, black in boards) else "" for boards in rounds)
        assert "WWW" not in colours and "BBB" not in colours, (place, colours)


def test_players_are_placed_by_their_ranking_and_an_odd_round_robin_names_who_rests():
    ranked = [40, 10, 30]  # ids, best first: 40 has place 1
    pairings = round_robin_pairings(ranked)
    # The Handbook's table for 3 or 4 players: 1-4 2-3 / 4-3 1-2 / 2-4 3-1, place 4 empty.
    assert [(pairing.games, pairing.rests, pairing.bye) for pairing in pairings] == [
        (((10, 30),), 40, None),
        (((40, 10),), 30, None),
        (((30, 40),), 10, None),
    ]


def test_an_even_round_robin_has_nobody_resting():
    assert {pairing.rests for pairing in round_robin_pairings([7, 8, 9, 6])} == {None}


def test_a_round_robin_needs_two_different_players():
    with pytest.raises(TournamentError, match="at least two"):
        berger_rounds(1)
    with pytest.raises(TournamentError, match="once"):
        round_robin_pairings([1, 2, 2])
