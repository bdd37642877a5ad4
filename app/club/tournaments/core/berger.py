"""Round robin pairings by the Berger tables of the FIDE Handbook (C.05, Annex 1).

With N places (the number of entrants, plus an empty place when it is odd), round r pairs the places i and j
(both below N) whose sum is r + 1, counted modulo N - 1; place N meets the one whose double is. The Handbook's
boards follow from that: board 1 holds place N, White in the even rounds and Black in the odd ones; on every
other board the first place named has White. With an odd number of entrants, the one paired with the empty
place has no game that round (they rest).
"""

from __future__ import annotations

from collections.abc import Sequence

from app.club.tournaments.core.values import Pairing, TournamentError


def berger_rounds(entrants: int) -> list[list[tuple[int, int]]]:
    """Every round of a round robin of ``entrants`` players, each as its boards' (White, Black) places, numbered
    from 1 in the entrants' ranked order, in the Handbook's board order; with an odd number, the game with the
    empty place is left out."""
    if entrants < 2:
        raise TournamentError("a round robin needs at least two players")
    places = entrants + entrants % 2
    rounds = []
    for number in range(1, places):
        boards = [_first_board(places, number)] + [_board(places, number, board) for board in range(2, places // 2 + 1)]
        rounds.append([pair for pair in boards if places not in pair or places == entrants])
    return rounds


def round_robin_pairings(ranked: Sequence[int]) -> list[Pairing]:
    """The rounds of a round robin of the players ``ranked`` (best first: place 1 is ``ranked[0]``), by their ids;
    with an odd number, each round names the one who rests."""
    if len(set(ranked)) != len(ranked):
        raise TournamentError("each player enters a round robin once")
    pairings = []
    for boards in berger_rounds(len(ranked)):
        games = tuple((ranked[white - 1], ranked[black - 1]) for white, black in boards)
        playing = {player for game in games for player in game}
        resting = [player for player in ranked if player not in playing]
        pairings.append(Pairing(games, rests=resting[0] if resting else None))
    return pairings


def _wrap(place: int, places: int) -> int:
    """A place counted round the circle of places 1 .. places - 1."""
    return (place - 1) % (places - 1) + 1


def _first_place(places: int, number: int) -> int:
    """The place named first on board 1 of round ``number``, before the last place's opponent (Annex 1's order)."""
    half_rounds = (number + 1) // 2
    return half_rounds - 1 if number % 2 else places // 2 + half_rounds - 1


def _first_board(places: int, number: int) -> tuple[int, int]:
    opponent = _wrap(_first_place(places, number) + 1, places)
    return (opponent, places) if number % 2 else (places, opponent)


def _board(places: int, number: int, board: int) -> tuple[int, int]:
    white = _wrap(_first_place(places, number) + board, places)
    return white, _wrap(number + 1 - white, places)
