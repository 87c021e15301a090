"""The sfb commands, driven as a person would: arguments, typed input, files on disk."""
import json
import sqlite3

import pytest
from typer.testing import CliRunner

from paperrobot.cli.main import app

runner = CliRunner()


def invoke(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def test_battle_narrates_rule_ids_and_dice(tmp_path):
    log = tmp_path / "b.jsonl"
    result = invoke("battle", "sfb", "--scenario", "5", "--seed", "3", "--log", str(log))
    assert result.exit_code == 0, result.output
    assert "[SFB.R" in result.output and "d6=" in result.output
    assert "Result:" in result.output
    first = json.loads(log.read_text().splitlines()[0])
    assert first["kind"] == "setup" and first["game"] == "sfb"
    again = invoke("replay", str(log), "--decisions")
    assert again.exit_code == 0 and "[SFB.R" in again.output


def test_battle_is_reproducible():
    a = invoke("battle", "sfb", "--seed", "11", "--opponent", "robot", "--no-maps")
    b = invoke("battle", "sfb", "--seed", "11", "--opponent", "robot", "--no-maps")
    assert a.exit_code == 0 and a.output == b.output


def test_simulate_summary_and_sqlite(tmp_path):
    db = tmp_path / "runs.sqlite"
    result = invoke("simulate", "sfb", "--games", "40", "--jobs", "2", "--seed", "5", "--db", str(db))
    assert result.exit_code == 0, result.output
    assert "robot wins" in result.output and "95% interval" in result.output
    assert sqlite3.connect(db).execute("SELECT COUNT(*) FROM games").fetchone()[0] == 40


@pytest.mark.parametrize("args,needle", [
    (("battle", "sfb", "--robot-ship", "enterprise"), "unknown ship"),
    (("battle", "sfb", "--scenario", "9"), "scenario"),
    (("battle", "sfb", "--opponent", "cat"), "unknown opponent"),
    (("simulate", "sfb", "--games", "0"), "--games"),
    (("ships", "nosuchship"), "unknown ship"),
])
def test_bad_input_is_one_line(args, needle):
    result = invoke(*args)
    assert result.exit_code == 2
    assert needle in result.output or needle in (result.stderr or "")
    assert "Traceback" not in result.output


def test_ships_list_and_sheet():
    listing = invoke("ships", "--game", "sfb")
    assert listing.exit_code == 0 and "federation" in listing.output and "klingon" in listing.output
    sheet = invoke("ships", "klingon")
    assert sheet.exit_code == 0 and "isruptor" in sheet.output


def test_play_to_the_end_by_accepting_defaults(tmp_path):
    # Enter accepts every default (energy, moves, fire): the game must reach its end.
    result = invoke("play", "sfb", "--scenario", "5", "--seed", "2", input="\n" * 3000)
    assert result.exit_code == 0, result.output[-2000:]
    assert "Game over" in result.output
    assert "[SFB.R" in result.output


def test_play_save_and_resume(tmp_path):
    save = tmp_path / "g.save"
    first = invoke("play", "sfb", "--seed", "4", "--save", str(save), input="\n\n\n\nquit\n")
    assert first.exit_code == 0, first.output[-2000:]
    data = json.loads(save.read_text())
    assert data["game"] == "sfb" and len(data["answers"]) >= 1
    resumed = invoke("play", "sfb", "--resume", str(save), input="\n" * 3000)
    assert resumed.exit_code == 0, resumed.output[-2000:]
    assert "Resuming" in resumed.output and "Game over" in resumed.output


def test_play_refuses_to_overwrite_and_reports_corrupt_saves(tmp_path):
    save = tmp_path / "g.save"
    save.write_text("{ not json")
    result = invoke("play", "sfb", "--resume", str(save))
    assert result.exit_code == 2 and "not valid JSON" in result.output
    assert save.read_text() == "{ not json"
    result = invoke("play", "sfb", "--save", str(save), input="quit\n")
    assert result.exit_code == 2 and "already exists" in result.output
    assert save.read_text() == "{ not json"


def test_illegal_energy_is_refused_and_asked_again():
    result = invoke("play", "sfb", "--seed", "2", input="speed=99\n" + "\n" * 3000)
    assert result.exit_code == 0, result.output[-2000:]
    assert "Not allowed" in result.output and "Game over" in result.output


@pytest.mark.parametrize("args,needle", [
    (("battle", "chess"), "unknown game 'chess'; the games are: armada, fc, sfb"),
    (("battle", "sfb", "--seed", "abc"), "--seed"),
    (("battle", "sfb", "--nosuch"), "No such option"),
])
def test_usage_errors_are_one_line(args, needle):
    result = invoke(*args)
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0]


def test_play_disengage_at_any_prompt():
    # Accept the energy default, then announce disengagement at the first move prompt.
    result = invoke("play", "sfb", "--scenario", "5", "--seed", "2", input="\ndisengage\n" + "\n" * 50)
    assert result.exit_code == 0, result.output[-2000:]
    assert "You will disengage" in result.output
    assert "Game over: the robot wins (disengaged) after 1 turns" in result.output


def test_play_eight_impulses_asks_a_speed_not_an_energy_allocation():
    """SFB.EA: in seed 002's 8-impulse game the Chief Engineer allocates; the person types a speed."""
    result = invoke("play", "sfb", "--scenario", "4", "--impulses", "8", "--seed", "2", input="6\n" + "\n" * 3000)
    assert result.exit_code == 0, result.output[-2000:]
    assert "=== Turn 1: speed (your Chief Engineer allocates the energy) ===" in result.output
    assert "energy allocation ===" not in result.output and "Energy: Enter to accept" not in result.output
    assert "[SFB.EA] 8-impulse game, no energy allocation (seed 002): the Chief Engineer pays for speed 6" \
        in result.output
    assert "Game over" in result.output
