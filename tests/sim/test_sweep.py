"""The sweep on the synthetic game: bracketing, common random numbers, the store (resume, extend, refuse),
the precision rule and the local process pool."""
import sqlite3
from functools import partial

import pytest

pytest.importorskip("statsmodels")

from paperrobot.core.errors import PaperRobotError
from paperrobot.sim import synthetic
from paperrobot.sim.balance import BalanceStore, Matchup, Plan, SweepError, report_dict, report_lines, run_sweep
from paperrobot.sim.chunks import Chunk, LocalEngine, play_chunk, task_size
from paperrobot.sim.store import ResultStore

PLAY = partial(synthetic.play, draw=0.05, shared=0.8)


def matchup(play=PLAY, **kw):
    return Matchup("synthetic/test", "synthetic (h50 = 40)", play, **kw)


def sweep(store, plan=Plan(games_per_level=100, probe_games=100), m=None, jobs=1):
    with LocalEngine(jobs) as engine:
        return run_sweep(m or matchup(), plan, store, engine)


def test_the_sweep_brackets_then_fits_the_same_seeds_at_every_level():
    store = BalanceStore(None)
    result = sweep(store)
    assert [h for h, _, _ in result.probes] == [0, 10, 30, 70]
    assert result.bracket == (10, 70) and result.levels == [10, 20, 30, 40, 50, 60, 70]
    assert result.fit.slope_positive and result.fit.interval.low < 40 < result.fit.interval.high
    seeds = {}
    for row in store.rows("synthetic/test/seed1"):
        seeds.setdefault(row.level, set()).add((row.seed_index, row.seed))
    assert all(seeds[level] == seeds[10] for level in result.levels)  # common random numbers
    assert len(seeds[10]) == 100 and result.played == 7 * 100 + 100  # +10..+70 (probes 10, 30, 70 reused) and 0
    text = "\n".join(report_lines(result))
    assert "95% Fieller" in text and "Caveat: the opponent is PaperRobot's heuristic policy" in text
    assert report_dict(result)["fit"]["fieller95"] == [result.fit.interval.low, result.fit.interval.high]


def test_bracketing_goes_down_when_the_robot_is_already_ahead():
    result = sweep(BalanceStore(None), m=matchup(partial(synthetic.play, h50=-25.0)))
    assert result.bracket[0] < -25 < result.bracket[1] and result.fit.interval.low < -25 < result.fit.interval.high


def test_a_bracket_beyond_the_options_limits_is_one_clear_error():
    with pytest.raises(SweepError, match="could not bracket the even point.*limits \\[0, 50\\]"):
        sweep(BalanceStore(None), m=matchup(low=0, high=50))


def test_running_again_resumes_and_extends_without_replaying_a_game(tmp_path):
    path = tmp_path / "b.sqlite"
    first = sweep(BalanceStore(path))
    again = sweep(BalanceStore(path))
    assert again.played == 0 and again.reused == first.played
    assert again.fit.to_dict() == first.fit.to_dict()
    more = sweep(BalanceStore(path), Plan(games_per_level=150, probe_games=100))
    assert more.played == 7 * 50 and more.fit.games == 7 * 150
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == 1


def test_an_interrupted_sweep_keeps_its_games_and_resumes_to_the_same_result(tmp_path):
    path = tmp_path / "b.sqlite"
    calls = {"n": 0}

    def flaky(seed, handicap):
        calls["n"] += 1
        if calls["n"] == 333:
            raise KeyboardInterrupt
        return PLAY(seed, handicap)

    with pytest.raises(KeyboardInterrupt):
        sweep(BalanceStore(path), m=matchup(flaky))
    kept = len(BalanceStore(path).games("synthetic/test/seed1"))
    assert kept == 325  # the chunks of 25 finished before the interrupt
    resumed = sweep(BalanceStore(path))
    whole = sweep(BalanceStore(None))
    assert resumed.played == whole.played - kept
    assert resumed.fit.to_dict() == whole.fit.to_dict()


def test_precision_adds_seeds_until_the_half_width_is_reached():
    result = sweep(BalanceStore(None), Plan(games_per_level=50, probe_games=100, precision=4))
    assert result.precision_met and result.fit.interval.half_width <= 4 and result.per_level > 50
    assert f"half-width <= 4 reached with {7 * result.per_level} stage-2 games" in "\n".join(report_lines(result))
    capped = sweep(BalanceStore(None), Plan(games_per_level=50, probe_games=100, precision=1, max_games=700))
    assert capped.precision_met is False and capped.fit.games <= 700 + 7
    assert "NOT reached" in "\n".join(report_lines(capped))


def test_the_process_pool_gives_the_same_rows_as_one_process():
    chunks = [Chunk(PLAY, "robot", 5, level, tuple(range(k, k + 20))) for level in (0, 35) for k in (0, 20, 40)]
    serial = sorted(row for c in chunks for row in play_chunk(c))
    with LocalEngine(2) as engine:
        pooled = sorted(row for rows in engine.map(chunks) for row in rows)
    assert pooled == serial
    assert {r.score for r in serial} <= {0.0, 0.5, 1.0}


def test_a_searching_opponents_games_go_out_in_small_tasks_and_give_the_same_sweep():
    assert [task_size(25, n, 1.0) for n in (1, 20, 200)] == [25, 25, 25]
    assert [task_size(25, n, 5.0) for n in (1, 8, 9, 20, 200, 1000)] == [1, 1, 2, 3, 25, 25]
    searching = matchup(opponent="search:50")  # a name only: the synthetic game's play ignores it
    small, large = BalanceStore(None), BalanceStore(None)
    assert sweep(small, m=searching).fit.interval == sweep(large).fit.interval
    assert sorted(small.rows("synthetic/test/seed1")) == sorted(large.rows("synthetic/test/seed1"))


def test_the_store_refuses_a_database_of_another_kind(tmp_path):
    other = tmp_path / "runs.sqlite"
    ResultStore(other).db.close()
    with pytest.raises(PaperRobotError, match="not a balance-sweep database"):
        BalanceStore(other)
    with pytest.raises(PaperRobotError, match="does not exist"):
        BalanceStore(tmp_path / "no" / "such.sqlite")


def test_another_base_seed_or_fresh_seeds_are_other_games_in_the_store(tmp_path):
    path = tmp_path / "b.sqlite"
    first = sweep(BalanceStore(path))
    other = sweep(BalanceStore(path), Plan(games_per_level=100, probe_games=100, base_seed=2))
    assert other.reused == 0 and other.played > 0
    fresh = sweep(BalanceStore(path), Plan(games_per_level=100, probe_games=100, fresh_seeds=True))
    assert fresh.reused == 0 and fresh.fit.interval.low < 40 < fresh.fit.interval.high
    seeds = {}
    for row in BalanceStore(path).rows("synthetic/test/seed1/fresh"):
        seeds.setdefault(row.level, set()).add(row.seed)
    assert len(seeds) >= 7 and all(not (seeds[a] & seeds[b]) for a in seeds for b in seeds if a != b)
    assert "base drawn per level" in "\n".join(report_lines(fresh)) and first.fit.games == fresh.fit.games
