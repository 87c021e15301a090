"""The benchmarks that take a game's set-up (benchmarks/balance_sweep.py, benchmarks/ladder_answers.py) take the
same generated flags as every verb (cli/setup_flags.py: --scenario 5, not --set scenario=5), checked the same way,
and refuse the old --set with the one line naming the flag to write."""
import importlib.util
from pathlib import Path

import pytest

from paperrobot.cli.setup_flags import setup_from_args
from paperrobot.core.errors import PaperRobotError

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def load(name: str):
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_set_up_flags_parse_as_under_every_verb():
    assert setup_from_args("sfb", ["--scenario", "6", "--robots=2"]) == {"scenario": "6", "robots": 2}
    assert setup_from_args("armada", ["--no-evade-close", "--table", "small"]) == {"evade_close": False,
                                                                                   "table": "small"}
    assert setup_from_args("fc", []) == {}


@pytest.mark.parametrize("args,line", [
    (["--set", "scenario=5"], "--set is gone: write --scenario 5"),
    (["--scenario", "9"], "--scenario: unknown scenario '9'"),
    (["--bogus", "1"], "No such option: --bogus"),
    (["--robot", "kzinti"], "--robot is now --robot-ship")])
def test_the_set_up_flags_refuse_in_one_line(args, line):
    with pytest.raises(PaperRobotError, match=line.replace("(", r"\(")) as caught:
        setup_from_args("sfb", args)
    assert "\n" not in str(caught.value)
    with pytest.raises(PaperRobotError, match="unknown game 'nope'"):
        setup_from_args("nope", [])


def test_balance_sweep_takes_the_generated_flags_and_refuses_set(monkeypatch, capsys):
    sweep = load("balance_sweep")
    from paperrobot.sim import balance

    seen = []

    def matchup(game, setup, opponent):  # stop before any game is played: the set-up is what is tested
        seen.append((game, setup, opponent))
        raise PaperRobotError("stopped by the test")
    monkeypatch.setattr(balance, "registry_matchup", matchup)
    assert sweep.main(["--game", "sfb", "--scenario", "6", "--robots", "2", "--no-ray"]) == 2
    assert seen == [("sfb", {"scenario": "6", "robots": 2}, "policy")]
    assert sweep.main(["--game", "sfb", "--set", "scenario=5"]) == 2
    assert sweep.main(["--scenario", "5"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == ["error: stopped by the test",
                   "error: --set is gone: write --scenario 5 (every set-up option is a flag of its own name, the "
                   "same under every verb: docs/terminal.md)",
                   "error: --scenario: set-up flags need --game GAME (the synthetic game has none)"]


def test_ladder_answers_takes_the_generated_flags_and_refuses_set(tmp_path, capsys):
    answers = load("ladder_answers")
    common = ["--db", str(tmp_path / "none.sqlite"), "--rungs", "policy,robot", "--out", str(tmp_path / "out")]
    assert answers.main(["fc", "--set", "robot_ship=d7", *common]) == 2
    assert answers.main(["fc", "--robot-ship", "d7", "--player-ship", "federation-ca", *common]) == 2
    assert answers.main(["fc", "--robot-ship", "nope", *common]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("error: --set is gone: write --robot-ship d7")
    assert err[1].startswith("error: --db ") and "does not exist" in err[1]  # the flags were taken: on to the --db
    assert err[2].startswith("error: --robot-ship: ") and len(err) == 3
    assert not (tmp_path / "out").exists()


def test_web_answers_posts_the_generated_flags_as_the_start_form_does(capsys):
    answers = load("web_answers")
    assert answers.form_fields({"scenario": "6", "robots": 2, "evade_close": False, "table": "small"}) == {
        "o.scenario": "6", "o.robots": "2", "b.evade_close": "on", "o.table": "small"}
    assert answers.main(["--game", "sfb", "--setup", "scenario=6"]) == 2
    assert capsys.readouterr().err.startswith("error: --setup is gone: write --scenario 6")
