"""Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2022 revision of the 2001 paper),
our own implementation in pure Python: steps 1-8 of the paper for one rating period.

Each game is its own rating period here (ratings change after every game, as on Lichess and
Woogles). ``tests/social/test_glicko2.py`` checks it against the paper's worked example:
a 1500/200/0.06 player against 1400/30, 1550/100 and 1700/300 with results 1, 0, 0 ends at
r' = 1464.06, RD' = 151.52, sigma' = 0.05999.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

SCALE = 173.7178  # 400 / ln(10): Glicko-2's scale conversion
DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06
TAU = 0.5  # the system constant: how much volatility may change (the paper suggests 0.3-1.2)
EPSILON = 0.000001  # convergence tolerance of step 5
MIN_DEVIATION = 30.0  # nobody becomes certain beyond this (keeps ratings able to move)


@dataclass(frozen=True)
class Rating:
    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY


@dataclass(frozen=True)
class Result:
    """One game against ``opponent``: ``score`` 1 win, 0.5 draw, 0 loss (or in between)."""

    opponent: Rating
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the Illinois algorithm on f(x) = 0 (the paper's iteration)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        num = ex * (delta * delta - phi * phi - v - ex)
        den = 2.0 * (phi * phi + v + ex) ** 2
        return num / den - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a = f_a / 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Rating, results: Iterable[Result], *, tau: float = TAU,
         min_deviation: float = 0.0) -> Rating:
    """The player's rating after one rating period with ``results`` (steps 1-8)."""
    results = list(results)
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not results:
        # Step 6 only: an idle period widens the deviation.
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, min(phi_star * SCALE, DEFAULT_DEVIATION), sigma)
    # Step 3 and 4: the estimated variance and the improvement.
    v_inv = 0.0
    delta_sum = 0.0
    for r in results:
        mu_j = (r.opponent.rating - DEFAULT_RATING) / SCALE
        phi_j = r.opponent.deviation / SCALE
        e = _e(mu, mu_j, phi_j)
        g = _g(phi_j)
        v_inv += g * g * e * (1.0 - e)
        delta_sum += g * (r.score - e)
    v = 1.0 / v_inv
    delta = v * delta_sum
    sigma_new = _new_volatility(sigma, phi, v, delta, tau)  # step 5
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)  # step 6
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)  # step 7
    mu_new = mu + phi_new * phi_new * delta_sum
    deviation = min(max(phi_new * SCALE, min_deviation), DEFAULT_DEVIATION)  # step 8
    return Rating(mu_new * SCALE + DEFAULT_RATING, deviation, sigma_new)


# --- the score-margin term (Crazy10s) -----------------------------------------------------
# Like Woogles' ratings for word games, the spread counts, not only who won: the result score
# Glicko sees is moved towards 1 (or 0) by the margin, so a 150-point win says more about
# strength than a 2-point one. The win itself still carries most of it:
#   score = 0.5 + 0.5 * (WIN_SHARE + (1 - WIN_SHARE) * min(|margin| / MARGIN_CAP, 1))
# for the winner, and 1 - score for the loser; a draw is 0.5. With WIN_SHARE 0.6 and
# MARGIN_CAP 100 points: a 1-point win scores 0.80, a 50-point win 0.90, 100 or more 1.0.
WIN_SHARE = 0.6
MARGIN_CAP = 100


def margin_score(margin: int, *, won: bool | None = None) -> float:
    """The Glicko result of the player whose final score is ``margin`` above the other's.

    ``won`` is the game's verdict when it is not the points' (a resignation or a timeout):
    the winner then gets at least the narrowest win's score, whatever the points say."""
    if won is None:
        if margin == 0:
            return 0.5
        won = margin > 0
    spread = max(margin if won else -margin, 0)
    strength = WIN_SHARE + (1.0 - WIN_SHARE) * min(spread / MARGIN_CAP, 1.0)
    score = 0.5 + 0.5 * strength
    return score if won else 1.0 - score
