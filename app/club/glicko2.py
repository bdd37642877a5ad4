"""Glicko-2, as Glickman sets it out in "Example of the Glicko-2 system": pure arithmetic, no database.

A rating is three numbers: the rating itself, its deviation (how unsure it is) and its volatility (how
erratic the player's results are). A rating period takes the games the player played in it, each against
an opponent's rating as it stood at the start of the period, and gives the rating after it. The club rates
each game's end as one period for its two players (``rate_game``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2's scale: a rating of 1500 is 0, and 173.7178 rating points are 1
CENTRE = 1500.0
TAU = 0.5  # the system constant: how much the volatility may change in one period
EPSILON = 0.000001  # the convergence tolerance of the volatility's iteration (Glickman's value)
MOST_STEPS = 200  # the iteration converges in a handful of steps; a bound all the same


@dataclass(frozen=True)
class Glicko:
    """A rating on the Glicko scale: rating, deviation and volatility."""

    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06


def g(phi: float) -> float:
    """How much a result counts for, given the opponent's deviation (on the Glicko-2 scale)."""
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def expected(mu: float, mu_j: float, phi_j: float) -> float:
    """The score expected against an opponent (on the Glicko-2 scale)."""
    return 1 / (1 + math.exp(-g(phi_j) * (mu - mu_j)))


def new_volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the new volatility, the root of Glickman's ``f`` found by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0 and k < MOST_STEPS:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    for _step in range(MOST_STEPS):
        if abs(big_b - big_a) <= EPSILON:
            break
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:  # "<=": a root hit exactly ends the iteration rather than halving for ever
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def rate(player: Glicko, games: Sequence[tuple[Glicko, float]], tau: float = TAU) -> Glicko:
    """The player's rating after one period with these games (each the opponent's rating at the start of the
    period and the player's score: 1 a win, 0.5 a draw, 0 a loss). With no games only the deviation grows."""
    mu, phi, sigma = (player.rating - CENTRE) / SCALE, player.deviation / SCALE, player.volatility
    if not games:
        return Glicko(player.rating, math.sqrt(phi * phi + sigma * sigma) * SCALE, sigma)
    opponents = [((opponent.rating - CENTRE) / SCALE, opponent.deviation / SCALE, score)
                 for opponent, score in games]
    v = 1 / sum(g(phi_j) ** 2 * (e := expected(mu, mu_j, phi_j)) * (1 - e) for mu_j, phi_j, _ in opponents)
    improvement = sum(g(phi_j) * (score - expected(mu, mu_j, phi_j)) for mu_j, phi_j, score in opponents)
    sigma_new = new_volatility(phi, sigma, v * improvement, v, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu_new = mu + phi_new * phi_new * improvement
    return Glicko(mu_new * SCALE + CENTRE, phi_new * SCALE, sigma_new)


def rate_game(white: Glicko, black: Glicko, white_score: float, tau: float = TAU) -> tuple[Glicko, Glicko]:
    """One game's end as one rating period for each of its two players: both rated from the ratings they had
    before it."""
    return rate(white, [(black, white_score)], tau), rate(black, [(white, 1 - white_score)], tau)
