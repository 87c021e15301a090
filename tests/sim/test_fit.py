"""The balance statistics against direct computations: Fieller against a scan of the Wald tests statsmodels
itself reports, LOS and Elo against their definitions, the deviance against statsmodels' grouped fit."""
import math

import pytest

pytest.importorskip("statsmodels")

import numpy as np
import statsmodels.api as sm
from scipy.stats import norm

from paperrobot.sim import synthetic
from paperrobot.sim.fit import Z95, elo_difference, fieller, fit_sweep, los, wilson
from paperrobot.sim.stats import wilson_interval


def sweep(games=200, levels=(10, 20, 30, 40, 50, 60, 70), base=7, **kw):
    h, y, g = [], [], []
    for level in levels:
        for i in range(games):
            outcome = synthetic.play(base * 100_000 + i, level, **kw)
            h.append(level)
            y.append(1.0 if outcome.winner == "robot" else 0.5 if outcome.winner is None else 0.0)
            g.append(i)
    return h, y, g


def glm(h, y, g):
    X = np.column_stack([np.ones(len(h)), np.asarray(h, float)])
    return sm.GLM(np.asarray(y), X, family=sm.families.Binomial()).fit(cov_type="cluster", cov_kwds={"groups": g})


def test_fieller_is_the_set_where_statsmodels_wald_test_does_not_reject():
    h, y, g = sweep(games=60, draw=0.1)
    result = glm(h, y, g)
    fit = fit_sweep(h, y, g)
    assert fit.b0 == pytest.approx(result.params[0]) and fit.b1 == pytest.approx(result.params[1])
    def kept(x):  # statsmodels' own z test of b0 + b1 x = 0 with the clustered covariance
        return result.t_test(np.array([[1.0, x]])).pvalue > 0.05

    grid = np.arange(-20.0, 100.0, 0.25)
    inside = [x for x in grid if kept(x)]
    assert inside == [x for x in grid if inside[0] <= x <= inside[-1]]  # one interval, no holes

    def edge(a, b):  # bisect between a kept and a rejected point
        for _ in range(40):
            m = (a + b) / 2
            a, b = (m, b) if kept(m) else (a, m)
        return a
    assert fit.interval.bounded and fit.interval.low < fit.h50 < fit.interval.high
    assert edge(inside[0], inside[0] - 0.25) == pytest.approx(fit.interval.low, abs=1e-6)
    assert edge(inside[-1], inside[-1] + 0.25) == pytest.approx(fit.interval.high, abs=1e-6)


def test_fieller_reports_no_interval_when_the_slope_is_not_clearly_non_zero():
    flat = fieller(b0=0.1, b1=0.01, v00=0.01, v01=0.0, v11=0.0001)  # b1^2 = 1e-4 <= z^2 v11 = 3.8e-4
    assert not flat.bounded and flat.leading <= 0 and flat.half_width == math.inf
    # a coin-flip game (the win chance does not move with the handicap): no finite interval
    h, y, g = sweep(games=100, slope=0.0, shared=0.0)
    assert not fit_sweep(h, y, g).interval.bounded
    # the same with common random numbers: every seed scores the same at every level, b1 = 0, v11 = 0
    h, y, g = sweep(games=40, slope=0.0)
    assert not fit_sweep(h, y, g).interval.bounded
    # a robot that does worse with more points: the quadratic is bounded, but there is no even point to give
    h, y, g = sweep(games=200, slope=-0.05)
    fit = fit_sweep(h, y, g)
    assert fit.interval.leading > 0 and fit.b1 < 0 and not fit.slope_positive


def test_fieller_roots_solve_the_quadratic_and_match_a_direct_scan():
    b0, b1, v00, v01, v11 = -1.5, 0.037, 0.02, -3e-4, 8e-6
    f = fieller(b0, b1, v00, v01, v11)
    for x in (f.low, f.high):
        assert (b0 + x * b1) ** 2 == pytest.approx(Z95 ** 2 * (v00 + 2 * x * v01 + x * x * v11))
    inside = [x for x in np.arange(0, 100, 0.001)
              if abs(b0 + b1 * x) / math.sqrt(v00 + 2 * x * v01 + x * x * v11) <= Z95]
    assert inside[0] == pytest.approx(f.low, abs=0.0011) and inside[-1] == pytest.approx(f.high, abs=0.0011)


def test_the_fit_recovers_the_true_curve_and_its_checks_agree_with_statsmodels():
    h, y, g = sweep(games=1000, draw=0.0)
    fit = fit_sweep(h, y, g)
    assert fit.h50 == pytest.approx(synthetic.TRUE_H50, abs=2.5)
    assert fit.b1 == pytest.approx(synthetic.TRUE_SLOPE, rel=0.15)
    assert fit.slope_at_50 == fit.b1 / 4 and fit.clusters == 1000 and fit.games == 7000
    # deviance per level: the grouped binomial fit has the same estimates and its deviance is our sum
    counts = np.array([[lv.wins + 0.5 * lv.draws, lv.games - lv.wins - 0.5 * lv.draws] for lv in fit.levels])
    X = np.column_stack([np.ones(len(fit.levels)), [lv.handicap for lv in fit.levels]])
    grouped = sm.GLM(counts, X, family=sm.families.Binomial()).fit()
    assert grouped.params == pytest.approx([fit.b0, fit.b1], rel=1e-6)
    assert fit.deviance == pytest.approx(grouped.deviance, rel=1e-6)
    assert sum(lv.residual ** 2 for lv in fit.levels) == pytest.approx(fit.deviance)
    assert [lv.residual for lv in fit.levels] == pytest.approx(list(grouped.resid_deviance), rel=1e-6)
    assert fit.df == 5


def test_wilson_intervals_are_statsmodels_and_agree_with_the_project_formula():
    for k, n in ((0, 10), (3, 10), (150, 200), (200, 200)):
        assert wilson(k, n) == pytest.approx(wilson_interval(k, n))
    low, high = wilson(10.5, 20)  # draws count as halves
    assert low < 10.5 / 20 < high


def test_a_wilson_interval_holds_its_share_even_at_none_and_all():
    """0 of 28 once gave a lower bound of 1e-17 by rounding, and a sweep's plot (an error bar below zero) crashed."""
    for n in range(1, 300):
        for k in (0, 1, n - 1, n):
            for low, high in (wilson(k, n), wilson_interval(k, n)):
                assert 0.0 <= low <= k / n <= high <= 1.0, (k, n, low, high)


def test_los_is_the_normal_approximation_of_its_definition():
    for w, l in ((10, 5), (5, 10), (349, 228), (0, 3), (7, 7)):
        # P(true win rate > true loss rate) ~ Phi((W - L) / sqrt(W + L))
        assert los(w, l) == pytest.approx(norm.cdf((w - l) / math.sqrt(w + l)), abs=1e-12)
    assert los(0, 0) == 0.5


def test_los_matches_a_posterior_simulation_for_large_counts():
    rng = np.random.default_rng(1)
    w, d, l = 349, 895, 228
    samples = rng.dirichlet([w + 1, d + 1, l + 1], size=200_000)
    assert los(w, l) == pytest.approx(np.mean(samples[:, 0] > samples[:, 2]), abs=0.005)


def test_elo_difference_from_the_score_fraction():
    assert elo_difference(10, 0, 10).elo == pytest.approx(0.0)
    e = elo_difference(75, 0, 25)
    assert e.elo == pytest.approx(-400 * math.log10(1 / 0.75 - 1)) and e.elo == pytest.approx(190.85, abs=0.01)
    se = math.sqrt(0.75 * 0.25 / 100)  # no draws: the trinomial variance is the binomial one
    assert e.low == pytest.approx(-400 * math.log10(1 / (0.75 - Z95 * se) - 1))
    assert e.high == pytest.approx(-400 * math.log10(1 / (0.75 + Z95 * se) - 1))
    # OpenBench's example block: N 1472 W 349 L 228 D 895 -> Elo 28.62 +- 10.58
    e = elo_difference(349, 895, 228)
    assert e.elo == pytest.approx(28.62, abs=0.01)
    # its +-10.58 comes from pentanomial game pairs, which have less variance than our trinomial count
    assert 10.58 < (e.high - e.low) / 2 < 11.5
    assert elo_difference(5, 0, 0).elo == math.inf
