"""The files PaperRobot writes: one policy for every command and game.

* **Never replace a file that is not this program's own file of the same kind** (a save, a log, a results
  database, a picture, an assistant state file), unless the person says ``--force``. ``owned`` recognises
  each kind by its header; ``check_output`` applies the policy and the other checks (missing folder, a
  folder where a file is expected, no write permission, read-only file system) before any work starts.
* **Writes are atomic**: ``write_text_atomic`` writes a unique temporary file in the same folder, flushes it
  to disk and renames it over the target, so the target is either the old file or the new one, never half
  of one; on any failure (a full disk, a permission, an interrupt) the temporary file is removed and the old
  file is left as it was.
"""
from __future__ import annotations

import errno
import json
import os
import sqlite3
import stat
import tempfile
from pathlib import Path

from .errors import PaperRobotError

SVG_MARKER = "<!-- paperrobot picture -->"
DB_APPLICATION_ID = 0x50524F42  # "PROB": set in every results database (PRAGMA application_id)

# kind -> what it is called in messages
KINDS = {
    "save": "a PaperRobot save",
    "log": "a PaperRobot game log",
    "db": "a PaperRobot results database",
    "svg": "a PaperRobot picture",
    "assist": "an Armada assistant state file",
}
_JSON_FORMATS = {"save": "paperrobot-save", "assist": "paperrobot-armada-assist"}
_SNIFF = 1 << 20  # bytes read to recognise a file; our saves and states are far smaller than the limit below
_JSON_LIMIT = 64 << 20


class FileProblem(PaperRobotError):
    """An output file that cannot or must not be written; the message says why and what to do."""


def _describe(exc: OSError) -> str:
    if exc.errno == errno.ENOSPC:
        return "the disk is full"
    if exc.errno == errno.EROFS:
        return "the file system is read-only"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if exc.errno == errno.EDQUOT:
        return "the disk quota is exceeded"
    return exc.strerror or str(exc)


# ----------------------------------------------------------------------------------- recognising our files

def owned(path: str | Path, kind: str) -> bool:
    """Whether ``path`` is an existing file of this program of ``kind`` (see KINDS)."""
    path = Path(path)
    try:
        if not path.is_file():
            return False
        if kind == "db":  # an empty SQLite file holds nothing to lose: a new database
            return _is_results_db(path) or is_empty_sqlite(path)
        with path.open("rb") as handle:
            head = handle.read(_SNIFF)
    except OSError:
        return False
    if kind == "svg":
        return SVG_MARKER.encode() in head[:4096]
    if kind == "log":
        first = head.split(b"\n", 1)[0]
        try:
            event = json.loads(first)
        except ValueError:
            return False
        return isinstance(event, dict) and event.get("kind") == "setup"
    if kind in _JSON_FORMATS:
        try:
            if path.stat().st_size > _JSON_LIMIT:
                return False
            raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError, UnicodeDecodeError):
            return False
        return isinstance(raw, dict) and raw.get("format") == _JSON_FORMATS[kind]
    raise ValueError(f"unknown kind of file {kind!r}")


def _is_results_db(path: Path) -> bool:
    with path.open("rb") as handle:
        if handle.read(16) != b"SQLite format 3\x00":
            return False
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=2)
    except sqlite3.Error:
        return False
    try:
        if db.execute("PRAGMA application_id").fetchone()[0] == DB_APPLICATION_ID:
            return True
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        return {"runs", "games"} <= tables  # written before the database carried an application id
    except sqlite3.Error:
        return False
    finally:
        db.close()


def is_empty_sqlite(path: Path) -> bool:
    """A SQLite file without any table (a new database someone created), or an empty file."""
    try:
        if path.stat().st_size == 0:
            return True
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=2)
    except (OSError, sqlite3.Error):
        return False
    try:
        return db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0] == 0
    except sqlite3.Error:
        return False
    finally:
        db.close()


# ----------------------------------------------------------------------------------- checks before work

def check_folder(folder: str | Path, option: str = "", create: bool = False) -> Path:
    """A folder we will write files into: it exists (or is created), is a folder, and takes new files."""
    folder = Path(folder)
    name = f"{option} {folder}" if option else str(folder)
    if folder.exists() and not folder.is_dir():
        raise FileProblem(f"{name}: this is a file, not a folder; give a folder")
    if not folder.exists():
        if not create:
            raise FileProblem(f"{name}: the folder does not exist; create it first or choose another")
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise FileProblem(f"{name}: cannot create the folder ({_describe(exc)}); choose another") from None
    _probe(folder, name)
    return folder


def _probe(folder: Path, name: str) -> None:
    """Create and remove a temporary file: the one sure test of 'can this program write here'."""
    try:
        fd, probe = tempfile.mkstemp(prefix=".paperrobot-", suffix=".probe", dir=folder)
    except OSError as exc:
        raise FileProblem(f"{name}: cannot write in the folder {folder} ({_describe(exc)}); "
                          f"choose a folder you can write to") from None
    os.close(fd)
    try:
        os.unlink(probe)
    except OSError:
        pass


def check_output(path: str | Path | None, kind: str, option: str, force: bool = False,
                 replace_ok: bool = True) -> Path | None:
    """Check an output file before any work: its folder exists and is writable, it is not a folder, and an
    existing file there is this program's own of ``kind`` (otherwise refuse, unless ``force``).

    ``replace_ok=False`` also refuses our own file of that kind (e.g. another game's save): the caller
    passes it when replacing such a file would lose something finished."""
    if path is None:
        return None
    path = Path(path)
    name = f"{option} {path}"
    if str(path) in ("", "."):
        raise FileProblem(f"{option}: give a file name")
    if path.is_dir():
        raise FileProblem(f"{name}: this is a folder; give a file name")
    parent = path.parent
    if not parent.exists():
        raise FileProblem(f"{name}: the folder {parent} does not exist; create it first or choose another")
    if not parent.is_dir():
        raise FileProblem(f"{name}: {parent} is not a folder")
    _probe(parent, name)
    if path.exists() or path.is_symlink():
        if not path.is_file():
            raise FileProblem(f"{name}: this is not a regular file; give a file name")
        mine = owned(path, kind)
        if not force:
            if not mine:
                raise FileProblem(f"{name}: the file already exists and is not {KINDS[kind]}; refusing to replace "
                                  f"it (choose another name, or add --force to replace it)")
            if not replace_ok:
                raise FileProblem(f"{name}: the file already exists ({KINDS[kind]}); choose another name, or add "
                                  f"--force to replace it")
        if kind == "db" and not os.access(path, os.W_OK):
            raise FileProblem(f"{name}: the file is read-only; make it writable or choose another")
    return path


# ----------------------------------------------------------------------------------- writing

def write_text_atomic(path: str | Path, text: str, kind: str | None = None) -> None:
    """Write ``text`` to ``path`` so that the file is always either the old one or the new one.

    A unique temporary file in the same folder is written, flushed to disk (fsync) and renamed over
    ``path``. On failure the temporary file is removed and ``path`` is untouched; a full disk or a
    permission problem is one FileProblem line. An SVG ``kind`` gets the marker comment that
    ``owned`` recognises."""
    path = Path(path)
    if kind == "svg" and SVG_MARKER not in text[:4096]:
        text = SVG_MARKER + "\n" + text
    data = text.encode("utf-8")
    folder = path.parent
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
        try:
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            os.fsync(fd)
            if path.exists():  # keep the old file's permission bits
                try:
                    os.fchmod(fd, stat.S_IMODE(path.stat().st_mode))
                except OSError:
                    pass
            else:
                os.fchmod(fd, 0o666 & ~_umask())
        finally:
            os.close(fd)
        os.replace(tmp, path)
        tmp = None
        _sync_folder(folder)
    except OSError as exc:
        raise FileProblem(f"{path}: could not be written ({_describe(exc)}); "
                          f"{'the previous file is unchanged' if path.exists() else 'nothing was written'}") from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX); where folders cannot be opened, skip."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
