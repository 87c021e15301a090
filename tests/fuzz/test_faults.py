"""Faults from outside: a full disk, a read-only folder, a locked results database, and Ctrl-C, SIGTERM
or SIGKILL in the middle of 'simulate'. Each gives one line, keeps the previous file, loses no finished
game, and a resumed run completes with every game index once."""
import errno
import os
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from paperrobot.core import files

from .conftest import PAPERROBOT, assert_one_line_error, invoke, snapshot, subprocess_env


def _no_temporary_files(folder: Path):
    assert not [p.name for p in folder.iterdir() if p.name.startswith(".") or p.name.endswith(".tmp")]


# ------------------------------------------------------------------------------ disk full, read-only

def test_disk_full_while_writing_a_log_keeps_the_previous_log(tmp_path, monkeypatch):
    log = tmp_path / "b.jsonl"
    assert invoke(["battle", "fc", "--log", log]).exit_code == 0
    before = log.read_bytes()

    def full(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files.os, "write", full)
    result = invoke(["battle", "fc", "--log", log, "--seed", "9"])
    assert_one_line_error(result, "disk is full")
    assert "previous file is unchanged" in result.stderr
    assert log.read_bytes() == before
    _no_temporary_files(tmp_path)


def test_disk_full_while_saving_a_game_leaves_no_file(tmp_path, monkeypatch):
    save = tmp_path / "g.save"

    def full(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files.os, "write", full)
    result = invoke(["play", "fc", "--save", save], input="save\nquit\n")
    assert_one_line_error(result, "disk is full")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("code,words", [(errno.EROFS, "read-only"), (errno.EACCES, "permission denied")])
def test_an_unwritable_folder_is_refused_before_any_work(tmp_path, monkeypatch, code, words):
    def refuse(*args, **kwargs):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(files.tempfile, "mkstemp", refuse)
    for args in (["battle", "sfb", "--log", tmp_path / "b.jsonl"], ["play", "fc", "--save", tmp_path / "g.save"],
                 ["simulate", "fc", "--games", "2", "--db", tmp_path / "r.sqlite"],
                 ["battle", "armada", "--svg", tmp_path / "pics"]):
        result = invoke(args)
        assert_one_line_error(result, words)
        assert result.stdout == ""  # nothing was played
    assert list(tmp_path.iterdir()) == [tmp_path / "pics"] or list(tmp_path.iterdir()) == []


@pytest.mark.slow
@pytest.mark.skipif(os.geteuid() == 0, reason="runs as root: chmod cannot make a folder unwritable for root "
                                              "(the read-only file system test below covers it)")
def test_a_real_read_only_folder(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        result = invoke(["battle", "fc", "--log", folder / "b.jsonl"])
        assert_one_line_error(result, "cannot write in the folder")
    finally:
        folder.chmod(0o755)


@pytest.fixture
def tiny_fs(tmp_path):
    """A real 256 kB file system (tmpfs), if this machine lets the tests mount one; else a visible skip."""
    mount = tmp_path / "tiny"
    mount.mkdir()
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mount)], capture_output=True,
                          text=True)
    if proc.returncode != 0:
        pytest.skip(f"cannot mount a small file system here ({proc.stderr.strip() or 'mount failed'}); the "
                    f"full-disk cases are covered by the simulated ENOSPC tests")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


@pytest.mark.slow
def test_a_really_full_disk_and_a_read_only_file_system(tiny_fs):
    log = tiny_fs / "b.jsonl"
    assert invoke(["battle", "fc", "--log", log]).exit_code == 0
    before = log.read_bytes()
    filler = tiny_fs / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)  # fill the rest of the disk
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError:
        pass
    finally:
        os.close(fd)
    result = invoke(["battle", "armada", "--log", log, "--quiet"])  # a bigger log than the room left
    assert_one_line_error(result, "disk is full")
    assert log.read_bytes() == before
    assert sorted(p.name for p in tiny_fs.iterdir()) == ["b.jsonl", "filler"]
    filler.unlink()
    subprocess.run(["mount", "-o", "remount,ro", str(tiny_fs)], check=True)
    result = invoke(["battle", "fc", "--log", log, "--seed", "3"])
    assert_one_line_error(result, "read-only")
    assert result.stdout == ""
    assert log.read_bytes() == before


# ------------------------------------------------------------------------------ simulate: locks and signals

# Enough games (several seconds of play on an idle machine, compiled) that the signal always lands mid-run:
# with 800 a fast machine finished every game in the moment between seeing 100 rows and the signal arriving; with
# 4,000 the compiled engines play the whole run in 1.6 s on 2 cores, and one local run in four failed so.
GAMES = 20000


def _simulate(db: Path, *extra, method="fork", games=GAMES):
    return subprocess.Popen(PAPERROBOT + ["simulate", "sfb", "--games", str(games), "--jobs", "2", "--seed", "3",
                                          "--opponent", "robot", "--impulses", "8", "--db", str(db), "--quiet",
                                          *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            env=subprocess_env(PAPERROBOT_START_METHOD=method), cwd=db.parent,
                            preexec_fn=_interruptible)


def _interruptible() -> None:
    """Ctrl-C as at a terminal, however the tests were started: a shell script run in the background starts its
    commands with SIGINT ignored, the run would inherit that and never see the signal (returncode 0, not 130)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _rows(db: Path) -> tuple[int, int]:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as con:
            return con.execute("SELECT COUNT(*), COUNT(DISTINCT idx) FROM games").fetchone()
    except sqlite3.OperationalError:
        return 0, 0


def _wait_for_rows(db: Path, proc, at_least: int, timeout: float = 90) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        count = _rows(db)[0]
        if count >= at_least:
            return count
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    raise AssertionError(f"no {at_least} rows within {timeout} s")


def _no_process_left(session: int, grace: float = 3.0) -> None:
    """No worker (or helper process) of the run outlives it by more than ``grace`` seconds."""
    deadline = time.monotonic() + grace
    while True:
        left = subprocess.run(["pgrep", "-a", "-s", str(session)], capture_output=True, text=True).stdout
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert left == "", f"processes left behind: {left}"


def _run_row(db: Path):
    with sqlite3.connect(db) as con:
        return con.execute("SELECT finished, completed, games FROM runs").fetchall()


def _outcomes(db: Path) -> dict:
    with sqlite3.connect(db) as con:
        return {row[0]: row[1:] for row in con.execute("SELECT idx, seed, winner, result, turns, metrics FROM games")}


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    """The same run without any fault: what every resumed run must end up with."""
    db = tmp_path_factory.mktemp("whole") / "whole.sqlite"
    proc = _simulate(db)
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    return _outcomes(db)


def _resume_and_compare(db: Path, expected: dict, method="fork"):
    proc = _simulate(db, method=method)
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    assert _rows(db) == (GAMES, GAMES)
    assert _run_row(db) == [(GAMES, 1, GAMES)]
    assert _outcomes(db) == expected


@pytest.mark.slow
@pytest.mark.parametrize("how,method", [("ctrl-c", "fork"), ("ctrl-c", "spawn"), ("sigterm", "fork")])
def test_an_interrupted_run_keeps_every_finished_game_and_resumes(tmp_path, uninterrupted, method, how):
    """Under spawn the resumed games must also equal the uninterrupted fork run's: same results either way."""
    db = tmp_path / "r.sqlite"
    proc = _simulate(db, method=method)
    _wait_for_rows(db, proc, 100)
    sent = time.monotonic()
    if how == "ctrl-c":
        os.killpg(proc.pid, signal.SIGINT)  # as a terminal does: the whole process group
    else:
        proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=30)
    stopped = time.monotonic() - sent
    assert proc.returncode == 130, err
    assert stopped < 2.0, f"took {stopped:.2f} s to stop"
    assert "Traceback" not in out + err and len(err.splitlines()) == 1, err
    word = "interrupted" if how == "ctrl-c" else "terminated"
    assert err.startswith(f"{word} after ") and "resume with paperrobot simulate sfb" in err, err
    finished = int(err.split(" after ")[1].split(" of ")[0])
    assert finished < GAMES, "the run ended before the signal: the test did not interrupt anything"
    assert _rows(db) == (finished, finished)  # every game it reported is in the file
    assert _run_row(db) == [(finished, 0, GAMES)]
    _no_process_left(proc.pid)
    _resume_and_compare(db, uninterrupted, method)


@pytest.mark.slow
def test_a_killed_run_loses_at_most_the_last_second_and_resumes(tmp_path, uninterrupted):
    db = tmp_path / "r.sqlite"
    proc = _simulate(db)
    _wait_for_rows(db, proc, 100)
    time.sleep(1.5)
    seen = _rows(db)[0]  # committed while running
    proc.kill()  # SIGKILL: no chance to clean up
    proc.communicate(timeout=30)
    after = _rows(db)
    assert after[0] == after[1] >= seen
    _no_process_left(proc.pid, grace=10)
    _resume_and_compare(db, uninterrupted)


@pytest.mark.slow
def test_another_program_locking_the_database_mid_run_loses_nothing(tmp_path, uninterrupted):
    db = tmp_path / "r.sqlite"
    proc = _simulate(db)
    _wait_for_rows(db, proc, 50)
    other = sqlite3.connect(db, isolation_level=None, timeout=30)
    other.execute("BEGIN EXCLUSIVE")  # e.g. a person's sqlite3 shell in the middle of an update
    time.sleep(3)
    other.execute("COMMIT")
    other.close()
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    assert _outcomes(db) == uninterrupted
    assert _run_row(db) == [(GAMES, 1, GAMES)]


@pytest.mark.slow
def test_a_lock_that_outlasts_the_wait_says_busy(tmp_path):
    db = tmp_path / "r.sqlite"
    assert invoke(["simulate", "sfb", "--games", "3", "--db", db, "--quiet"]).exit_code == 0
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        proc = _simulate(db, games=10)
        out, err = proc.communicate(timeout=120)
    finally:
        other.execute("COMMIT")
        other.close()
    assert proc.returncode == 2 and len(err.splitlines()) == 1 and "is busy" in err and "not damaged" in err, err
    assert "not a usable" not in err


def test_no_file_but_ours_is_touched_by_a_failed_simulate(tmp_path, notes):
    before = snapshot(tmp_path)
    result = invoke(["simulate", "sfb", "--games", "2", "--db", notes])
    assert_one_line_error(result, "not a PaperRobot results database")
    assert snapshot(tmp_path) == before
