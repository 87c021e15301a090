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
from typing import Any

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
)
SCHEMA_VERSION = len(MIGRATIONS)
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


@dataclass
class WatchRow:
    id: int
    game: str
    setup: dict
    seed: int
    controllers: dict
    log: str | None
    name: str


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
            row = self.db.execute("SELECT id, game, setup, seed, controllers, engine_version, status, outcome, "
                                  "created, updated, (SELECT COUNT(*) FROM answers WHERE game_id = games.id), mode, dice "
                                  "FROM games WHERE id = ?", (game_id,)).fetchone()
        return _game_row(row) if row else None

    def list(self, limit: int = 200) -> list[GameRow]:
        with self.lock:
            rows = self.db.execute("SELECT id, game, setup, seed, controllers, engine_version, status, outcome, "
                                   "created, updated, (SELECT COUNT(*) FROM answers WHERE game_id = games.id), mode, dice "
                                   "FROM games ORDER BY updated DESC LIMIT ?", (limit,)).fetchall()
        return [_game_row(r) for r in rows]

    def answers(self, game_id: int) -> list[list]:
        """The answers as a save holds them: ``[seq, kind, side, answer]``, in order."""
        return [a[:4] for a in self.answers_with_labels(game_id)]

    def answers_with_labels(self, game_id: int) -> list[list]:
        with self.lock:
            rows = self.db.execute("SELECT seq, kind, side, answer, label FROM answers WHERE game_id = ? ORDER BY n",
                                   (game_id,)).fetchall()
        return [[seq, kind, side, json.loads(answer), label] for seq, kind, side, answer, label in rows]

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
        return WatchRow(row[0], row[1], json.loads(row[2]), row[3], json.loads(row[4]), row[5], row[6])


def _game_row(row) -> GameRow:
    return GameRow(row[0], row[1], json.loads(row[2]), row[3], json.loads(row[4]), row[5], row[6],
                   json.loads(row[7]) if row[7] else None, row[8], row[9], row[10], row[11], row[12])


def _statements(script: str) -> list[str]:
    """Split a migration into statements (no semicolons inside these statements' text)."""
    lines = [line.split("--", 1)[0] for line in script.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
