"""One front door (issue 25): every verb is built from the registry, so a game registered with no front-end code
of its own (the toy game of tests/toygame.py) is reached through play, battle, simulate, balance, assist and
ladder; every verb of a game lists the same set-up flags; cli/ and web/ never import a game package."""
import ast
import importlib.util
from pathlib import Path

import pytest
from typer.testing import CliRunner

import paperrobot
from paperrobot.cli.main import app
from paperrobot.core import registry
from paperrobot.core.contract import Decision, Reason
from paperrobot.core.outcome import Outcome
from tests.toygame import Counting

runner = CliRunner()
TOY = "counting-door"
SRC = Path(paperrobot.__file__).parent


class Toy(Counting):
    """The toy game with a handicap (the robot wins outright on a d100 of at most the handicap; negative: the
    player does), and a policy that takes the suggested split: what a balance sweep needs, nothing more."""

    def __init__(self, seed, log, target=7, handicap=0):
        super().__init__(seed, log, target)
        self.handicap = handicap

    def sequence(self):
        if self.handicap and self.dice.roll(100, "handicap", "robot") <= abs(self.handicap):
            return Outcome("robot" if self.handicap > 0 else "player", "handicap", 0)
        return (yield from super().sequence())

    def controller(self, side, kind):
        robot = super().controller(side, kind)

        class Either:
            def decide(self, request):
                if request.form is not None:
                    return Decision(request.default, (Reason("TEST.SPLIT", "the suggested split"),))
                return robot.decide(request)
        return Either()


class ToyAssistant:
    """A table assistant that asks every question as the contract gives it (the registry's ``assistant``)."""

    def auto(self, request):
        return None

    def question(self, request):
        return None

    def instruction(self, event):
        return None

    def status(self, match):
        return [f"total {match.engine.total}"]


INFO = registry.GameInfo(
    TOY, "The counting toy", Counting.sides, "robot",
    (registry.SetupOption("target", "total to reach", 7, "int", low=2, high=50),
     registry.SetupOption("handicap", "d100 chance of an outright win for the robot", 0, "int", low=-100, high=100)),
    Toy, lambda: None, assistant=ToyAssistant)


@pytest.fixture
def toy(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # recovery files and results kept out of $HOME
    registry.register(INFO)
    yield
    registry.registered().pop(TOY, None)


def invoke(*args, **kwargs):
    return runner.invoke(app, [str(a) for a in args], **kwargs)


def test_the_toy_game_plays_with_scripted_input_and_is_recorded(toy, tmp_path):
    result = invoke("play", TOY, "--target", "9", "--seed", "3", "--log", tmp_path / "g.jsonl", input="\n" * 60)
    assert result.exit_code == 0, result.output
    assert "Game over: " in result.output and "Recorded in your results" in result.output
    from paperrobot.sim.records import Records
    records = Records(None, create=False)
    try:
        assert [(r.game, r.setup["target"]) for r in records.games(TOY)] == [(TOY, 9)]
    finally:
        records.close()


def test_the_toy_game_battles_and_simulates(toy, tmp_path):
    result = invoke("battle", TOY, "--seed", "2", "--opponent", "robot", "--quiet")
    assert result.exit_code == 0 and result.output.startswith("Result: "), result.output
    result = invoke("simulate", TOY, "--games", "6", "--jobs", "1", "--target", "5", "--db", tmp_path / "r.sqlite",
                    "--quiet")
    assert result.exit_code == 0, result.output
    again = invoke("simulate", TOY, "--games", "6", "--jobs", "1", "--target", "5", "--db", tmp_path / "r.sqlite")
    assert again.exit_code == 0 and "6 games" in again.output and "already played" in again.output, again.output


def test_the_toy_game_is_assisted_and_a_finished_session_recorded(toy, tmp_path):
    state = tmp_path / "s.save"
    result = invoke("assist", TOY, "--state", state, "--target", "5", input="\n" * 40)
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output and "Recorded in your results" in result.output
    again = invoke("assist", TOY, "--state", tmp_path / "t.save", "--no-record", input="\n" * 40)
    assert again.exit_code == 0 and "Recorded" not in again.output, again.output


def test_the_toy_game_is_swept_and_laddered(toy, tmp_path):
    pytest.importorskip("statsmodels")
    small = ["--games-per-level", "20", "--probe-games", "20", "--levels", "5", "--jobs", "1", "--quiet"]
    result = invoke("balance", TOY, "--target", "6", "--out", tmp_path / "b", "--step", "20", *small)
    assert result.exit_code == 0, result.output
    assert list((tmp_path / "b").glob("*.json")), result.output
    result = invoke("ladder", TOY, "--target", "6", "--out", tmp_path / "l", "--rungs", "policy,robot", "--batch",
                    "10", "--games", "40", "--jobs", "1", "--quiet")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "l" / "fit.json").exists()
    result = invoke("ladder", TOY, "--target", "6", "--out", tmp_path / "m", "--rungs", "mix:policy=0.9,random=0.1,robot",
                    "--batch", "10", "--games", "40", "--jobs", "1", "--quiet")  # a mixed rung in the list
    assert result.exit_code == 0, result.output
    assert "mix:policy=0.9,random=0.1" in (tmp_path / "m" / "ladder.json").read_text()
    table = (tmp_path / "m" / "ladder.txt").read_text().splitlines()
    end = table[1].index("rating") + len("rating")  # every rung's rating ends under the header's, the mix's too
    rows = [line for line in table[2:] if line.startswith(("mix:", "robot"))]
    assert len(rows) == 2 and all(row[end - 1].isdigit() for row in rows), table


def _commands(verb: str) -> dict:
    import typer.main
    group = typer.main.get_command(app).get_command(None, verb)
    return {name: group.get_command(None, name) for name in group.list_commands(None)}


def _setup_flags(command, info) -> set:
    from paperrobot.cli.setup_flags import PREFIX
    return {opt for p in command.params if p.name.startswith(PREFIX) for opt in p.opts}


@pytest.mark.parametrize("game", ["armada", "fc", "sfb", TOY])
def test_every_verb_of_a_game_lists_the_same_set_up_flags(toy, game):
    info = paperrobot.game_info(game)
    wanted = {"--" + o.name.replace("_", "-") for o in info.options}
    seen = {}
    for verb in ("play", "battle", "simulate", "assist", "balance", "ladder"):
        command = _commands(verb).get(game)
        if command is None or not any(p.name.startswith("setup__") for p in command.params):
            continue  # Armada's assistant is asked questions: it takes a fleet, not a set-up
        seen[verb] = _setup_flags(command, info)
    assert {"play", "battle", "simulate", "balance", "ladder"} <= set(seen)
    first = next(iter(seen.values()))
    assert wanted <= first
    assert all(flags == first for flags in seen.values()), seen


def test_verb_flags_are_uniform_across_games():
    for verb, flags in (("battle", {"--quiet", "--opponent", "--seed", "--log", "--force"}),
                        ("simulate", {"--quiet", "--opponent", "--games", "--jobs", "--seed", "--db", "--force"}),
                        ("play", {"--seed", "--save", "--resume", "--log", "--force", "--no-record"})):
        for name, command in _commands(verb).items():
            opts = {opt for p in command.params for opt in p.opts}
            assert flags <= opts, (verb, name, flags - opts)


def test_retired_flags_are_refused_with_the_new_name():
    result = invoke("battle", "sfb", "--robot", "klingon")
    assert result.exit_code == 2 and "--robot is now --robot-ship" in result.output
    result = invoke("play", "fc", "--ship", "kzinti-bc")
    assert result.exit_code == 2 and "--ship is now --player-ship" in result.output
    result = invoke("balance", "sfb", "--set", "scenario=6", "--out", "x")
    assert result.exit_code == 2 and "--set is gone: write --scenario 6" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_the_same_flag_means_the_same_under_simulate_and_balance():
    """`simulate sfb --scenario 9` and `balance sfb --scenario 9` give the registry's one line."""
    a = invoke("simulate", "sfb", "--scenario", "9", "--games", "1")
    b = invoke("balance", "sfb", "--scenario", "9", "--out", "x")
    assert a.exit_code == b.exit_code == 2
    assert a.output == b.output and "unknown scenario '9'" in a.output


def _imports(path: Path) -> list[str]:
    """Every module a file imports, statically or by name (importlib.import_module / __import__ of a string)."""
    tree = ast.parse(path.read_text())
    package = "paperrobot." + ".".join(path.relative_to(SRC).parts[:-1])
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = importlib.util.resolve_name("." * node.level + (node.module or ""), package) if node.level \
                else node.module
            out.append(base)
            out += [f"{base}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            if name in ("import_module", "__import__", "find_spec"):
                out.append(node.args[0].value)
    return out


def test_no_front_end_imports_a_game_package():
    games = tuple(f"paperrobot.{g}" for g in paperrobot.GAME_PACKAGES)
    bad = []
    for folder in ("cli", "web"):
        for path in sorted((SRC / folder).rglob("*.py")):
            for name in _imports(path):
                if name in games or name.startswith(tuple(g + "." for g in games)):
                    bad.append(f"{path.relative_to(SRC)}: {name}")
    assert not bad


def test_the_import_check_sees_relative_and_dynamic_imports(tmp_path):
    """The check above can fail: it finds a relative import and an import by name."""
    folder = SRC / "cli"
    probe = folder / "_probe_imports.py"
    probe.write_text("from ..sfb import frontend\nimport importlib\nimportlib.import_module('paperrobot.fc')\n")
    try:
        assert {"paperrobot.sfb", "paperrobot.fc"} <= set(_imports(probe))
    finally:
        probe.unlink()


def test_hints_repeat_the_program_as_the_person_started_it(tmp_path, monkeypatch):
    """Resume hints say './paperrobot' when the launcher started the program (it sets PAPERROBOT_PROGRAM, or it
    sits next to the .venv the program runs from), else 'paperrobot'."""
    from paperrobot.cli import common

    monkeypatch.delenv("PAPERROBOT_PROGRAM", raising=False)
    monkeypatch.setattr("sys.argv", ["/usr/bin/paperrobot"])
    assert common.program() == "paperrobot"
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    (tmp_path / "paperrobot").write_text("#!/bin/sh\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.argv", [str(tmp_path / ".venv" / "bin" / "paperrobot")])
    assert common.program() == "./paperrobot"
    monkeypatch.setenv("PAPERROBOT_PROGRAM", "./run-it")
    assert common.program() == "./run-it"
    common.ARGV[:] = ["play", "sfb", "--seed", "2"]
    assert common.command_line() == "./run-it play sfb --seed 2"


def test_a_stopped_game_names_the_launcher_in_its_resume_hint(toy, monkeypatch):
    monkeypatch.setenv("PAPERROBOT_PROGRAM", "./paperrobot")
    result = invoke("play", TOY, "--seed", "3", input="\nquit\n")
    assert result.exit_code == 0 and f"resume it with './paperrobot play {TOY} --resume " in result.output, \
        result.output
