"""core/files.py: atomic writes that never touch another file, and the one policy for output files."""
import errno
import json
import os
import sqlite3

import pytest

from paperrobot.core import files
from paperrobot.core.errors import PaperRobotError
from paperrobot.core.events import EventLog, write_text_atomic


def _only(folder):
    return sorted(p.name for p in folder.iterdir())


def test_atomic_write_replaces_and_leaves_no_temporary_file(tmp_path):
    target = tmp_path / "game.save"
    write_text_atomic(target, "one")
    write_text_atomic(target, "two")
    assert target.read_text() == "two"
    assert _only(tmp_path) == ["game.save"]


def test_a_users_file_named_like_the_old_temporary_file_is_never_touched(tmp_path):
    mine = tmp_path / "game.save.tmp"
    mine.write_text("my notes")
    write_text_atomic(tmp_path / "game.save", "x")
    assert mine.read_text() == "my notes"


def test_disk_full_keeps_the_previous_file_and_leaves_nothing_behind(tmp_path, monkeypatch):
    target = tmp_path / "game.save"
    target.write_text("finished work")

    def full(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files.os, "write", full)
    with pytest.raises(PaperRobotError, match="disk is full.*previous file is unchanged"):
        write_text_atomic(target, "new")
    assert target.read_text() == "finished work"
    assert _only(tmp_path) == ["game.save"]


def test_a_failure_while_writing_a_new_file_leaves_nothing(tmp_path, monkeypatch):
    def fails(fd):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(files.os, "fsync", fails)
    with pytest.raises(PaperRobotError, match="nothing was written"):
        write_text_atomic(tmp_path / "new.jsonl", "x")
    assert _only(tmp_path) == []


def test_an_interrupt_while_writing_cleans_up(tmp_path, monkeypatch):
    target = tmp_path / "b.jsonl"
    target.write_text("old")

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(files.os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_text_atomic(target, "new")
    assert target.read_text() == "old" and _only(tmp_path) == ["b.jsonl"]


def test_new_files_get_ordinary_permissions(tmp_path):
    target = tmp_path / "x.jsonl"
    write_text_atomic(target, "x")
    mask = os.umask(0)
    os.umask(mask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~mask


def test_owned_recognises_each_kind(tmp_path):
    log = EventLog()
    log.emit("setup", game="sfb")
    log.write(tmp_path / "b.jsonl")
    assert files.owned(tmp_path / "b.jsonl", "log")
    (tmp_path / "s.save").write_text(json.dumps({"format": "paperrobot-save", "version": 1}))
    assert files.owned(tmp_path / "s.save", "save") and not files.owned(tmp_path / "s.save", "log")
    (tmp_path / "a.json").write_text(json.dumps({"format": "paperrobot-armada-assist"}))
    assert files.owned(tmp_path / "a.json", "assist") and not files.owned(tmp_path / "a.json", "save")
    files.write_text_atomic(tmp_path / "p.svg", "<svg/>", kind="svg")
    assert files.owned(tmp_path / "p.svg", "svg")
    (tmp_path / "other.svg").write_text("<svg/>")
    assert not files.owned(tmp_path / "other.svg", "svg")
    (tmp_path / "notes.txt").write_text("notes")
    assert not any(files.owned(tmp_path / "notes.txt", k) for k in files.KINDS)
    db = sqlite3.connect(tmp_path / "other.sqlite")
    db.execute("CREATE TABLE t (x)")
    db.commit()
    db.close()
    assert not files.owned(tmp_path / "other.sqlite", "db")
    (tmp_path / "empty.sqlite").write_bytes(b"")
    assert files.owned(tmp_path / "empty.sqlite", "db")


@pytest.mark.parametrize("kind", sorted(files.KINDS))
def test_check_output_refuses_a_foreign_file_unless_forced(tmp_path, kind):
    notes = tmp_path / "notes.txt"
    notes.write_text("notes")
    with pytest.raises(PaperRobotError, match="already exists and is not"):
        files.check_output(notes, kind, "--out")
    assert files.check_output(notes, kind, "--out", force=True) == notes
    assert notes.read_text() == "notes"


def test_check_output_names_each_path_problem(tmp_path):
    with pytest.raises(PaperRobotError, match="folder .* does not exist"):
        files.check_output(tmp_path / "no" / "x.jsonl", "log", "--log")
    with pytest.raises(PaperRobotError, match="this is a folder"):
        files.check_output(tmp_path, "log", "--log")
    (tmp_path / "f").write_text("")
    with pytest.raises(PaperRobotError, match="is not a folder"):
        files.check_output(tmp_path / "f" / "x.jsonl", "log", "--log")


@pytest.mark.parametrize("code,words", [(errno.EROFS, "read-only"), (errno.EACCES, "permission denied")])
def test_check_output_unwritable_folder(tmp_path, monkeypatch, code, words):
    def refuse(*args, **kwargs):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(files.tempfile, "mkstemp", refuse)
    with pytest.raises(PaperRobotError, match=f"cannot write in the folder .*{words}"):
        files.check_output(tmp_path / "x.jsonl", "log", "--log")


@pytest.mark.skipif(os.geteuid() == 0, reason="runs as root: a folder without write permission is still writable")
def test_check_output_real_read_only_folder(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        with pytest.raises(PaperRobotError, match="cannot write in the folder"):
            files.check_output(folder / "x.jsonl", "log", "--log")
    finally:
        folder.chmod(0o755)
