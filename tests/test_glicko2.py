"""Glicko-2 against Glickman's own worked example, a period without games, and the properties a rating keeps."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.club.glicko2 import SCALE, Glicko, expected, g, rate, rate_game

EXAMPLE_PLAYER = Glicko(1500, 200, 0.06)
EXAMPLE_GAMES = [(Glicko(1400, 30), 1), (Glicko(1550, 100), 0), (Glicko(1700, 300), 0)]


def test_glickmans_worked_example_gives_his_rating_deviation_and_volatility():
    """ "Example of the Glicko-2 system": 1464.06, 151.52, 0.05999 (he rounds each step; the exact value of the
    rating is 1464.05)."""
    after = rate(EXAMPLE_PLAYER, EXAMPLE_GAMES, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_glickmans_worked_example_step_by_step_values():
    """His table of g and E at the precision he prints them, and his v and delta (worked from those rounded
    values, so they agree to within his rounding)."""
    mu, phi = 0.0, 200 / SCALE
    table = [((opponent.rating - 1500) / SCALE, opponent.deviation / SCALE) for opponent, _ in EXAMPLE_GAMES]
    assert [round(g(phi_j), 4) for _, phi_j in table] == [0.9955, 0.9531, 0.7242]
    assert [round(expected(mu, mu_j, phi_j), 3) for mu_j, phi_j in table] == [0.639, 0.432, 0.303]
    v = 1 / sum(g(phi_j) ** 2 * expected(mu, mu_j, phi_j) * (1 - expected(mu, mu_j, phi_j)) for mu_j, phi_j in table)
    delta = v * sum(g(phi_j) * (score - expected(mu, mu_j, phi_j))
                    for (mu_j, phi_j), (_, score) in zip(table, EXAMPLE_GAMES, strict=True))
    assert v == pytest.approx(1.7785, abs=0.001) and delta == pytest.approx(-0.4834, abs=0.001)
    assert phi == pytest.approx(1.1513, abs=0.0001)


def test_a_period_without_games_keeps_the_rating_and_volatility_and_grows_the_deviation():
    after = rate(EXAMPLE_PLAYER, [])
    assert after.rating == 1500 and after.volatility == 0.06
    assert after.deviation == pytest.approx(math.sqrt(200**2 + (0.06 * SCALE) ** 2))
    assert after.deviation > EXAMPLE_PLAYER.deviation


def test_a_new_players_first_win_against_another_new_player():
    """The club's starting values: 1500, 350, 0.06. The winner gains what the loser loses."""
    winner, loser = rate_game(Glicko(), Glicko(), 1)
    assert round(winner.rating) == 1662 and round(loser.rating) == 1338
    assert winner.deviation == loser.deviation == pytest.approx(290.32, abs=0.01)


def test_a_draw_between_equals_changes_neither_rating():
    white, black = rate_game(Glicko(1700, 80, 0.06), Glicko(1700, 80, 0.06), 0.5)
    assert white.rating == pytest.approx(1700) and black.rating == pytest.approx(1700)


# ------------------------------------------------------------------ properties

ratings = st.floats(0, 3000)
deviations = st.floats(30, 350)
volatilities = st.floats(0.01, 0.2)
scores = st.sampled_from([0, 0.5, 1])
anyone = st.builds(Glicko, ratings, deviations, volatilities)


@given(anyone, anyone)
def test_a_win_never_lowers_a_rating_and_a_loss_never_raises_one(player, opponent):
    assert rate(player, [(opponent, 1)]).rating >= player.rating
    assert rate(player, [(opponent, 0)]).rating <= player.rating


@given(anyone, anyone, scores)
def test_a_game_leaves_the_deviation_below_what_the_period_alone_would_make_it(player, opponent, score):
    """A game always tells something: the deviation ends below the deviation grown by the new volatility."""
    after = rate(player, [(opponent, score)])
    grown = math.sqrt((player.deviation / SCALE) ** 2 + after.volatility**2) * SCALE
    assert after.deviation < grown


@given(st.floats(800, 2600), st.floats(-400, 400), st.floats(110.01, 350), deviations, st.floats(0.03, 0.09),
       scores)
def test_a_game_shrinks_a_provisional_deviation(rating, gap, deviation, opponents_deviation, volatility, score):
    """A player not yet sure (deviation over 110, the club's provisional) against an opponent within 400 points:
    the game tells more than the period's own growth takes away. (A settled player's deviation stays near where
    the two balance, and a game against someone far off tells little.)"""
    player = Glicko(rating, deviation, volatility)
    after = rate(player, [(Glicko(rating + gap, opponents_deviation), score)])
    assert after.deviation < player.deviation


@given(anyone, anyone, scores)
def test_results_are_symmetric_about_1500(player, opponent, score):
    """Mirrored ratings with the mirrored score: the change is mirrored exactly."""
    def mirrored(rating: Glicko) -> Glicko:
        return Glicko(3000 - rating.rating, rating.deviation, rating.volatility)

    after = rate(player, [(opponent, score)])
    after_mirrored = rate(mirrored(player), [(mirrored(opponent), 1 - score)])
    assert after_mirrored.rating - (3000 - player.rating) == pytest.approx(player.rating - after.rating, abs=1e-6)
    assert after_mirrored.deviation == pytest.approx(after.deviation)
    assert after_mirrored.volatility == pytest.approx(after.volatility)


@given(ratings, ratings, deviations, volatilities, scores)
def test_between_equally_sure_players_one_gains_what_the_other_loses(white_rating, black_rating, deviation,
                                                                      volatility, score):
    white, black = Glicko(white_rating, deviation, volatility), Glicko(black_rating, deviation, volatility)
    white_after, black_after = rate_game(white, black, score)
    assert white_after.rating - white.rating == pytest.approx(black.rating - black_after.rating, abs=1e-6)
    assert white_after.deviation == pytest.approx(black_after.deviation)


@given(anyone, anyone, scores)
def test_the_game_is_the_same_whichever_side_each_played(white, black, score):
    white_after, black_after = rate_game(white, black, score)
    assert rate_game(black, white, 1 - score) == (black_after, white_after)
