"""Nothing a person made is lost (issue 21, items 1, 3, 12).

Item 1: a roll the person gave ('roll 7') that the die it feeds cannot show is refused when that die is rolled
(the person is asked for the die, one line naming it), never a traceback; a save, an assistant's state or a web
session that already holds such a roll still opens and goes on. Played end to end through the terminal loop,
the CLI, the table assistant and the web page, then resumed.
"""
from __future__ import annotations

import random

import pytest

import paperrobot
from paperrobot.cli.assist import AssistFront, AssistPlay
from paperrobot.cli.terminal import Front, TerminalPlay
from paperrobot.core import registry
from paperrobot.core.dice import Dice, DiceScriptError
from paperrobot.core.events import EventLog
from paperrobot.core.save import load_match, match_save, read_match_save, write_match_save

from .conftest import invoke

GAMES = paperrobot.games()
# a value no die of the game shows at its first checked die: sfb/fc roll d6s; Armada's 3 fits its d8s but not
# the d2 it rolls to break an activation tie
BAD = {"sfb": 7, "fc": 7, "armada": 3}


def _bad_roll_play(name, path, value, stop_after_roll=True, assist=False, answer_roll="1"):
    """A terminal session that types 'roll <value>' at every question until the program asks for a die (the
    refused roll), answers it with ``answer_roll``, then quits. Returns (play, what was said)."""
    state = {"rolled": False, "said": []}

    def answer(prompt):
        request = state["play"].request
        if request is not None and request.kind == "roll" and not state["rolled"]:
            state["rolled"] = True
            state["roll_request"] = (request.prompt, request.error)
            state["roll_data"] = request.data
            return answer_roll
        if state["rolled"] and stop_after_roll:
            return "quit"
        if len(state["said"]) > 400:
            raise AssertionError("no die was refused")
        state["said"].append(prompt)
        return f"roll {value}" if len(state["said"]) % 2 else ""

    new = (lambda log: paperrobot.new_game(name, seed=1, log=log))
    if assist:
        front = AssistFront(registry.info(name).assistant())
        play = AssistPlay(name, front, new, path, input_fn=answer)
    else:
        play = TerminalPlay(name, Front(), new, save_path=path, input_fn=answer)
    state["play"] = play
    play.run()
    return play, state


@pytest.mark.parametrize("name", GAMES)
def test_a_roll_the_next_die_cannot_show_is_refused_then_and_the_save_resumes(name, tmp_path, capsys):
    path = tmp_path / "game.save"
    play, state = _bad_roll_play(name, path, BAD[name])
    prompt, error = state["roll_request"]
    out = capsys.readouterr().out
    assert "Traceback" not in out
    assert error.startswith(f"roll {BAD[name]} cannot be a ") and error.endswith(": roll again"), error
    assert f"Not allowed: {error}" in out and "Roll a " in prompt
    saved = read_match_save(path)
    assert saved.answers[-1][1] == "roll" and saved.answers[-1][3] == "1"
    # resume: the refused roll stays in the record, every replay refuses it the same way and takes the 1
    match, steps, request = load_match(path, name)
    assert (request.seq, request.kind, request.error) == (play.request.seq, play.request.kind, play.request.error)
    assert match.answers == [list(a) for a in saved.answers]
    wanted = state["roll_data"]
    die = next(r for r in match.engine.dice.rolls if r.purpose == wanted["purpose"])
    assert (die.sides, die.value) == (wanted["sides"], 1) and die.sides < BAD[name]
    for _ in range(5):  # and the game goes on
        try:
            request = steps.send(request.default)
        except StopIteration:
            break


@pytest.mark.parametrize("name", GAMES)
def test_a_save_written_before_rolls_were_checked_still_opens(name, tmp_path, capsys):
    """The old program saved the roll and the answer after which the die was rolled, then died: that save now
    opens at the die, with one line naming it."""
    path = tmp_path / "old.save"
    play, state = _bad_roll_play(name, path, BAD[name])
    match = play.match
    old = match_save(match, registry.info(name).engine_version)
    old.answers = old.answers[:-1]  # without the roll the person gave when asked: what the old program had saved
    write_match_save(path, old)
    capsys.readouterr()
    lines = iter(["2", "quit"])
    resumed = TerminalPlay(name, Front(), lambda log: None, resume=path, input_fn=lambda p: next(lines))
    assert resumed.request.kind == "roll" and "cannot be a" in resumed.request.error
    resumed.run()
    out = capsys.readouterr().out
    assert "Traceback" not in out and f"Roll {BAD[name]} cannot be a " in out
    assert list(read_match_save(path).answers[-1][1:]) in (["roll", "player", "2"], ["roll", "rebel", "2"])


@pytest.mark.parametrize("name", ["sfb", "fc"])
def test_the_table_assistant_refuses_the_roll_then_resumes_and_undoes(name, tmp_path, capsys):
    path = tmp_path / "state.save"
    play, state = _bad_roll_play(name, path, 7, assist=True)
    assert "cannot be a d6 (1-6): roll again" in state["roll_request"][1]
    entries = len(read_match_save(path).answers)
    lines = iter(["undo", "", "quit"])
    front = AssistFront(registry.info(name).assistant())
    again = AssistPlay(name, front, lambda log: None, path, input_fn=lambda p: next(lines))
    assert again.request is not None and len(again.match.answers) == entries
    again.run()  # 'undo' takes back the roll: the die is asked again (the 7 is still refused), Enter rolls it
    out = capsys.readouterr().out
    assert "Traceback" not in out and "Roll 7 cannot be a d6 (1-6): roll again." in out
    answers = read_match_save(path).answers
    rolls = [list(a[1:]) for a in answers if a[1] == "roll"]
    assert len(answers) == entries and rolls == [["roll", "player", "program"]]


def test_armada_roll_3_before_a_d2_through_the_cli_and_resume(tmp_path):
    """The issue's reproducer: 'roll 3' at every Armada question until the AI breaks an activation tie with a d2."""
    path = tmp_path / "armada.save"
    result = invoke(["play", "armada", "--save", path], input="roll 3\n\n" * 3 + "1\nquit\n")
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert "Not allowed: roll 3 cannot be a coin (1-2): roll again" in result.output
    answers = read_match_save(path).answers
    assert [list(a[1:]) for a in answers[-2:]] == [["command", "rebel", "concentrate"], ["roll", "rebel", "1"]]
    again = invoke(["play", "armada", "--resume", path], input="\n\nquit\n")
    assert again.exit_code == 0 and "Traceback" not in again.output and "cannot be" not in again.output
    assert len(read_match_save(path).answers) == len(answers) + 2


def test_sfb_roll_7_through_the_cli_the_old_save_resumes(tmp_path):
    """A save the old program wrote (the '7' and the move after which the robot's phaser rolled it) opens."""
    path = tmp_path / "sfb.save"
    _bad_roll_play("sfb", path, 7)
    save = read_match_save(path)
    save.answers = save.answers[:-1]
    write_match_save(path, save)
    result = invoke(["play", "sfb", "--resume", path], input="4\nquit\n")
    assert "Traceback" not in result.output and result.exit_code == 0, result.output
    assert "Roll 7 cannot be a d6 (1-6): roll again." in result.output
    assert list(read_match_save(path).answers[-1][1:]) == ["roll", "player", "4"]


def test_table_dice_and_a_hand_edited_roll_are_dropped_with_a_line(tmp_path):
    match = paperrobot.new_game("fc", seed=5, dice="table")
    steps = match.play()
    request = next(steps)
    while request.kind != "roll":
        request = steps.send(request.default)
    request = steps.send("6")
    path = tmp_path / "t.save"
    save = match_save(match, 1)
    where = next(i for i, a in enumerate(save.answers) if a[1] == "roll")
    entry = list(save.answers[where])
    entry[3] = "9"  # a d6 cannot show it: edited by hand
    save.answers[where] = tuple(entry)
    write_match_save(path, save)
    loaded, steps, request = load_match(path)
    assert "the recorded roll 9 cannot be a d6 (1-6)" in request.error and "dropped" in request.error


def test_dice_outside_a_match_still_refuse_a_value_that_does_not_fit():
    with pytest.raises(DiceScriptError):
        Dice.scripted(7).d6("a test's mistake")
    dice = Dice(3)
    dice.script(9)
    with pytest.raises(DiceScriptError):
        dice.d6("no match to ask")
    dice.script(9)
    dice.unfit = lambda value, sides, purpose, side: None
    assert 1 <= dice.d6("the seeded die instead") <= 6


def _web_client(db):
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    from fastapi.testclient import TestClient
    from paperrobot.web.app import create_app
    return TestClient(create_app(db), raise_server_exceptions=False)


def test_the_web_assistant_refuses_the_roll_then_resumes_after_a_restart_and_undoes(tmp_path):
    import re
    db = tmp_path / "web.sqlite"
    client = _web_client(db)
    url = client.post("/assist/sfb", data={"game": "sfb", "o.scenario": "5", "seed": "3"}).url.path

    def seq():
        return re.search(r'name="seq" value="(\d+)"', client.get(url).text).group(1)

    def send(action, text):
        data = {"seq": seq(), "action": action, action: text}
        return client.post(url + "/answer", data=data, follow_redirects=True)
    assert send("roll", "7").status_code == 200
    for _ in range(60):
        page = send("answer", "")
        assert page.status_code == 200, page.text[-500:]
        if "Roll a d6" in page.text:
            break
    else:
        raise AssertionError("no die was asked")
    stored = client.app.state.store.answers(1)
    client.close()
    client = _web_client(db)  # a new server: the session is rebuilt by replay
    page = client.get(url)
    assert page.status_code == 200 and "Roll a d6" in page.text
    assert send("answer", "3").status_code == 200
    assert [a[1] for a in client.app.state.store.answers(1) if a[3] == "3"][-1] == "roll"
    undone = client.post(url + "/undo", data={"seq": seq()}, follow_redirects=True)
    assert undone.status_code == 200 and len(client.app.state.store.answers(1)) <= len(stored)


# ---------------------------------------------------------------------- fuzz: any roll at any question
@pytest.mark.parametrize("name", GAMES)
def test_any_roll_at_any_question_never_breaks_the_game_or_its_save(name, tmp_path, capsys):
    """Rolls 1-100 (what 'roll' accepts) typed at random questions, random legal answers between them, dice
    asked of the person answered at random (a value, or the program's): no traceback, and every save written
    opens again with the same answers."""
    cases, refused = 0, []
    for seed in range(4):
        rng = random.Random(seed)
        path = tmp_path / f"{seed}.save"
        state = {"n": 0}

        def answer(prompt):
            request = state["play"].request
            state["n"] += 1
            if state["n"] > 150:
                raise EOFError
            if request.kind == "roll":
                refused.append(request.error)
                return rng.choice([o.key for o in request.options])
            if rng.random() < 0.3:
                return "roll " + " ".join(str(rng.randint(1, 100)) for _ in range(rng.randint(1, 3)))
            if request.form is not None:  # Enter, or a preset by number ('2' fires every ready weapon: dice)
                return "2" if request.kind == "fire" and len(request.options) > 1 else ""
            if request.kind == "disengage" or rng.random() < 0.7:
                return request.default  # keep the battle going: dice are rolled in fights
            return rng.choice(request.options).key
        play = TerminalPlay(name, Front(), lambda log: paperrobot.new_game(name, seed=seed, log=log),
                            save_path=path, input_fn=answer)
        state["play"] = play
        play.run()
        cases += state["n"]
        assert "Traceback" not in capsys.readouterr().out
        assert all(1 <= r.value <= r.sides for r in play.match.engine.dice.rolls)  # no impossible die accepted
        if path.exists():
            match, _, _ = load_match(path, name, EventLog(enabled=False))
            assert match.answers == play.match.answers
    assert cases > 100 and any("cannot be a" in error for error in refused)


# ---------------------------------------------------------------------- item 3: balance --out replaces only its own
def _balance(out, *more):
    pytest.importorskip("statsmodels")
    pytest.importorskip("matplotlib")
    return invoke(["balance", "synthetic-balance", "--out", out, "--games-per-level", "30", "--probe-games", "30",
                   "--levels", "5", "--quiet", "--jobs", "1", *more])


@pytest.fixture
def synthetic():
    from tests.sim import synthetic_game
    synthetic_game.register()
    yield
    synthetic_game.unregister()


def _report_names():
    from paperrobot.sim.balance import registry_matchup, slug
    stem = slug(registry_matchup("synthetic-balance", {}, "policy"))
    return [stem + suffix for suffix in (".txt", ".json", ".png", ".svg")]


@pytest.mark.usefixtures("synthetic")
def test_balance_out_replaces_only_the_reports_it_wrote(tmp_path):
    from .conftest import assert_one_line_error, snapshot
    out = tmp_path / "out"
    out.mkdir()
    mine = out / _report_names()[0]
    mine.write_text("my own notes that happen to share the report's name\n")
    probe = out / ".paperrobot-write-test"  # the old write test deleted a file of this name
    probe.write_text("mine too\n")
    before = snapshot(out)
    refused = _balance(out)
    assert_one_line_error(refused, mine.name)
    assert "--force" in refused.stderr and snapshot(out) == before  # nothing written, nothing deleted
    mine.unlink()
    first = _balance(out)
    assert first.exit_code == 0, first.output
    assert probe.read_text() == "mine too\n" and all((out / name).is_file() for name in _report_names())
    again = _balance(out, "--seed", "2")  # its own reports: replaced without asking
    assert again.exit_code == 0, again.output
    edited = out / _report_names()[1]
    edited.write_text(edited.read_text() + " ")  # the person edited a report: theirs now
    before = snapshot(out)
    refused = _balance(out, "--seed", "3")
    assert_one_line_error(refused, "was changed since PaperRobot wrote it")
    assert snapshot(out) == before
    forced = _balance(out, "--seed", "3", "--force")
    assert forced.exit_code == 0, forced.output


@pytest.mark.usefixtures("synthetic")
def test_balance_report_on_a_full_disk_leaves_the_old_report_whole(tmp_path, monkeypatch):
    import errno
    import os
    from .conftest import snapshot
    out = tmp_path / "out"
    assert _balance(out).exit_code == 0
    before = snapshot(out)
    real_write = os.write
    calls = {"n": 0}

    def full(fd, data):
        calls["n"] += 1
        if calls["n"] > 2:  # the manifest and a file pass, then the disk is full
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)
    monkeypatch.setattr(os, "write", full)
    result = _balance(out, "--seed", "2")
    monkeypatch.undo()
    assert result.exit_code == 2 and "the disk is full" in result.stderr and "Traceback" not in result.output
    after = snapshot(out)
    assert set(after) == set(before)  # no half file, no temporary file left
    assert _balance(out, "--seed", "4").exit_code == 0  # every file there is still recognised as the program's own


def test_a_report_folder_with_a_foreign_list_file_is_refused(tmp_path):
    from paperrobot.core.files import MANIFEST, FileProblem, ReportFolder
    (tmp_path / MANIFEST).write_text("{not ours")
    with pytest.raises(FileProblem, match="--force"):
        ReportFolder(tmp_path, "--out")
    folder = ReportFolder(tmp_path, "--out", force=True)
    folder.write({"a.txt": b"x"})
    assert ReportFolder(tmp_path, "--out").files == {"a.txt": [folder.files["a.txt"][0]]}


# ---------------------------------------------------------------------- item 12: stray temporary files, the version
def test_temporary_files_left_by_a_kill_are_removed_by_the_next_write(tmp_path):
    import os
    import time
    from paperrobot.core import files
    target = tmp_path / "game.save"
    stale = tmp_path / ".game.save.k2j_x9q1.tmp"  # what mkstemp names it; a kill before the rename leaves it
    fresh = tmp_path / ".game.save.a1b2c3d4.tmp"  # another run writing the same file right now
    others = [tmp_path / "game.save.tmp", tmp_path / ".game.save.notes.tmp", tmp_path / ".other.save.k2j_x9q1.tmp"]
    for path in [stale, fresh, *others]:
        path.write_text("x")
    old = time.time() - 3600
    for path in [stale, *others]:
        os.utime(path, (old, old))
    files._cleaned.discard(str(target))
    files.write_text_atomic(target, "new")
    assert target.read_text() == "new" and not stale.exists() and fresh.exists()
    assert all(path.exists() for path in others)  # not of the program's naming pattern for this file


def test_play_cleans_the_stray_temporary_file_of_its_save_on_the_next_start(tmp_path):
    import os
    from paperrobot.core import files
    path = tmp_path / "g.save"
    stray = tmp_path / ".g.save.zz99aa00.tmp"
    stray.write_text('{"format": "paperrobot-sa')  # half a save: the kill came during the write
    os.utime(stray, (1, 1))
    files._cleaned.discard(str(path))
    result = invoke(["play", "fc", "--save", path], input="\nquit\n")
    assert result.exit_code == 0 and path.exists() and not stray.exists()


def test_one_version_everywhere():
    import tomllib
    from pathlib import Path
    from paperrobot.core.save import match_save
    root = Path(__file__).resolve().parents[2]
    project = tomllib.loads((root / "pyproject.toml").read_text())
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    # the one source, below every layer (core/save.py reads it without importing the top package; issue 25)
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "paperrobot._version.__version__"}
    from paperrobot import _version
    assert _version.__version__ == paperrobot.__version__
    shown = invoke(["--version"])
    assert shown.output.strip() == f"paperrobot {paperrobot.__version__}"
    match = paperrobot.new_game("fc", seed=1)
    assert match_save(match, 1).program == paperrobot.__version__


def test_a_new_game_keeps_the_unfinished_one_even_when_another_was_kept_the_same_second(tmp_path, monkeypatch):
    import time
    from paperrobot.cli import terminal
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr(time, "time", lambda: 1_700_000_000.0)
    recovery = terminal.recovery_path("fc")
    kept = []
    for n in range(2):  # twice: an unfinished game, 'n' to resume it, a new game started and left unfinished
        lines = iter(["n", "", "quit"] if recovery.exists() else ["", "quit"])
        play = TerminalPlay("fc", Front(), lambda log: paperrobot.new_game("fc", seed=n, log=log),
                            input_fn=lambda p: next(lines))
        play.run()
        kept.append(recovery.read_bytes())
    lines = iter(["n", "quit"])
    TerminalPlay("fc", Front(), lambda log: paperrobot.new_game("fc", seed=9, log=log), input_fn=lambda p: next(lines))
    stored = sorted(p.read_bytes() for p in recovery.parent.glob("recovery-fc-*.save"))
    assert sorted(kept) == stored  # both unfinished games are kept, neither replaced the other
