"""``paperrobot balance`` end to end on a synthetic game registered for these tests, and its refusals."""
import json
import sqlite3

import pytest

pytest.importorskip("statsmodels")
pytest.importorskip("matplotlib")

from typer.testing import CliRunner

import paperrobot
from paperrobot.cli.main import app
from paperrobot.sim.store import ResultStore
from tests.sim import synthetic_game

runner = CliRunner()
SMALL = ["--games-per-level", "60", "--probe-games", "60", "--quiet"]


@pytest.fixture(autouse=True)
def game():
    synthetic_game.register()
    yield
    synthetic_game.unregister()


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_the_whole_command_on_a_registered_game(tmp_path):
    out = tmp_path / "out"
    result = invoke("balance", "synthetic-balance", "--draw", "yes", "--opponent", "policy", "--opponent", "robot",
                    "--out", out, "--jobs", "1", *SMALL)
    assert result.exit_code == 0, result.output
    text = result.output
    assert text.count("Even-fight handicap, synthetic-balance draw=yes: robot (robot) vs") == 2
    assert "95% Fieller" in text and "Level" in text and "Wilson" in text
    assert "heuristic policy, not a person" in text and "the robot itself (mirror), not a person" in text
    reports = sorted(out.glob("*.json"))
    assert len(reports) == 2 and len(list(out.glob("*.png"))) == 2 and len(list(out.glob("*.svg"))) == 2
    data = json.loads(reports[0].read_text())
    low, high = data["fit"]["fieller95"]
    assert low < data["fit"]["h50"] < high and data["spec"]["setup"] == {"draw": "yes", "h50": 40}
    assert data["caveat"].startswith("Caveat") and len(data["fit"]["levels"]) == 7
    # the plain answer first (issue 25): printed, written, and in the JSON; the files named for the set-up
    assert data["plain_answer"].startswith("At the table: for an even fight give the robot")
    assert [p.name for p in reports] == ["synthetic-balance-drawyes-policy.json", "synthetic-balance-drawyes-robot.json"]
    assert (out / "synthetic-balance-drawyes-policy.txt").read_text().splitlines()[1] == data["plain_answer"]
    assert text.count("At the table: for an even fight give the robot") == 2
    assert (out / "balance.sqlite").exists()
    again = invoke("balance", "synthetic-balance", "--draw", "yes", "--out", out, "--jobs", "1", *SMALL)
    assert again.exit_code == 0 and "played now 0," in again.output


def test_workers_give_the_same_report_as_one_process(tmp_path):
    one = invoke("balance", "synthetic-balance", "--h50", "25", "--out", tmp_path / "a", "--jobs", "1", *SMALL)
    two = invoke("balance", "synthetic-balance", "--h50", "25", "--out", tmp_path / "b", "--jobs", "2", *SMALL)
    assert one.exit_code == 0 and two.exit_code == 0, two.output
    fit = [json.loads(next((tmp_path / d).glob("*.json")).read_text())["fit"] for d in "ab"]
    assert fit[0] == fit[1]


def test_ctrl_c_keeps_the_finished_games_and_the_same_command_resumes(tmp_path, monkeypatch):
    calls = {"n": 0}
    original = synthetic_game.SyntheticEngine.sequence

    def interrupted(self):
        calls["n"] += 1
        if calls["n"] == 130:
            raise KeyboardInterrupt
        return (yield from original(self))

    monkeypatch.setattr(synthetic_game.SyntheticEngine, "sequence", interrupted)
    args = ["balance", "synthetic-balance", "--out", tmp_path, "--jobs", "1", *SMALL]
    result = invoke(*args)
    assert result.exit_code == 130
    assert "interrupted: the 120 finished games of this sweep are kept in" in result.output
    monkeypatch.setattr(synthetic_game.SyntheticEngine, "sequence", original)
    resumed = invoke(*args)
    assert resumed.exit_code == 0 and "from the store 120" in resumed.output


@pytest.mark.parametrize("name", ["sfb", "fc", "armada"])
def test_a_game_without_a_handicap_option_is_one_clear_line(tmp_path, name):
    if name in paperrobot.games() and "handicap" in [o.name for o in paperrobot.game_info(name).options]:
        pytest.skip(f"{name} has a handicap option now")
    result = invoke("balance", name, "--out", tmp_path)
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [result.output.strip()]
    assert f"error: {name} has no handicap set-up option yet" in result.output


@pytest.mark.parametrize("args, message", [
    (["synthetic-nohandicap"], "synthetic-nohandicap has no handicap set-up option yet"),
    (["no-such-game"], "unknown game 'no-such-game'"),
    (["synthetic-balance", "--set", "draw=yes"], "--set is gone: write --draw yes"),
    (["synthetic-balance", "--colour", "red"], "No such option: --colour"),
    (["synthetic-balance", "--h50", "lots"], "h50 must be a whole number, not 'lots'"),
    (["synthetic-balance", "--handicap", "3"], "the sweep sets the handicap itself: drop --handicap"),
    (["synthetic-balance", "--opponent", "person"], "--opponent: unknown rung 'person'"),
    (["synthetic-balance", "--levels", "3"], "--levels must be from 5 to 9"),
    (["synthetic-balance", "--precision", "0"], "--precision must be a positive number"),
    (["synthetic-balance", "--engine", "dask"], "--engine must be local or ray"),
    (["synthetic-balance", "--seed", str(2 ** 31)], "--seed must be from 0 to 2**31-1"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, message):
    result = invoke("balance", *args, "--out", tmp_path / "out", "--jobs", "1", *SMALL)
    assert result.exit_code == 2, result.output
    assert len(result.output.strip().splitlines()) == 1 and message in result.output, result.output


def test_unwritable_out_or_db_is_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = invoke("balance", "synthetic-balance", "--out", blocker / "out", *SMALL)
    assert result.exit_code == 2 and "--out" in result.output and "cannot create the folder" in result.output
    result = invoke("balance", "synthetic-balance", "--out", tmp_path / "o", "--db", tmp_path / "no" / "b.sqlite", *SMALL)
    assert result.exit_code == 2 and "cannot open the sweep database" in result.output
    other = tmp_path / "runs.sqlite"
    ResultStore(other).db.close()
    result = invoke("balance", "synthetic-balance", "--out", tmp_path / "o", "--db", other, *SMALL)
    assert result.exit_code == 2 and "not a balance-sweep database" in result.output
    assert sqlite3.connect(other).execute("SELECT count(*) FROM runs").fetchone() == (0,)
