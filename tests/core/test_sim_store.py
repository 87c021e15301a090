"""Resumable, concurrent-safe simulation runs: the SQLite store, the runner under fork and spawn."""
import json
import sqlite3
import threading
import time
from functools import partial
from pathlib import Path

import pytest

from paperrobot import sfb
from paperrobot.cli import simview
from paperrobot.core.errors import PaperRobotError
from paperrobot.core.outcome import Outcome
from paperrobot.sim import ResultStore
from paperrobot.sim.runner import Runner
from paperrobot.sim.store import SCHEMA_VERSION, StoreBusy

PLAY = partial(sfb.play_battle, scenario="5", opponent="robot", robot_ship=None, player_ship=None,
               options={"impulses": 8})
CONFIG = {"scenario": "5", "opponent": "robot", "impulses": 8}


def run(db, games, jobs=1, **kw):
    return simview.simulate("sfb", CONFIG, PLAY, games, jobs, 7, db, ["robot", "player"], "t", quiet=True, **kw)


def rows(db):
    with sqlite3.connect(db) as con:
        return con.execute("SELECT COUNT(*), COUNT(DISTINCT idx), MIN(idx), MAX(idx) FROM games").fetchone()


def test_the_same_command_again_plays_only_the_missing_games(tmp_path):
    whole = run(tmp_path / "whole.sqlite", 30)
    db = tmp_path / "r.sqlite"
    with ResultStore(db) as store:  # a run that stopped with holes (e.g. killed while spans were in flight)
        store.start_run("sfb", CONFIG, 7, 30)
        for index, seed, outcome in Runner(PLAY, 7).games([(0, 10), (20, 25)]):
            store.add(index, seed, outcome)
    assert rows(db) == (15, 15, 0, 24)
    with ResultStore(db) as store:
        store.start_run("sfb", CONFIG, 7, 30)
        assert store.missing() == [(10, 20), (25, 30)]
    resumed = run(db, 30, jobs=2)
    assert rows(db) == (30, 30, 0, 29)
    assert resumed.wins == whole.wins and resumed.draws == whole.draws and resumed.games == 30
    assert resumed.mean_turns == pytest.approx(whole.mean_turns)
    again = run(db, 30)  # nothing left to play: the summary is the file's, each game once
    assert again.games == 30 and rows(db)[0] == 30
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT COUNT(*), finished, completed, games FROM runs").fetchone() == (1, 30, 1, 30)


def test_a_run_is_extended_by_asking_for_more_games(tmp_path):
    db = tmp_path / "r.sqlite"
    run(db, 10)
    extended = run(db, 25)
    assert extended.games == 25 and rows(db) == (25, 25, 0, 24)
    other_seed = simview.simulate("sfb", CONFIG, PLAY, 5, 1, 8, db, ["robot"], "t", quiet=True)
    assert other_seed.games == 5
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT base_seed, finished, completed FROM runs ORDER BY run_id").fetchall() == [
            (7, 25, 1), (8, 5, 1)]


def test_rows_are_committed_while_the_run_goes_on(tmp_path):
    db = tmp_path / "r.sqlite"
    store = ResultStore(db, commit_every=0.0)
    store.start_run("sfb", CONFIG, 7, 5)
    store.add(0, 1, Outcome("robot", "destroyed", 3))
    with sqlite3.connect(db) as reader:  # another process sees it before the run ends
        assert reader.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1
        assert reader.execute("SELECT finished, completed FROM runs").fetchone() == (1, 0)
    store.close(finish=True)


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_fork_and_spawn_give_the_same_games(method):
    serial = {i: o for i, _, o in Runner(PLAY, 3).games([(0, 12)])}
    with Runner(PLAY, 3, jobs=2, start_method=method) as runner:
        parallel = {i: o for i, _, o in runner.games([(0, 12)])}
    assert parallel == serial


def test_armada_geometry_reaches_spawned_workers(tmp_path):
    """A spawned worker starts from a fresh interpreter: the table set with --geometry goes with the work."""
    from paperrobot import armada
    from paperrobot.armada.data import DATA
    from paperrobot.core.dice import derive_seed

    mine = tmp_path / "geometry.toml"
    mine.write_text((DATA / "geometry.toml").read_text().replace("long = 304.8", "long = 700.0")
                    .replace("medium = 186.5", "medium = 500.0").replace("close = 123.3", "close = 300.0"))
    play = partial(armada.play_battle, setup=armada.Setup())
    try:
        armada.use_geometry(mine)
        expected = {i: play(derive_seed(0, i)) for i in (0, 1)}
        armada.use_geometry(None)
        default = {i: play(derive_seed(0, i)) for i in (0, 1)}
        with Runner(play, 0, jobs=2, init=partial(armada.use_geometry, mine), start_method="spawn") as runner:
            got = {index: outcome for index, _, outcome in runner.games([(0, 2)])}
    finally:
        armada.use_geometry(None)
    assert expected != default  # the measurements change the battles ...
    assert got == expected  # ... and the spawned workers used the person's


# ------------------------------------------------------------------------- the file itself

def test_tables_of_the_same_name_with_other_columns_are_refused(tmp_path):
    db = tmp_path / "other.sqlite"
    with sqlite3.connect(db) as con:
        con.execute("CREATE TABLE games (name TEXT, players INTEGER)")
    with pytest.raises(PaperRobotError, match="table 'games' that is not PaperRobot's"):
        ResultStore(db, force=True)


def test_a_foreign_database_is_left_alone_unless_forced(tmp_path):
    db = tmp_path / "other.sqlite"
    with sqlite3.connect(db) as con:
        con.execute("CREATE TABLE notes (text TEXT)")
    with pytest.raises(PaperRobotError, match="another program"):
        ResultStore(db)
    ResultStore(db, force=True).close()
    with sqlite3.connect(db) as con:
        assert {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")} >= {"notes", "games"}


def test_schema_version_newer_is_refused_older_is_migrated(tmp_path):
    db = tmp_path / "r.sqlite"
    ResultStore(db).close()
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(PaperRobotError, match="newer PaperRobot"):
        ResultStore(db)
    old = tmp_path / "old.sqlite"  # the tables as written before schema versions
    with sqlite3.connect(old) as con:
        con.executescript("""
            CREATE TABLE runs (run_id INTEGER PRIMARY KEY AUTOINCREMENT, game TEXT NOT NULL, config TEXT NOT NULL,
                               base_seed INTEGER NOT NULL, games INTEGER NOT NULL, started REAL NOT NULL);
            CREATE TABLE games (run_id INTEGER NOT NULL REFERENCES runs(run_id), idx INTEGER NOT NULL,
                                seed INTEGER NOT NULL, winner TEXT, result TEXT NOT NULL, turns INTEGER NOT NULL,
                                metrics TEXT NOT NULL, PRIMARY KEY (run_id, idx));""")
        con.execute("INSERT INTO runs VALUES (1, 'sfb', ?, 7, 4, 0)", (json.dumps(CONFIG, sort_keys=True),))
        con.execute("INSERT INTO games VALUES (1, 0, 1, 'robot', 'destroyed', 3, '{}')")
    with ResultStore(old) as store:
        store.start_run("sfb", CONFIG, 7, 4)
        assert store.run_id == 1 and store.missing() == [(1, 4)]
    with sqlite3.connect(old) as con:
        assert con.execute("SELECT finished, completed FROM runs").fetchone() == (1, 0)


def test_a_lock_held_for_a_while_loses_nothing(tmp_path):
    db = tmp_path / "r.sqlite"
    store = ResultStore(db, commit_every=0.0, patience=10)
    store.start_run("sfb", CONFIG, 7, 50)
    other = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # another program writes for a second
    release = threading.Timer(1.0, lambda: other.execute("COMMIT"))
    release.start()
    for i in range(50):
        store.add(i, i, Outcome("robot", "destroyed", 3))
        time.sleep(0.03)
    store.close(finish=True)
    release.join()
    other.close()
    assert rows(db) == (50, 50, 0, 49)


def test_a_lock_outlasting_the_wait_says_busy_not_broken(tmp_path):
    db = tmp_path / "r.sqlite"
    ResultStore(db).close()
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreBusy, match="busy .*not damaged"):
            ResultStore(db, busy_timeout=0.3).start_run("sfb", CONFIG, 7, 5)
    finally:
        other.execute("COMMIT")
        other.close()
    store = ResultStore(db, patience=0.5, commit_every=0.0)
    store.start_run("sfb", CONFIG, 7, 5)
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreBusy, match="busy"):
            store.add(0, 1, Outcome("robot", "destroyed", 3))
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:
                store.tick()
                time.sleep(0.05)
    finally:
        other.execute("COMMIT")
        other.close()
        store.db.close()


@pytest.mark.parametrize("args,needle", [
    (["--games", "100000000000000000000"], "--games must be between 1 and"),
    (["--games", "-3"], "--games must be between"),
    (["--jobs", "100000"], "--jobs must be"),
    (["--seed", "-1"], "--seed must be between"),
])
def test_sizes_are_bounded(args, needle):
    from typer.testing import CliRunner

    from paperrobot.cli.main import app

    started = time.monotonic()
    result = CliRunner().invoke(app, ["simulate", "sfb", "--quiet"] + args)
    assert result.exit_code == 2 and needle in result.output and "Traceback" not in result.output
    assert time.monotonic() - started < 10


def test_summary_of_the_stored_run_counts_each_game_once(tmp_path):
    db = tmp_path / "r.sqlite"
    first = run(db, 12, jobs=2)
    with sqlite3.connect(db) as con:  # a second writer inserting the same index is ignored, never counted twice
        con.execute("INSERT OR IGNORE INTO games SELECT * FROM games")
    again = run(db, 12)
    assert again.games == first.games == 12 and again.wins == first.wins
    assert Path(db).exists()


@pytest.mark.parametrize("where", ["before the store", "before the count"])
def test_a_ctrl_c_between_storing_a_game_and_counting_it_reports_what_the_file_holds(tmp_path, monkeypatch, where):
    """Ctrl-C lands between a game's two bookings (the file's row, the summary's count): the line the person reads
    names exactly the games the file keeps, so a resume plays the rest and nothing is counted twice or lost."""
    from paperrobot.core.errors import Interrupted
    from paperrobot.sim import Summary
    db = tmp_path / "r.sqlite"
    calls = {"n": 0}
    target, name = (ResultStore, "add") if where == "before the store" else (Summary, "add")
    original = getattr(target, name)

    def interrupted_on_the_sixth(self, *args):
        calls["n"] += 1
        if calls["n"] == 6:
            raise KeyboardInterrupt
        return original(self, *args)

    monkeypatch.setattr(target, name, interrupted_on_the_sixth)
    with pytest.raises(Interrupted) as caught:
        run(db, 20)
    finished = int(str(caught.value).split(" after ")[1].split(" of ")[0])
    assert finished == rows(db)[0] == (5 if where == "before the store" else 6)
    monkeypatch.undo()
    assert run(db, 20).games == 20 and rows(db) == (20, 20, 0, 19)
