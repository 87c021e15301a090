"""Every file a person may hand in, and every name they may give an output: a FIFO, a device, a name too long,
JSON nested 100,000 deep, a damaged results database, a state file tampered with. Each is one line and exit 2
(never a traceback, never a hang, never a replaced file); and the Armada assistant's typed lines (scripted stdin)
never leave a state the file's own validation would refuse."""
import json
import os
import sqlite3
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paperrobot.armada import Assistant
from paperrobot.armada.assist_state import read_state
from paperrobot.armada.frontend import TableQuestions
from paperrobot.cli.questions import session as question_session
from paperrobot.core.errors import SaveError

from .conftest import PAPERROBOT, assert_one_line_error, invoke, snapshot, subprocess_env
from .tamper import tamper

LONG = "n" * 300

# every option that writes a file or a folder, with the rest of its command line
OUTPUTS = [
    (["battle", "sfb", "--log"], "too long"), (["battle", "fc", "--log"], "too long"),
    (["battle", "armada", "--log"], "too long"), (["battle", "armada", "--svg"], "too long"),
    (["play", "sfb", "--save"], "too long"), (["play", "fc", "--save"], "too long"),
    (["play", "armada", "--save"], "too long"), (["play", "sfb", "--log"], "too long"),
    (["simulate", "sfb", "--games", "2", "--db"], "too long"), (["simulate", "fc", "--games", "2", "--db"], "too long"),
    (["simulate", "armada", "--games", "2", "--db"], "too long"), (["assist", "armada", "--state"], "too long"),
    (["assist", "sfb", "--state"], "too long"), (["assist", "fc", "--state"], "too long"),
    (["balance", "fc", "--out"], "too long"), (["web", "--db"], "too long"),
    (["balance", "fc", "--out", "o", "--db"], ""),  # balance's own database (sim/balance.py): one line, its words
]
# every option that reads a file or a folder
INPUTS = [
    ["play", "sfb", "--resume"], ["play", "fc", "--resume"], ["play", "armada", "--resume"], ["replay"],
    ["assist", "armada", "--state"], ["assist", "sfb", "--state"], ["assist", "fc", "--state"],
    ["battle", "armada", "--geometry"], ["battle", "armada", "--fleet-file"], ["battle", "sfb", "--handicap-prices"],
    ["battle", "fc", "--handicap-prices"], ["battle", "armada", "--handicap-prices"], ["battle", "fc", "--ships-dir"],
    ["battle", "sfb", "--ships-dir"], ["battle", "armada", "--ships-dir"], ["battle", "fc", "--tables-dir"],
    ["ships", "--ships-dir"],
]


@pytest.mark.parametrize("args,needle", OUTPUTS, ids=[" ".join(a) for a, _ in OUTPUTS])
def test_an_output_name_too_long_is_one_line(tmp_path, monkeypatch, args, needle):
    monkeypatch.chdir(tmp_path)
    result = invoke(args + [LONG])
    assert_one_line_error(result, needle)
    assert result.exit_code == 2 and [p.name for p in tmp_path.iterdir()] in ([], ["o"])


@pytest.mark.parametrize("args", INPUTS, ids=[" ".join(a) for a in INPUTS])
def test_an_input_name_too_long_is_one_line(tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    result = invoke(args + [LONG])
    assert_one_line_error(result)
    assert result.exit_code == 2 and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args", INPUTS, ids=[" ".join(a) for a in INPUTS])
def test_a_fifo_is_refused_at_once(tmp_path, args):
    """Issue 21 item 11: a FIFO as --resume or to replay blocked forever (in process; an alarm stops a hang)."""
    import signal
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)

    def hung(signum, frame):
        raise AssertionError(f"{' '.join(args)} blocked on a FIFO")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(20)
    try:
        result = invoke(args + [fifo])
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert_one_line_error(result)
    assert result.exit_code == 2


@pytest.mark.slow
@pytest.mark.parametrize("args", INPUTS, ids=[" ".join(a) for a in INPUTS])
def test_a_fifo_is_refused_at_once_in_a_real_process(tmp_path, args):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    proc = subprocess.run(PAPERROBOT + args + [str(fifo)], input="quit\n", capture_output=True, text=True,
                          env=subprocess_env(), timeout=60, cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.splitlines()) == 1, proc.stderr


DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize("args,content", [
    (["play", "sfb", "--resume"], '{"format": "paperrobot-save", "version": 2, "setup": ' + DEEP + "}"),
    (["play", "fc", "--save"], '{"format": "paperrobot-save", "version": 2, "setup": ' + DEEP + "}"),
    (["assist", "sfb", "--state"], '{"format": "paperrobot-save", "version": 2, "setup": ' + DEEP + "}"),
    (["replay"], '{"kind": "setup", "data": ' + DEEP + "}\n"),
    (["battle", "fc", "--log"], '{"kind": "setup", "data": ' + DEEP + "}\n"),
    (["assist", "armada", "--state"], '{"format": "paperrobot-armada-assist", "ships": ' + DEEP + "}"),
    (["assist", "armada", "--fleet", "victory-ii", "--state"], '{"format": "paperrobot-armada-assist", "x": ' + DEEP + "}"),
])
def test_json_nested_100000_deep_is_one_line(tmp_path, args, content):
    path = tmp_path / "deep.json"
    path.write_text(content)
    result = invoke(args + [path])
    assert_one_line_error(result)
    assert path.read_text() == content


# ------------------------------------------------------------------------------------ results databases

@pytest.fixture(scope="module")
def results_db(tmp_path_factory):
    path = tmp_path_factory.mktemp("db") / "r.sqlite"
    assert invoke(["simulate", "fc", "--games", "4", "--db", path]).exit_code == 0
    return path.read_bytes()


def _damage(blob: bytes, how: str) -> bytes:
    data = bytearray(blob)
    if how == "pages":
        data[4096:] = bytes((i * 37 + 11) % 256 for i in range(len(data) - 4096))
    elif how == "first page":
        data[100:4096] = bytes((i * 53 + 7) % 256 for i in range(3996))
    elif how == "cut":
        data = data[: len(data) // 2]
    elif how == "page size":
        data[16:18] = b"\xff\xff"
    return bytes(data)


@pytest.mark.parametrize("how", ["pages", "first page", "cut", "page size"])
@pytest.mark.parametrize("force", [False, True])
def test_a_damaged_results_database_is_one_line(tmp_path, results_db, how, force):
    path = tmp_path / "r.sqlite"
    path.write_bytes(_damage(results_db, how))
    result = invoke(["simulate", "fc", "--games", "4", "--db", path] + (["--force"] if force else []))
    assert_one_line_error(result, "--db")


@pytest.mark.parametrize("change", ["metrics = '{{{'", "metrics = '[1]'", "turns = 'x'", "winner = x'00ff'",
                                    "metrics = '" + "[" * 5000 + "]" * 5000 + "'"])
def test_rows_changed_by_another_program_are_one_line(tmp_path, results_db, change):
    path = tmp_path / "r.sqlite"
    path.write_bytes(results_db)
    with sqlite3.connect(path) as con:
        con.execute(f"UPDATE games SET {change} WHERE idx = 1")
    result = invoke(["simulate", "fc", "--games", "4", "--db", path])
    assert_one_line_error(result, "the results database is damaged")


# ------------------------------------------------------------------------------------ the Armada assistant

def _state_file(tmp_path):
    path = tmp_path / "table.json"
    a = Assistant.open(path, "victory-ii,gladiator-i,tie-fighter*2", 3)
    for line in ("style", "focal 500 900", "deploy", "round", "command victory-ii-1 in",
                 "defend victory-ii-1 front medium RRU hit,hit,hit threat=4", "damage gladiator-i-1 left 3"):
        a.ask_line(line)
    a.save()
    return path


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_tampered_state_file_is_refused_in_one_line_or_within_the_cards(tmp_path, data):
    path = _state_file(tmp_path)
    raw = json.loads(path.read_text())
    tamper(raw, data)
    path.write_text(json.dumps(raw, allow_nan=True))
    try:
        state = read_state(path)
    except SaveError as exc:
        assert "\n" not in str(exc) and str(exc).startswith(str(path))
        return
    a = Assistant(state, None)  # accepted: every question still answers or refuses in one line
    for line in ("show", "round", "log", "command victory-ii-1 out"):
        try:
            a.ask_line(line)
        except SaveError:
            raise
        except Exception as exc:  # noqa: BLE001 - the point: only PaperRobotError may come out
            from paperrobot.core.errors import PaperRobotError
            assert isinstance(exc, PaperRobotError), repr(exc)


SHIPS = ["victory-ii-1", "gladiator-i-1", "tie-fighter-1", "nosuch", ""]
NUMBERS = ["0", "1", "3", "-5", "nan", "inf", "-inf", "1e400", "1.5", "99999", "٣", "0x10", ""]


@st.composite
def question(draw):
    ship, n, m = draw(st.sampled_from(SHIPS)), draw(st.sampled_from(NUMBERS)), draw(st.sampled_from(NUMBERS))
    zone = draw(st.sampled_from(["front", "left", "right", "rear", "up"]))
    band = draw(st.sampled_from(["close", "medium", "long", "far"]))
    return draw(st.sampled_from([
        f"damage {ship} {zone} {n}", f"hit tie-fighter-1 {n}", f"focal {n} {m}", f"order {ship}:{n}",
        f"attack {ship} {zone}>cr90-a-1:{zone}={n}@{band}", f"attack {ship} {zone}>x-wing-1@{band}!",
        f"defend {ship} {zone} {band} RRU hit,crit,hit threat={n}", f"defend {ship} {zone} {band} KU hit+hit,acc squad",
        f"squad tie-fighter-1 x-wing-1:{n}:escort", f"squadmove tie-fighter-1 ordered squad={ship} reach",
        f"command {ship} in squads", f"nav {ship} double=x", "style", "deploy", "round", "show", "log", "undo",
        f"undo {n}", "order", "help", f"fleet {ship}", "override", draw(st.text(max_size=30)), "'", "\\",
    ]))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(question(), max_size=30))
def test_any_typed_lines_keep_a_state_the_file_accepts(tmp_path, lines):
    """Scripted stdin for 'assist armada': nothing typed crashes it, and the state written after every answer
    always reads back (no shields above the card, no negative damage, no NaN: nothing impossible accepted)."""
    path = tmp_path / "table.json"
    path.unlink(missing_ok=True)
    a = Assistant.open(path, "victory-ii,gladiator-i,tie-fighter*2", 5)
    feed = iter(lines)

    def typed(prompt):
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    question_session(a, TableQuestions(), typed)
    state = read_state(path)
    assert state.lines == a.state.lines


def test_no_file_is_touched_by_a_refused_assist(tmp_path, notes):
    path = _state_file(tmp_path)
    before = snapshot(tmp_path)
    for args in (["--fleet", "cr90-a"], ["--fleet", "victory-ii*9"], ["--seed", "abc"]):
        result = invoke(["assist", "armada", "--state", path] + args)
        assert_one_line_error(result)
    assert snapshot(tmp_path) == before
