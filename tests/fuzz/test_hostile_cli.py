"""A table of hostile command lines: each gives exactly one line naming the problem, a non-zero exit, no
traceback, and changes no file the program does not own."""
import sqlite3
import subprocess

import pytest

from .conftest import PAPERROBOT, assert_one_line_error, invoke, snapshot, subprocess_env

# (arguments, words the one line must contain); {tmp} is a folder holding {notes} (a person's text file),
# {wrongdb} (a SQLite file whose 'games' table has other columns) and {save} (a save of an SFB game).
HOSTILE = [
    (["battle", "sfb", "--player-ship", ""], "--player-ship is empty"),
    (["battle", "sfb", "--robot-ship", ""], "--robot-ship is empty"),
    (["battle", "fc", "--robot-ship="], "--robot-ship is empty"),
    (["simulate", "sfb", "--robot-ship", " "], "--robot-ship is empty"),
    (["assist", "armada", "--fleet", ""], "--fleet is empty"),
    (["assist", "armada", "--fleet", ","], "the fleet is empty"),
    (["assist", "armada", "--fleet", "tie-fighter*4"], "no ship"),
    (["assist", "armada", "--fleet", "victory-ii*0"], "count"),
    (["assist", "armada", "--fleet", "tie-fighter*-3"], "count"),
    (["assist", "armada", "--fleet", "victory-ii,tie-fighter*999999999"], "count"),
    (["assist", "armada", "--fleet", "victory-ii*6"], "points"),
    (["assist", "armada", "--fleet", "victory-ii,tie-fighter*17"], "squadrons"),
    (["assist", "armada", "--fleet", "death-star"], "unknown ship"),
    (["--bogus"], "no such option"),
    (["battle", "sfb", "--bogus"], "no such option"),
    (["battle", "sfb", "--seed", "abc"], "invalid value"),
    (["nosuchcommand"], "no such command"),
    (["battle", "chess"], "unknown game"),
    (["simulate", "sfb", "--games", "100000000000000000000"], "--games must be between"),
    (["simulate", "fc", "--games", "0"], "--games must be between"),
    (["simulate", "armada", "--jobs", "-1"], "--jobs must be"),
    (["simulate", "sfb", "--seed", "-5"], "--seed must be between"),
    (["battle", "sfb", "--impulses", "7"], "--impulses"),
    (["battle", "sfb", "--scenario", "99"], "scenario"),
    (["battle", "sfb", "--opponent", "cat"], "unknown opponent"),
    (["data", "--game", "chess"], "unknown game"),
    (["ships", "--ships-dir", "{tmp}/none"], "no such folder"),
    (["replay", "/dev/zero"], "not a regular file"),
    (["replay", "{tmp}/missing.jsonl"], "no such file"),
    (["replay", "{tmp}"], "folder"),
    (["replay", "{notes}"], "not a PaperRobot game log"),
    (["play", "sfb", "--resume", "{notes}"], "not a PaperRobot save"),
    (["play", "fc", "--resume", "{tmp}/missing.save"], "no such save"),
    (["play", "fc", "--save", "{notes}"], "not a PaperRobot save"),
    (["play", "sfb", "--save", "{notes}"], "not a PaperRobot save"),
    (["play", "armada", "--save", "{notes}"], "not a PaperRobot save"),
    (["play", "fc", "--save", "{save}"], "another saved game"),
    (["play", "sfb", "--resume", "{save}", "--save", "{notes}"], "not a PaperRobot save"),
    (["play", "sfb", "--save", "{tmp}"], "this is a folder"),
    (["battle", "sfb", "--log", "{notes}"], "not a PaperRobot game log"),
    (["battle", "sfb", "--log", "{tmp}/no/such/b.jsonl"], "does not exist"),
    (["battle", "sfb", "--log", "{notes}/b.jsonl"], "is not a folder"),
    (["battle", "armada", "--svg", "{notes}"], "not a folder"),
    (["battle", "armada", "--log", "{notes}"], "not a PaperRobot game log"),
    (["battle", "armada", "--geometry", "/dev/zero"], "not a regular file"),
    (["battle", "armada", "--geometry", "{notes}"], "TOML"),
    (["battle", "armada", "--fleet-file", "{notes}"], "TOML"),
    (["assist", "armada", "--state", "{notes}", "--fleet", "victory-ii"], "not an Armada assistant state file"),
    (["assist", "armada", "--state", "{notes}"], "not an Armada assistant state file"),
    (["simulate", "sfb", "--db", "{notes}"], "not a PaperRobot results database"),
    (["simulate", "sfb", "--db", "{wrongdb}"], "not a PaperRobot results database"),
    (["simulate", "sfb", "--db", "{wrongdb}", "--force"], "table 'games' that is not PaperRobot's"),
    (["simulate", "fc", "--db", "{tmp}"], "this is a folder"),
]


@pytest.fixture
def hostile_folder(tmp_path, notes):
    with sqlite3.connect(tmp_path / "wrong.sqlite") as con:
        con.execute("CREATE TABLE games (name TEXT, players INTEGER)")
    from tests.cli.test_outputs import write_save
    write_save(tmp_path / "game.save", "sfb", 3)
    return tmp_path


def _fill(args, folder):
    names = {"tmp": folder, "notes": folder / "notes.txt", "wrongdb": folder / "wrong.sqlite",
             "save": folder / "game.save"}
    return [a.format(**names) for a in args]


@pytest.mark.parametrize("args,needle", HOSTILE, ids=[" ".join(a) or "empty" for a, _ in HOSTILE])
def test_hostile_command_line(hostile_folder, args, needle):
    before = snapshot(hostile_folder)
    result = invoke(_fill(args, hostile_folder))
    assert_one_line_error(result, needle)
    assert result.exit_code == 2
    assert snapshot(hostile_folder) == before


@pytest.mark.slow
@pytest.mark.parametrize("args,needle", HOSTILE[::4], ids=[" ".join(a) or "empty" for a, _ in HOSTILE[::4]])
def test_hostile_command_line_in_a_real_process(hostile_folder, args, needle):
    """The same through the installed entry point's code path (run()), as a person's shell runs it."""
    before = snapshot(hostile_folder)
    proc = subprocess.run(PAPERROBOT + _fill(args, hostile_folder), input="quit\n", capture_output=True, text=True,
                          env=subprocess_env(), timeout=120, cwd=hostile_folder)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    assert len(proc.stderr.splitlines()) == 1 and needle.lower() in proc.stderr.lower(), proc.stderr
    assert snapshot(hostile_folder) == before


def test_version():
    result = invoke(["--version"])
    assert result.exit_code == 0 and result.stdout.startswith("paperrobot ")
