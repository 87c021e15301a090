"""Hypothesis against game logs: a damaged log is read up to the damage, never past it, and 'replay'
narrates that part and says where it stops, in one line, without a traceback."""
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paperrobot.core.events import read_log
from paperrobot.core.errors import SaveError

from .conftest import invoke


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    """One real log per game."""
    folder = tmp_path_factory.mktemp("logs")
    out = {}
    for game, args in (("sfb", ["--no-maps"]), ("fc", []), ("armada", ["--quiet"])):
        path = folder / f"{game}.jsonl"
        result = invoke(["battle", game, "--seed", "4", "--log", path] + args)
        assert result.exit_code == 0, result.output
        out[game] = path.read_bytes()
    return out


@st.composite
def damage(draw, text: bytes):
    kind = draw(st.sampled_from(["cut", "flip", "insert", "garbage-line", "binary"]))
    at = draw(st.integers(0, len(text)))
    if kind == "cut":
        return text[:at]
    if kind == "flip":
        if not text:
            return text
        at = min(at, len(text) - 1)
        return text[:at] + bytes([text[at] ^ draw(st.integers(1, 255))]) + text[at + 1:]
    if kind == "insert":
        return text[:at] + draw(st.binary(min_size=1, max_size=30)) + text[at:]
    if kind == "garbage-line":
        line = draw(st.sampled_from([b"garbage", b"{}", b"[1, 2]", b'{"kind": 3}', b'{"turn": 1}', b"\x00" * 20,
                                     b'{"kind": "moved", "turn": "x"}', b"null", b'"text"']))
        cut = text.rfind(b"\n", 0, at) + 1
        return text[:cut] + line + b"\n" + text[cut:]
    return draw(st.binary(max_size=2000))


def _events(text: bytes) -> list[str]:
    return [json.dumps(json.loads(line), sort_keys=True) for line in text.splitlines() if line.strip()]


def check(tmp_path, original: bytes, damaged: bytes):
    path = tmp_path / "damaged.jsonl"
    path.write_bytes(damaged)
    events, problem = read_log(path)
    whole = _events(original)
    got = [e.to_json() for e in events]
    # what was read is exactly a prefix of the real game's events (a damaged line is never half-read),
    # except that a flipped byte can leave a valid but different line
    assert len(got) <= max(len(whole), len(damaged.splitlines()))
    if problem is None:
        assert damaged.count(b"\n") + 1 >= len(got)
    else:
        assert "line" in problem or "larger" in problem
    return events, problem


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_read_log_stops_at_the_damage(tmp_path, logs, data):
    game = data.draw(st.sampled_from(sorted(logs)))
    original = logs[game]
    damaged = data.draw(damage(original))
    events, problem = check(tmp_path, original, damaged)
    if damaged.startswith(original) and damaged == original:
        assert problem is None
    if original.startswith(damaged) and problem is not None:  # a cut: every complete line before it is read
        whole = original.splitlines()
        assert len(events) >= len(damaged.splitlines()) - 1
        assert [e.to_json() for e in events] == [json.dumps(json.loads(x), sort_keys=True, separators=(",", ":"))
                                                 for x in whole[:len(events)]]


@pytest.mark.parametrize("game", ["sfb", "fc", "armada"])
def test_replay_of_a_cut_log_narrates_up_to_the_cut(tmp_path, logs, game):
    original = logs[game]
    path = tmp_path / "cut.jsonl"
    path.write_bytes(original[: len(original) * 2 // 3])
    result = invoke(["replay", path])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert len(result.stderr.splitlines()) == 1 and "cut short" in result.stderr and "stops there" in result.stderr
    assert len(result.stdout.splitlines()) > 5  # the narration up to the damage


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_replay_of_any_damaged_log_is_the_narration_and_at_most_one_line(tmp_path, logs, data):
    game = data.draw(st.sampled_from(sorted(logs)))
    damaged = data.draw(damage(logs[game]))
    path = tmp_path / "damaged.jsonl"
    path.write_bytes(damaged)
    result = invoke(["replay", path])
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    if result.exit_code == 0:
        assert result.stderr == ""
    else:
        assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1, result.stderr


def test_a_missing_or_unreadable_log_is_a_save_error(tmp_path):
    with pytest.raises(SaveError, match="no such file"):
        read_log(tmp_path / "none.jsonl")
    with pytest.raises(SaveError, match="folder"):
        read_log(tmp_path)
