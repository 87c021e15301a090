"""The Armada assistant against what a person may type or hand in (issue 21, items 2, 8 and 11): a table
session is never replaced without --force, every measurement is bounded, a state file is validated whole,
and a long line is refused quickly."""
import json
import time

import pytest

from paperrobot.armada import Assistant
from paperrobot.armada.assist_state import MAX_LINE, read_state
from paperrobot.armada.frontend import TableQuestions
from paperrobot.cli.questions import answer


def assist_answer(assistant, line):
    return answer(assistant, line, TableQuestions())

from paperrobot.core.errors import PaperRobotError, SaveError
from tests.fuzz.conftest import assert_one_line_error, invoke


def _session(state):
    result = invoke(["assist", "armada", "--state", state, "--fleet", "victory-ii,gladiator-i,tie-fighter*2"],
                    input="style\ndamage victory-ii-1 front 2\nround\nquit\n")
    assert result.exit_code == 0, result.output
    return state.read_text()


def test_a_new_fleet_does_not_replace_a_table_session(tmp_path):
    state = tmp_path / "table.json"
    before = _session(state)
    result = invoke(["assist", "armada", "--state", state, "--fleet", "cr90-a"])
    assert_one_line_error(result, f"--state {state}: the file already holds a table session")
    assert "--force" in result.stderr and "without --fleet" in result.stderr
    assert state.read_text() == before
    resumed = invoke(["assist", "armada", "--state", state], input="log\nshow\nquit\n")  # everything is still there
    assert resumed.exit_code == 0 and "4. round" in resumed.output and "victory-ii-1: shields 1/" in resumed.output
    forced = invoke(["assist", "armada", "--state", state, "--fleet", "victory-ii", "--force"], input="quit\n")
    assert forced.exit_code == 0 and json.loads(state.read_text())["lines"] == ["fleet victory-ii"]


@pytest.mark.parametrize("line,needle", [
    ("damage victory-ii-1 front -5", "damage must be between 0"),
    ("damage victory-ii-1 front 1e400", "damage must be between"),
    ("damage victory-ii-1 front nan", "damage must be between"),
    ("damage victory-ii-1 front inf", "damage must be between"),
    ("damage victory-ii-1 front 1.5", "whole number"),
    ("hit tie-fighter-1 -3", "damage must be between"),
    ("focal 500 nan", "position"),
    ("focal 500 -inf", "position"),
    ("focal 1e400", "position"),
    ("focal 99999", "position"),
    ("order victory-ii-1:inf", "dice must be"),
    ("order victory-ii-1:-2", "dice must be"),
    ("attack victory-ii-1 front>cr90:front=-3@medium", "shields must be between 0"),
    ("attack victory-ii-1 front>cr90:front=1e400@medium", "shields must be between"),
    ("defend victory-ii-1 front medium RRU hit,hit,hit threat=nan", "threat must be"),
    ("defend victory-ii-1 front medium RRU hit,hit,hit threat=1e400", "threat must be"),
    ("squad tie-fighter-1 x-wing-1:-4", "hull must be"),
    ("squad tie-fighter-1 x-wing-1:inf", "hull must be"),
])
def test_impossible_measurements_are_refused_and_change_nothing(line, needle):
    a = Assistant.open(None, "victory-ii,tie-fighter*2", 1)
    before = json.dumps(a.state.core(), sort_keys=True)
    with pytest.raises(PaperRobotError, match=needle):
        assist_answer(a, line)
    assert json.dumps(a.state.core(), sort_keys=True) == before


def test_shields_never_go_above_the_card_or_below_zero():
    a = Assistant.open(None, "victory-ii", 1)
    assist_answer(a, "damage victory-ii-1 front 50")
    ship = a.state.ships["victory-ii-1"]
    assert ship["shields"][0] == 0 and ship["destroyed"] and ship["facedown"] == 8  # a Victory II's hull
    read_state_roundtrip(a)


def read_state_roundtrip(a, tmp=None):
    import tempfile
    from pathlib import Path
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "s.json"
        path.write_text(a.state.to_json())
        return read_state(path)


TAMPERED = [
    ("shields", [9, 9, 9, 9], "above the card"),
    ("shields", [-1, 2, 2, 1], "ships.victory-ii-1.shields.0"),
    ("shields", [1, 2], "ships.victory-ii-1.shields"),
    ("facedown", -3, "facedown"),
    ("facedown", 1e400, "facedown"),
    ("facedown", 99, "facedown"),
    ("speed", "fast", "speed"),
    ("tokens", [["teleport", False]], "tokens"),
    ("tokens", "brace", "tokens"),
    ("ship", "death-star", "unknown ship"),
    ("dial", "hyperspace", "dial"),
]


@pytest.mark.parametrize("key,value,needle", TAMPERED)
def test_a_hand_edited_state_file_is_refused_in_one_line(tmp_path, key, value, needle):
    state = tmp_path / "table.json"
    _session(state)
    raw = json.loads(state.read_text())
    raw["ships"]["victory-ii-1"][key] = value
    state.write_text(json.dumps(raw))
    before = state.read_text()
    with pytest.raises(SaveError, match=needle):
        read_state(state)
    result = invoke(["assist", "armada", "--state", state], input="show\nquit\n")
    assert_one_line_error(result, "the state file is damaged")
    assert state.read_text() == before


@pytest.mark.parametrize("change", [
    lambda raw: raw.update(seed=-1), lambda raw: raw.update(asked="many"), lambda raw: raw.update(focal=float("nan")),
    lambda raw: raw.update(round=10 ** 30), lambda raw: raw.update(style="reckless"), lambda raw: raw.update(ships=[]),
    lambda raw: raw.update(lines="style"), lambda raw: raw.update(lines=[["style"]]), lambda raw: raw.update(base=7),
    lambda raw: raw["squads"]["tie-fighter-1"].update(hull=30), lambda raw: raw.update(extra=1),
    lambda raw: raw.update(base={"seed": 1}),
])
def test_state_files_tampered_in_shapes_never_written_are_one_line(tmp_path, change):
    state = tmp_path / "table.json"
    _session(state)
    raw = json.loads(state.read_text())
    change(raw)
    state.write_text(json.dumps(raw, allow_nan=True))
    result = invoke(["assist", "armada", "--state", state], input="show\nquit\n")
    assert_one_line_error(result, str(state))
    assert result.exit_code == 2


def test_json_nested_100000_deep_is_one_line(tmp_path):
    state = tmp_path / "deep.json"
    state.write_text('{"format": "paperrobot-armada-assist", "ships": ' + "[" * 100_000 + "]" * 100_000 + "}")
    result = invoke(["assist", "armada", "--state", state], input="quit\n")
    assert_one_line_error(result, "not an Armada assistant state file")


def test_a_long_line_is_refused_at_once_and_the_session_goes_on():
    a = Assistant.open(None, "victory-ii,tie-fighter*2", 1)
    for line in ("x" * 1_600_000, "fleet " + ",".join(["victory-ii"] * 150_000), '"' + "x" * 1_600_000):
        started = time.perf_counter()
        with pytest.raises(PaperRobotError, match=f"at most {MAX_LINE}"):
            assist_answer(a, line)
        assert time.perf_counter() - started < 0.5
    # the longest legal question still parses, quoted or not, in linear time
    shots = " ".join(["front>cr90-a-1:front=2@medium"] * 60)[: MAX_LINE - 40]
    shots = shots[: shots.rfind(" ")]
    assert assist_answer(a, f"attack victory-ii-1 {shots}")
    assert assist_answer(a, f"attack 'victory-ii-1' {shots}")


def test_a_long_line_at_the_terminal_is_one_line_and_quick(tmp_path):
    started = time.perf_counter()
    result = invoke(["assist", "armada", "--fleet", "victory-ii"], input="fleet " + "a" * 1_600_000 + "\nshow\nquit\n")
    assert time.perf_counter() - started < 5
    assert result.exit_code == 0 and "at most 2000" in result.output and "victory-ii-1: shields" in result.output
