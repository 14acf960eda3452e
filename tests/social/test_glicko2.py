"""Our Glicko-2 against the worked example of Glickman's paper, and the score-margin term."""

import pytest

from social import glicko2
from social.glicko2 import Rating, Result, margin_score, rate


def test_the_papers_worked_example():
    # "Example of the Glicko-2 system" (Glickman): 1500/200/0.06 against 1400/30 (win),
    # 1550/100 (loss) and 1700/300 (loss), tau 0.5 -> 1464.06 / 151.52 / 0.05999.
    player = Rating(1500, 200, 0.06)
    results = [
        Result(Rating(1400, 30), 1),
        Result(Rating(1550, 100), 0),
        Result(Rating(1700, 300), 0),
    ]
    new = rate(player, results, tau=0.5)
    assert new.rating == pytest.approx(1464.06, abs=0.02)
    assert new.deviation == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)


def test_tau_matters_and_the_default_is_the_papers():
    assert glicko2.TAU == 0.5
    player, results = Rating(1500, 200, 0.06), [Result(Rating(1400, 30), 0)]
    assert rate(player, results, tau=1.2).volatility != rate(player, results).volatility


def test_a_win_raises_and_a_loss_lowers_symmetrically():
    a, b = Rating(), Rating()
    up = rate(a, [Result(b, 1)])
    down = rate(b, [Result(a, 0)])
    assert up.rating > 1500 > down.rating
    assert up.rating - 1500 == pytest.approx(1500 - down.rating)
    assert up.deviation < 350


def test_an_idle_period_widens_the_deviation_only():
    new = rate(Rating(1600, 80, 0.06), [])
    assert new.rating == 1600 and new.deviation > 80


def test_minimum_deviation_is_kept():
    strong = Rating(1500, 31, 0.06)
    assert rate(strong, [Result(Rating(1500, 30), 1)], min_deviation=30).deviation >= 30


@pytest.mark.parametrize(
    ("margin", "score"),
    [(0, 0.5), (1, 0.802), (50, 0.9), (100, 1.0), (250, 1.0), (-1, 0.198), (-100, 0.0)],
)
def test_margin_score(margin, score):
    assert margin_score(margin) == pytest.approx(score, abs=0.001)


def test_a_win_against_the_points_counts_as_the_narrowest_win():
    # Resigning while ahead: the winner has fewer points but still won.
    assert margin_score(-30, won=True) == pytest.approx(0.8)
    assert margin_score(30, won=False) == pytest.approx(0.2)


def test_a_big_win_moves_the_rating_more_than_a_narrow_one():
    a, b = Rating(), Rating()
    narrow = rate(a, [Result(b, margin_score(2))])
    big = rate(a, [Result(b, margin_score(150))])
    assert big.rating > narrow.rating > 1500
