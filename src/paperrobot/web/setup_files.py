"""The set-up options that name files on the server's disk (a folder of ship or table files, a price table, a
geometry file). A page open to whoever reaches the server must not read paths it is sent: the answer would say
whether a file exists there, and parts of what it holds. So by default the start forms take these as uploads:
the files are stored under the server's own folder (beside the database, ``<db>.files/<digest>/``, named by a
digest of their names and contents, so the same upload is stored once) and the set-up names that folder. Paths
typed in the form are refused, with the same one line whether or not anything exists there (nothing is looked
at). ``paperrobot web --allow-paths`` (a server for oneself) takes typed paths as well, as the terminal does.
"""
from __future__ import annotations

import hashlib
import re
import tempfile
from pathlib import Path

from ..core.files import write_text_atomic
from .live import Refused
from .uploads import read_file

FOLDERS = ("ships_dir", "tables_dir")       # a folder of .toml files: several files uploaded
FILES = ("handicap_prices", "geometry", "robot_rules")  # one .toml file
PATH_OPTIONS = FOLDERS + FILES
MAX_FILES = 50
MAX_FILE_BYTES = 256_000   # the largest shipped data file is under 20 kB
UPLOAD_CAP = 2_000_000     # every file of one start form together
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,60}\.toml")


def kind(option: str) -> str:
    """'folder', 'file' or '' (not a path option)."""
    return "folder" if option in FOLDERS else "file" if option in FILES else ""


def files_folder(db: str | Path) -> Path:
    """Where uploaded set-up files are kept: beside the database (a throw-away folder for an in-memory one)."""
    if str(db) == ":memory:":
        return Path(tempfile.mkdtemp(prefix="paperrobot-web-files-"))
    db = Path(db)
    return db.with_name(db.name + ".files")


def path_options(data, setup: dict, allow_paths: bool, folder: Path) -> None:
    """Fill ``setup``'s path options from the form ``data``: uploaded files (``u.<option>``) stored under ``folder``;
    typed paths (``o.<option>``) only if ``allow_paths``, else one refusal that looks at nothing."""
    for option in PATH_OPTIONS:
        getlist = getattr(data, "getlist", None)  # a plain dict (the Armada assistant's form) holds no files
        uploads = [u for u in getlist(f"u.{option}") if hasattr(u, "read") and u.filename] if getlist else []
        if uploads:
            setup[option] = str(_store(option, uploads, folder))
        elif setup.get(option) not in (None, "") and not allow_paths:
            raise Refused(400, f"{option}: this server does not read paths on its disk; upload the "
                               f"{'files' if option in FOLDERS else 'file'} in the form instead (or start the server "
                               f"with 'paperrobot web --allow-paths' to type paths)")


def _store(option: str, uploads: list, folder: Path) -> Path:
    if option in FILES and len(uploads) > 1:
        raise Refused(400, f"{option}: upload one .toml file, not {len(uploads)}")
    if len(uploads) > MAX_FILES:
        raise Refused(400, f"{option}: at most {MAX_FILES} files, not {len(uploads)}")
    files = {}
    for upload in uploads:
        name = Path(str(upload.filename)).name
        if not NAME.fullmatch(name):
            raise Refused(400, f"{option}: '{name[:40]}' is not a data file name (letters, digits, '.', '-', '_', "
                               f"ending in .toml)")
        if name in files:
            raise Refused(400, f"{option}: two files named '{name}'")
        blob = read_file(upload, MAX_FILE_BYTES, f"{option}: {name}")
        try:
            files[name] = blob.decode("utf-8")
        except UnicodeDecodeError:
            raise Refused(400, f"{option}: {name} is not a text file (give a .toml data file)") from None
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + files[name].encode() + b"\0")
    where = folder / f"{option}-{digest.hexdigest()[:24]}"
    where.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        write_text_atomic(where / name, text)
    return where if option in FOLDERS else where / next(iter(files))
