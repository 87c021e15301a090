"""The Ray engine plays the same chunks to the same rows as the local engine, bit for bit (a local Ray of
2 CPUs). Marked ``ray``: excluded from the default run, run by .ci/run after installing the ray extra."""
from functools import partial

import pytest

pytestmark = pytest.mark.ray

ray = pytest.importorskip("ray")
pytest.importorskip("statsmodels")

from paperrobot.sim import synthetic
from paperrobot.sim.balance import BalanceStore, Matchup, Plan, run_sweep
from paperrobot.sim.chunks import Chunk, LocalEngine, play_chunk
from paperrobot.sim.ray_engine import RayEngine

PLAY = partial(synthetic.play, draw=0.05, shared=0.8, h50=25.0)


@pytest.fixture(scope="module")
def engine():
    with RayEngine(jobs=2) as engine:
        yield engine


def test_ray_tasks_give_the_local_rows_bit_for_bit(engine):
    chunks = [Chunk(PLAY, "robot", 9, level, tuple(range(k, k + 30))) for level in (0, 20, 45) for k in (0, 30, 60)]
    local = sorted(row for c in chunks for row in play_chunk(c))
    remote = sorted(row for rows in engine.map(chunks) for row in rows)
    assert remote == local


def test_a_whole_sweep_on_ray_equals_the_local_sweep(engine):
    matchup = Matchup("synthetic/ray", "synthetic", PLAY)
    plan = Plan(games_per_level=60, probe_games=60, chunk=20)
    on_ray = run_sweep(matchup, plan, BalanceStore(None), engine)
    with LocalEngine(1) as local:
        here = run_sweep(matchup, plan, BalanceStore(None), local)
    assert on_ray.fit.to_dict() == here.fit.to_dict() and on_ray.probes == here.probes


def test_the_command_with_engine_ray_gives_the_local_report(engine, tmp_path):
    from typer.testing import CliRunner

    from paperrobot.cli.main import app
    from tests.sim import synthetic_game

    synthetic_game.register()
    try:
        runner = CliRunner()
        small = ["--games-per-level", "40", "--probe-games", "40", "--quiet", "--h50", "30"]
        reports = []
        for name in ("ray", "local"):
            result = runner.invoke(app, ["balance", "synthetic-balance", "--engine", name, "--jobs", "2",
                                         "--out", str(tmp_path / name), *small])
            assert result.exit_code == 0, result.output
            reports.append(next((tmp_path / name).glob("*.json")).read_text())
        assert reports[0].count('"fit"') == 1
        import json
        assert json.loads(reports[0])["fit"] == json.loads(reports[1])["fit"]
    finally:
        synthetic_game.unregister()
