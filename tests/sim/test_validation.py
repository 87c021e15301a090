"""The statistics validated on synthetic games whose true even point is known (docs/balance.md has the
figures): the 95 % Fieller interval covers the truth about 95 % of the time, and a mirror matchup's holds 0."""
from functools import partial

import pytest

pytest.importorskip("statsmodels")

from paperrobot.sim import synthetic
from paperrobot.sim.balance import BalanceStore, Matchup, Plan, run_sweep
from paperrobot.sim.chunks import LocalEngine


def test_fieller_coverage_of_the_true_even_point_is_close_to_95_percent():
    # 200 fixed sweeps of 7 levels x 50 seeds, with draws and partly shared random numbers
    result = synthetic.coverage(200, 50, draw=0.05, shared=0.8)
    assert result["no_interval"] == 0
    assert 0.90 <= result["coverage"] <= 0.99, result


def test_a_mirror_matchup_gives_an_interval_holding_zero():
    mirror = Matchup("synthetic/mirror", "mirror", partial(synthetic.play, h50=0.0, draw=0.1, shared=0.8),
                     opponent="robot")
    with LocalEngine(1) as engine:
        sweep = run_sweep(mirror, Plan(games_per_level=200, probe_games=200), BalanceStore(None), engine)
    assert sweep.bracket[0] < 0 < sweep.bracket[1]
    assert sweep.fit.interval.low < 0 < sweep.fit.interval.high


@pytest.mark.slow
@pytest.mark.parametrize("shared", [1.0, 0.5, 0.0])
def test_coverage_over_1000_sweeps(shared):
    result = synthetic.coverage(1000, 100, draw=0.05, shared=shared)
    assert 0.93 <= result["coverage"] <= 0.97, result


@pytest.mark.slow
def test_coverage_with_the_precision_stopping_rule():
    result = synthetic.stopping_coverage(200, precision=6.0, draw=0.05, shared=0.8)
    assert 0.90 <= result["coverage"] <= 0.99, result
