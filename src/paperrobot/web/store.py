"""The web page's own SQLite file: every game as set-up + seed + who flies each side + the person's answers.

Nothing else is stored for a game: a game is rebuilt by replaying its answers through the deterministic
engine (``core.contract.Match.replay``), exactly like a save file. The file is apart from the results
files ``simulate`` writes. It carries a schema version (``PRAGMA user_version``) and upgrades itself
with the migrations below, oldest first; a file from a newer program is refused with one line.

Every answer is committed before the next question is shown (WAL journal, ``synchronous=NORMAL``: a
committed answer survives the server being stopped or killed; only a power cut can lose the last one).
"""
from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..core.errors import PaperRobotError

# Each migration takes the file from version i to i + 1. Never edit one that has shipped: add another.
MIGRATIONS: tuple[str, ...] = (
    # 0 -> 1: games and their answers
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game TEXT NOT NULL,
        setup TEXT NOT NULL,            -- JSON: the checked set-up options
        seed INTEGER NOT NULL,
        controllers TEXT NOT NULL,      -- JSON: side -> "person" | "robot" | "policy"
        engine_version INTEGER NOT NULL,
        status TEXT NOT NULL DEFAULT 'playing',   -- playing | finished | broken
        outcome TEXT,                   -- JSON of the Outcome when finished; the reason when broken
        created REAL NOT NULL,
        updated REAL NOT NULL
    );
    CREATE TABLE answers (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        n INTEGER NOT NULL,             -- 1, 2, ...: the order of the person's answers
        seq INTEGER NOT NULL,           -- the request's number in the match
        kind TEXT NOT NULL,
        side TEXT NOT NULL,
        answer TEXT NOT NULL,           -- JSON: an option key or a form's values
        label TEXT NOT NULL DEFAULT '', -- what the person saw (an option's label), for the page's log only
        PRIMARY KEY (game_id, n)
    );
    """,
    # 1 -> 2: battles to watch (robot vs robot/policy from a seed) and uploaded logs
    """
    CREATE TABLE watches (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game TEXT NOT NULL,
        setup TEXT NOT NULL,
        seed INTEGER NOT NULL,
        controllers TEXT NOT NULL,
        log TEXT,                       -- an uploaded JSON-lines log; NULL for a battle played from the seed
        name TEXT NOT NULL DEFAULT '',
        created REAL NOT NULL
    );
    """,
    # 2 -> 3: table-assistant sessions (the assistant pages, /assist) are games too, with the dice's source
    """
    ALTER TABLE games ADD COLUMN mode TEXT NOT NULL DEFAULT 'play';       -- play | assist
    ALTER TABLE games ADD COLUMN dice TEXT NOT NULL DEFAULT 'program';    -- program | table
    """,
    # 3 -> 4: the page's settings (web/people.py: recording the person's games, the ladders their rating uses)
    """
    CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)
# a game's row, its number of answers, and whether any answer row is damaged (checked in SQL so that the list of
# games can say so without reading every answer in Python; answers_with_labels checks each again on replay)
_SELECT_GAMES = ("SELECT id, game, setup, seed, controllers, engine_version, status, outcome, created, updated, "
                 "(SELECT COUNT(*) FROM answers WHERE game_id = games.id), mode, dice, "
                 "EXISTS (SELECT 1 FROM answers WHERE game_id = games.id AND NOT (typeof(seq) = 'integer' AND "
                 "typeof(kind) = 'text' AND typeof(side) = 'text' AND typeof(label) = 'text' AND "
                 "typeof(answer) = 'text' AND json_valid(answer))) FROM games ")
APPLICATION_ID = 0x50525742  # "PRWB": PRAGMA application_id marks a PaperRobot web database


@dataclass
class GameRow:
    id: int
    game: str
    setup: dict
    seed: int
    controllers: dict
    engine_version: int
    status: str
    outcome: Any
    created: float
    updated: float
    answers: int = 0
    mode: str = "play"      # "assist": a table-assistant session (web/assist.py), answered on /assist pages
    dice: str = "program"   # "table": every die is asked of the person
    damaged: str = ""       # why the stored row cannot be a game (a hand-edited or damaged file); "" if sound


@dataclass
class WatchRow:
    id: int
    game: str
    setup: dict
    seed: int
    controllers: dict
    log: str | None
    name: str
    damaged: str = ""


class DamagedRow(PaperRobotError):
    """A stored row that cannot be read as what it should hold (one line naming the row and the field)."""


class _Stored(BaseModel):
    """What a game's row must hold to be replayed; checked on every read, so one damaged row (a hand edit, a
    disk fault) is reported as that game's damage instead of failing every page that lists it."""

    model_config = ConfigDict(strict=True)
    game: str = Field(min_length=1, max_length=40)
    setup: dict[str, Any]
    seed: int = Field(ge=0, lt=2 ** 63)
    controllers: dict[str, Literal["person", "robot", "policy"]]
    engine_version: int


class _StoredAnswer(BaseModel):
    model_config = ConfigDict(strict=True)
    seq: int = Field(ge=0)
    kind: str
    side: str
    label: str


class GameStore:
    """One SQLite file; safe to share between the server's threads (one connection behind a lock)."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self.lock = threading.RLock()
        try:
            self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self.db.execute("PRAGMA foreign_keys = ON")
            self.db.execute("PRAGMA schema_version")  # reads the header: a file that is not SQLite fails here
            self.migrate()
            if self.path != ":memory:":
                self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("PRAGMA synchronous = NORMAL")
        except sqlite3.DatabaseError as exc:
            raise PaperRobotError(f"{self.path}: not a usable PaperRobot web database ({exc}); "
                                  f"choose another file with --db") from None

    # ------------------------------------------------------------------ schema
    @property
    def version(self) -> int:
        return int(self.db.execute("PRAGMA user_version").fetchone()[0])

    def migrate(self) -> None:
        with self.lock:
            app_id = int(self.db.execute("PRAGMA application_id").fetchone()[0])
            tables = [r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                                    "AND name NOT LIKE 'sqlite_%' ORDER BY name")]
            if app_id != APPLICATION_ID and tables:  # another program's database (a simulate results file...)
                raise PaperRobotError(f"{self.path}: not a PaperRobot web database (it holds the tables "
                                      f"{', '.join(tables[:5])}); it is left as it is: choose another file with --db")
            if app_id != APPLICATION_ID:
                self.db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            version = self.version
            if version > SCHEMA_VERSION:
                raise PaperRobotError(f"{self.path}: written by a newer PaperRobot (schema {version}; this program "
                                      f"knows up to {SCHEMA_VERSION}); upgrade, or choose another file with --db")
            for number in range(version, SCHEMA_VERSION):
                self.db.execute("BEGIN IMMEDIATE")
                try:
                    for statement in _statements(MIGRATIONS[number]):
                        self.db.execute(statement)
                    self.db.execute(f"PRAGMA user_version = {number + 1}")
                    self.db.execute("COMMIT")
                except BaseException:
                    self.db.execute("ROLLBACK")
                    raise

    def checkpoint(self) -> bool:
        """Copy every committed page from the WAL into the database file and empty the WAL (server shutdown):
        the file alone then holds every game, for a copy or a backup. False if a reader kept it from finishing."""
        if self.path == ":memory:":
            return True
        with self.lock:
            busy = self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
        return not busy

    def close(self) -> None:
        with self.lock:
            self.db.close()

    # ------------------------------------------------------------------ games
    def create(self, game: str, setup: dict, seed: int, controllers: dict, engine_version: int,
               mode: str = "play", dice: str = "program") -> int:
        now = time.time()
        with self.lock:
            cur = self.db.execute(
                "INSERT INTO games (game, setup, seed, controllers, engine_version, created, updated, mode, dice) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game, json.dumps(setup, sort_keys=True), seed, json.dumps(controllers, sort_keys=True),
                 engine_version, now, now, mode, dice))
            return int(cur.lastrowid)

    def get(self, game_id: int) -> GameRow | None:
        with self.lock:
            row = self.db.execute(_SELECT_GAMES + "WHERE id = ?", (game_id,)).fetchone()
        return _game_row(row) if row else None

    def list(self, limit: int = 200) -> list[GameRow]:
        with self.lock:
            rows = self.db.execute(_SELECT_GAMES + "ORDER BY updated DESC LIMIT ?", (limit,)).fetchall()
        return [_game_row(r) for r in rows]

    def answers(self, game_id: int) -> list[list]:
        """The answers as a save holds them: ``[seq, kind, side, answer]``, in order."""
        return [a[:4] for a in self.answers_with_labels(game_id)]

    def answers_with_labels(self, game_id: int) -> list[list]:
        with self.lock:
            rows = self.db.execute("SELECT seq, kind, side, answer, label FROM answers WHERE game_id = ? ORDER BY n",
                                   (game_id,)).fetchall()
        out = []
        for n, (seq, kind, side, answer, label) in enumerate(rows, 1):
            try:
                _StoredAnswer(seq=seq, kind=kind, side=side, label=label)
                out.append([seq, kind, side, _json(answer, "answer"), label])
            except (ValidationError, DamagedRow) as exc:
                raise DamagedRow(f"answer {n} of game {game_id} is damaged in this database ({_why(exc)})") from None
        return out

    def raw(self, game_id: int) -> dict | None:
        """A game's rows exactly as stored (text as text), for downloading a game that cannot be read."""
        with self.lock:
            cur = self.db.execute("SELECT * FROM games WHERE id = ?", (game_id,))
            row = cur.fetchone()
            if row is None:
                return None
            game = dict(zip([c[0] for c in cur.description], row))
            cur = self.db.execute("SELECT n, seq, kind, side, answer, label FROM answers WHERE game_id = ? ORDER BY n",
                                  (game_id,))
            names = [c[0] for c in cur.description]
            answers = [dict(zip(names, r)) for r in cur.fetchall()]
        return {"game": game, "answers": answers}

    def add_answer(self, game_id: int, n: int, seq: int, kind: str, side: str, answer: Any, label: str = "") -> None:
        """Answer number ``n`` (from 1); committed when this returns."""
        with self.lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                self.db.execute("INSERT INTO answers (game_id, n, seq, kind, side, answer, label) "
                                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                                (game_id, n, seq, kind, side, json.dumps(answer, sort_keys=True), label))
                self.db.execute("UPDATE games SET updated = ? WHERE id = ?", (time.time(), game_id))
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise

    def truncate(self, game_id: int, keep: int) -> None:
        """Undo: drop every answer after the first ``keep``; the game is in play again."""
        with self.lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                self.db.execute("DELETE FROM answers WHERE game_id = ? AND n > ?", (game_id, keep))
                self.db.execute("UPDATE games SET status = 'playing', outcome = NULL, updated = ? WHERE id = ?",
                                (time.time(), game_id))
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise

    def set_status(self, game_id: int, status: str, outcome: Any = None) -> None:
        with self.lock:
            self.db.execute("UPDATE games SET status = ?, outcome = ?, updated = ? WHERE id = ?",
                            (status, None if outcome is None else json.dumps(outcome), time.time(), game_id))

    def delete(self, game_id: int) -> None:
        with self.lock:
            self.db.execute("DELETE FROM games WHERE id = ?", (game_id,))

    # ------------------------------------------------------------------ settings
    def setting(self, key: str, default: str | None = None) -> str | None:
        with self.lock:
            row = self.db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return row[0] if row and isinstance(row[0], str) else default

    def set_setting(self, key: str, value: str | None) -> None:
        """Set (or, with None, remove) one setting; committed when this returns."""
        with self.lock:
            if value is None:
                self.db.execute("DELETE FROM settings WHERE key = ?", (key,))
            else:
                self.db.execute("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET "
                                "value = excluded.value", (key, value))

    def setting_once(self, key: str, value: str) -> str:
        """The setting ``key``, set to ``value`` first if it has none (two threads asking at once get the same)."""
        with self.lock:
            self.db.execute("INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)", (key, value))
            return str(self.db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()[0])

    def settings(self, prefix: str) -> dict[str, str]:
        with self.lock:
            rows = self.db.execute("SELECT key, value FROM settings WHERE substr(key, 1, ?) = ?",
                                   (len(prefix), prefix)).fetchall()
        return {k: v for k, v in rows if isinstance(v, str)}

    # ------------------------------------------------------------------ watches
    def create_watch(self, game: str, setup: dict, seed: int, controllers: dict, log: str | None = None,
                     name: str = "") -> int:
        with self.lock:
            cur = self.db.execute(
                "INSERT INTO watches (game, setup, seed, controllers, log, name, created) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game, json.dumps(setup, sort_keys=True), seed, json.dumps(controllers, sort_keys=True), log, name,
                 time.time()))
            return int(cur.lastrowid)

    def get_watch(self, watch_id: int) -> WatchRow | None:
        with self.lock:
            row = self.db.execute("SELECT id, game, setup, seed, controllers, log, name FROM watches WHERE id = ?",
                                  (watch_id,)).fetchone()
        if row is None:
            return None
        try:
            setup, controllers = _json(row[2], "setup"), _json(row[4], "controllers")
            if not (isinstance(setup, dict) and isinstance(controllers, dict) and isinstance(row[1], str)
                    and isinstance(row[3], int) and not isinstance(row[3], bool)):
                raise DamagedRow("its game, set-up, seed or controllers are not what a battle holds")
            if row[5] is not None and not isinstance(row[5], str):
                raise DamagedRow("its log is not text")
        except DamagedRow as exc:
            return WatchRow(row[0], str(row[1]), {}, 0, {}, None, str(row[6]), damaged=str(exc))
        return WatchRow(row[0], row[1], setup, row[3], controllers, row[5], row[6])


def _game_row(row) -> GameRow:
    """A stored game; a row that cannot be one is returned with ``damaged`` saying why (and harmless values)."""
    damaged = ""
    try:
        setup, controllers = _json(row[2], "setup"), _json(row[4], "controllers")
        _Stored(game=row[1], setup=setup, seed=row[3], controllers=controllers, engine_version=row[5])
        if row[13]:
            raise DamagedRow("one of its answers is damaged")
    except (ValidationError, DamagedRow) as exc:
        damaged, setup, controllers = _why(exc), {}, {}
    try:
        outcome = json.loads(row[7]) if row[7] else None  # shown only: a damaged one is left out
    except (TypeError, ValueError, RecursionError):
        outcome = None
    return GameRow(row[0], str(row[1]), setup, row[3] if not damaged else 0, controllers, row[5], str(row[6]),
                   outcome, row[8], row[9], row[10], str(row[11]), str(row[12]), damaged=damaged)


def _json(text: Any, field: str) -> Any:
    if not isinstance(text, str):
        raise DamagedRow(f"its {field} is not JSON text")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise DamagedRow(f"its {field} is not JSON") from None


def _why(exc: Exception) -> str:
    """One short line: a DamagedRow's text, or pydantic's first error as 'field: what is wrong'."""
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        return f"its {where} is wrong: {first.get('msg', 'invalid')}"[:200]
    return str(exc)[:200]


def _statements(script: str) -> list[str]:
    """Split a migration into statements (no semicolons inside these statements' text)."""
    lines = [line.split("--", 1)[0] for line in script.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
