"""Entrants' places: by rating in the tournament's variant, then by order of entry."""

from app.club.tournaments.core.ranking import ranked


def test_entrants_are_ranked_by_rating_then_by_order_of_entry():
    assert ranked([(7, 1500.0), (3, 1720.5), (9, 1500.0), (4, 1810.0), (5, 1499.9)]) == [4, 3, 7, 9, 5]


def test_nobody_is_lost_or_doubled():
    entrants = [(player, float(player % 3)) for player in range(1, 20)]
    assert sorted(ranked(entrants)) == list(range(1, 20))
