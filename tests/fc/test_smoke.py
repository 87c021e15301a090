"""End-to-end: whole games run, end with a result, and replay byte-identically."""
from typer.testing import CliRunner

from paperrobot.cli.main import app
from paperrobot.core.events import EventLog
from paperrobot.fc import build, play

from .helpers import run

runner = CliRunner()


def test_robot_vs_policy_game_ends_with_outcome():
    outcome = play(5)
    assert outcome.result in ("destroyed", "points", "time")
    assert outcome.turns >= 1


def test_same_seed_same_log():
    logs = []
    for _ in range(2):
        log = EventLog()
        run(build(11, log, "d7", "kzinti-bc"), {"robot": "robot", "player": "robot"})
        logs.append(log.to_jsonl())
    assert logs[0] == logs[1]
    assert logs[0].startswith('{"game":"fc"') or '"kind":"setup"' in logs[0].splitlines()[0]


def test_battle_fc_cli_robot_vs_robot(tmp_path):
    path = tmp_path / "fc.jsonl"
    result = runner.invoke(app, ["battle", "fc", "--robot-ship", "d7", "--player-ship", "kzinti-bc", "--opponent",
                                 "robot", "--seed", "2", "--log", str(path)])
    assert result.exit_code == 0, result.output
    assert "Result:" in result.output
    assert "[FC.1A]" in result.output
    assert "Provisional data in use" in result.output
    replayed = runner.invoke(app, ["replay", str(path), "--decisions"])
    assert replayed.exit_code == 0
    assert "[FC.1A]" in replayed.output
