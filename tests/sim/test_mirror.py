"""A real mirror matchup: the same cadet ship flown by the same robot on both sides of SFB's free duel (the
two starts are point-symmetric: 2801 facing E and 0216 facing B on the 28x17 map), swept over the handicap.
The even point's 95 % Fieller interval must hold 0 (docs/balance.md)."""
import pytest

pytest.importorskip("statsmodels")

from paperrobot.sim.balance import BalanceStore, Plan, registry_matchup, run_sweep  # noqa: E402
from paperrobot.sim.chunks import LocalEngine  # noqa: E402


@pytest.mark.slow  # about 1,600 battles: 12 CPU-seconds, 40 s on the shared machine
def test_the_klingon_mirror_duel_is_even_at_handicap_zero():
    mirror = registry_matchup("sfb", {"scenario": "duel", "robot_ship": "klingon", "player_ship": "klingon"},
                              "robot")
    with LocalEngine(1) as engine:
        sweep = run_sweep(mirror, Plan(games_per_level=200, probe_games=200, levels=5), BalanceStore(None), engine)
    fit = sweep.fit
    assert fit.slope_positive, "more shield boxes must help the robot"
    assert sweep.bracket[0] < 0 < sweep.bracket[1]
    assert fit.interval.low < 0 < fit.interval.high, (fit.h50, fit.interval)
