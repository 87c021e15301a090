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
import hashlib
import json
import os
import re
import sqlite3
import stat
import tempfile
import time
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
        except (ValueError, RecursionError):
            return False
        return isinstance(event, dict) and event.get("kind") == "setup"
    if kind in _JSON_FORMATS:
        try:
            if path.stat().st_size > _JSON_LIMIT:
                return False
            raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError, UnicodeDecodeError, RecursionError):
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

def check_name(path: str | Path, option: str = "") -> None:
    """A name the file system can hold: each part at most NAME_MAX bytes, the whole at most PATH_MAX (else every
    later look at the file is an OSError 'File name too long')."""
    text = os.fsencode(str(path))
    longest = max((len(part) for part in text.split(b"/")), default=0)
    limit = _name_max(Path(path))
    if longest > limit or len(text) > 4095:
        shown = str(path) if len(str(path)) <= 60 else str(path)[:40] + "..." + str(path)[-12:]
        where = f"{option} {shown}" if option else shown
        raise FileProblem(f"{where}: the name is too long ({longest} characters in one part; a file system takes "
                          f"at most {limit}); choose a shorter name")


def _name_max(path: Path) -> int:
    for folder in (path.parent, Path(".")):
        try:
            return int(os.pathconf(folder, "PC_NAME_MAX"))
        except (OSError, ValueError):
            continue
    return 255


def check_folder(folder: str | Path, option: str = "", create: bool = False) -> Path:
    """A folder we will write files into: it exists (or is created), is a folder, and takes new files."""
    check_name(folder, option)
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
    check_name(path, option)
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
    if kind == "svg" and SVG_MARKER not in text[:4096]:
        text = SVG_MARKER + "\n" + text
    write_bytes_atomic(path, text.encode("utf-8"))


# The temporary file of a write: ".<name>.<8 characters of mkstemp>.tmp" next to the target. A kill between its
# creation and the rename leaves one behind; the first write to the same target in a later run removes it.
_TEMP_PATTERN = r"\.{name}\.[a-z0-9_]{{8}}\.tmp"
STALE_SECONDS = 60.0  # older than any write in progress (a write takes milliseconds): never another run's live one
_cleaned: set[str] = set()


def remove_stale_temps(path: str | Path) -> list[Path]:
    """Remove the temporary files a killed write to ``path`` left behind (this module's naming pattern only, older
    than STALE_SECONDS); returns those removed. Nothing else in the folder is touched."""
    path = Path(path)
    pattern = re.compile(_TEMP_PATTERN.format(name=re.escape(path.name)))
    removed = []
    try:
        entries = list(os.scandir(path.parent))
    except OSError:
        return removed
    now = time.time()
    for entry in entries:
        if not pattern.fullmatch(entry.name):
            continue
        try:
            if not entry.is_file(follow_symlinks=False) or now - entry.stat(follow_symlinks=False).st_mtime < STALE_SECONDS:
                continue
            os.unlink(entry.path)
            removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


def write_bytes_atomic(path: str | Path, data: bytes) -> None:
    """``write_text_atomic`` for bytes (a picture, a PNG)."""
    path = Path(path)
    folder = path.parent
    if str(path) not in _cleaned:  # once per target and run: an autosave writes the same file after every answer
        _cleaned.add(str(path))
        remove_stale_temps(path)
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


# ----------------------------------------------------------------------------------- reading a person's file

def open_regular(path: str | Path, what: str, error: type[PaperRobotError] = FileProblem):
    """Open a file a person handed in (a save, a log, a state file) for reading in binary, refusing anything
    but a regular file: a FIFO would block the program forever and a device never ends. The check is made on
    the opened descriptor (no race with the name) and the open itself cannot block (O_NONBLOCK). Missing files
    and permissions raise the usual OSError for the caller's own message."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise error(f"{path}: not a regular file (a folder, pipe, device or socket); give {what}")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


# ----------------------------------------------------------------------------------- a folder of reports

MANIFEST = ".paperrobot-report"  # JSON: the files this program wrote in a report folder (no .json: not a report)
MANIFEST_FORMAT = "paperrobot-report-files"


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class ReportFolder:
    """A folder a command writes named reports into (``balance --out``). The files it wrote there are listed in
    MANIFEST with their digests; only those, unchanged since, are replaced. A file of the person's own with the
    same name (or one of ours they edited) is refused with one line, unless ``force``. Every write is atomic;
    the list names a file's old and new digests while it is replaced, so a kill at any moment leaves a folder
    whose every file the next run still recognises."""

    def __init__(self, folder: str | Path, option: str, force: bool = False):
        self.folder = check_folder(folder, option, create=True)
        self.name, self.force = f"{option} {self.folder}", force
        self.manifest = self.folder / MANIFEST
        self.files = self._read()  # name -> digests of the file as this program wrote it

    def _read(self) -> dict[str, list[str]]:
        if not (self.manifest.exists() or self.manifest.is_symlink()):
            return {}
        try:
            if not self.manifest.is_file() or self.manifest.stat().st_size > _JSON_LIMIT:
                raise ValueError
            raw = json.loads(self.manifest.read_text(encoding="utf-8"))
            if not isinstance(raw, dict) or raw.get("format") != MANIFEST_FORMAT:
                raise ValueError
            listed = raw.get("files")
            if not isinstance(listed, dict) or not all(
                    isinstance(k, str) and isinstance(v, list) and all(isinstance(d, str) for d in v)
                    for k, v in listed.items()):
                raise ValueError
            return {k: list(v) for k, v in listed.items()}
        except (OSError, ValueError, UnicodeDecodeError, RecursionError):
            if self.force:
                return {}
            raise FileProblem(f"{self.name}: {MANIFEST} is not PaperRobot's list of the reports it wrote there; "
                              f"refusing to write in this folder (choose another folder, or add --force)") from None

    def check(self, names) -> None:
        """Before any work (and again before writing): every name is free, or a file this program wrote."""
        for name in names:
            path = self.folder / name
            if not (path.exists() or path.is_symlink()):
                continue
            if not path.is_file() or path.is_symlink():
                raise FileProblem(f"{self.name}: {name} exists and is not a regular file; refusing to replace it "
                                  f"(choose another folder)")
            if self.force:
                continue
            try:
                mine = _digest(path.read_bytes()) in self.files.get(name, ())
            except OSError as exc:
                raise FileProblem(f"{self.name}: {name} cannot be read ({_describe(exc)}); choose another "
                                  f"folder") from None
            if not mine:
                why = "was changed since PaperRobot wrote it" if name in self.files else \
                    "is not a file PaperRobot wrote there"
                raise FileProblem(f"{self.name}: {name} exists and {why}; refusing to replace it (choose another "
                                  f"folder, or add --force)")

    def write(self, contents: dict[str, bytes]) -> list[Path]:
        """Write every file of ``contents`` (name -> bytes) atomically and list it as this program's."""
        self.check(contents)
        new = {name: _digest(data) for name, data in contents.items()}
        self._save({**self.files, **{name: sorted(set(self.files.get(name, [])) | {d}) for name, d in new.items()}})
        paths = []
        for name, data in contents.items():
            write_bytes_atomic(self.folder / name, data)
            paths.append(self.folder / name)
        self.files.update({name: [d] for name, d in new.items()})
        self._save(self.files)
        return paths

    def _save(self, listed: dict[str, list[str]]) -> None:
        write_text_atomic(self.manifest, json.dumps({"format": MANIFEST_FORMAT, "files": listed}, indent=1,
                                                    sort_keys=True) + "\n")
