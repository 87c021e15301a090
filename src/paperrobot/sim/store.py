"""SQLite store: one row per game, one row per run; resumable, safe to read while a run writes.

* A run is one (game, config, base seed): running the same simulation again on the same file continues
  that run, playing only the game indexes that have no row yet (``missing``), so no seed is ever played
  twice and the summary counts each game once (primary key (run_id, idx)).
* Rows of finished games are committed at least every ``commit_every`` seconds (and whenever the caller
  asks), so a killed run loses at most the last second; the ``runs`` row records how many games finished
  and whether the run completed.
* WAL journal and a busy timeout: another process reading, or briefly writing, never breaks a run. A lock
  held longer than ``patience`` seconds stops the run with one line saying the file is busy.
* Every database carries PRAGMA application_id (it is ours) and user_version (its schema); an older schema
  is migrated, a newer one refused, and tables of the same name with other columns are refused up front.
"""
from __future__ import annotations

import functools
import json
import os
import sqlite3
import time
from pathlib import Path
from typing import Iterator

from ..core.errors import PaperRobotError
from ..core.files import DB_APPLICATION_ID
from ..core.outcome import Outcome

SCHEMA_VERSION = 2  # 1: the tables without a version (before resumable runs); 2: finished/completed/updated

RUNS_COLUMNS = ("run_id", "game", "config", "base_seed", "games", "started", "finished", "completed", "updated")
GAMES_COLUMNS = ("run_id", "idx", "seed", "winner", "result", "turns", "metrics")

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    run_id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    config TEXT NOT NULL,
    base_seed INTEGER NOT NULL,
    games INTEGER NOT NULL,                 -- games asked for (the largest number, when extended)
    started REAL NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,    -- games with a row
    completed INTEGER NOT NULL DEFAULT 0,   -- 1 when every index below 'games' has a row
    updated REAL
);
CREATE TABLE IF NOT EXISTS games (
    run_id INTEGER NOT NULL REFERENCES runs(run_id),
    idx INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    winner TEXT,
    result TEXT NOT NULL,
    turns INTEGER NOT NULL,
    metrics TEXT NOT NULL,
    PRIMARY KEY (run_id, idx)
);
CREATE INDEX IF NOT EXISTS runs_by_config ON runs (game, config, base_seed);
"""


class StoreBusy(PaperRobotError):
    """Another program holds a lock on the results database for longer than we wait."""


def _locked(exc: sqlite3.Error) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


def _damaged(path: Path, exc: Exception) -> PaperRobotError:
    return PaperRobotError(f"--db {path}: the results database is damaged ({str(exc)[:120]}); give --db a new file "
                           f"name (sqlite3's '.recover' may save its rows)")


def _guarded(method):
    """A damaged page or row found while the run goes on (not only at the start): one line, not a traceback.
    A lock (OperationalError) is the methods' own business: they wait it out or say the file is busy."""
    @functools.wraps(method)
    def guarded(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except sqlite3.OperationalError as exc:
            if _locked(exc):
                raise
            raise _damaged(self.path, exc) from None
        except (sqlite3.DatabaseError, ValueError, TypeError, RecursionError) as exc:
            raise _damaged(self.path, exc) from None
    return guarded


class ResultStore:
    def __init__(self, path: str | Path, force: bool = False, busy_timeout: float = 10.0,
                 patience: float = 30.0, commit_every: float = 1.0):
        self.path = Path(path)
        self.busy_timeout, self.patience, self.commit_every = busy_timeout, patience, commit_every
        self._pending: list[tuple] = []
        self._last_commit = time.monotonic()
        self._locked_since: float | None = None
        self._gave_up = False
        self.run_id: int | None = None
        self.games = 0
        self.stored: int | None = None  # this run's games in the file, counted by close()
        if force and self.path.is_file() and not _is_sqlite(self.path):
            self.path.unlink()  # --force: the person asked to replace a file that is not a database
        try:
            self.db = sqlite3.connect(self.path, timeout=busy_timeout)
        except sqlite3.Error as exc:
            raise PaperRobotError(f"--db {self.path}: cannot be opened ({exc}); give --db a new file name") from None
        try:
            self._prepare(force)
        except sqlite3.OperationalError as exc:
            self.db.close()
            if _locked(exc):
                raise self._busy(f"waited {busy_timeout:g} s") from None
            raise PaperRobotError(f"--db {self.path}: cannot be used ({exc})") from None
        except sqlite3.DatabaseError as exc:
            self.db.close()
            raise PaperRobotError(f"--db {self.path}: not a usable results database ({exc}); "
                                  f"give --db a new file name") from None
        except PaperRobotError:
            self.db.close()
            raise

    def _busy(self, how_long: str) -> StoreBusy:
        return StoreBusy(f"--db {self.path}: the file is busy (another program holds a lock on it; {how_long}); "
                         f"the file is not damaged: run the same command again when the other program is done")

    # ------------------------------------------------------------------ schema
    def _prepare(self, force: bool) -> None:
        db = self.db
        version = db.execute("PRAGMA user_version").fetchone()[0]
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if version > SCHEMA_VERSION and app_id == DB_APPLICATION_ID:
            raise PaperRobotError(f"--db {self.path}: written by a newer PaperRobot (schema {version}; this program "
                                  f"reads up to {SCHEMA_VERSION}); upgrade PaperRobot or give --db a new file name")
        for table, expected in (("runs", RUNS_COLUMNS), ("games", GAMES_COLUMNS)):
            if table in tables:
                have = tuple(row[1] for row in db.execute(f"PRAGMA table_info({table})"))
                legacy = table == "runs" and have == RUNS_COLUMNS[:6]
                if have != expected and not legacy:
                    raise PaperRobotError(f"--db {self.path}: has a table '{table}' that is not PaperRobot's (columns "
                                          f"{', '.join(have)}); give --db a new file name")
        ours = app_id == DB_APPLICATION_ID or {"runs", "games"} <= tables
        if tables - {"sqlite_sequence"} and not ours and not force:
            raise PaperRobotError(f"--db {self.path}: a SQLite database of another program (tables "
                                  f"{', '.join(sorted(tables))}); give --db a new file name, or add --force to add "
                                  f"PaperRobot's tables to it")
        if tables:  # a file that holds something: every page readable (a damaged one would stop the run later)
            problems = [row[0] for row in db.execute("PRAGMA quick_check(3)")]
            if problems != ["ok"]:
                found = " ".join(" ".join(map(str, problems)).replace("*** in database main ***", "").split())
                raise sqlite3.DatabaseError(f"damaged pages: {found[:100]}")
        mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if str(mode).lower() != "wal":  # e.g. a file system without shared memory: still correct, less concurrent
            db.execute("PRAGMA journal_mode=DELETE")
        db.execute("PRAGMA synchronous=NORMAL")
        if "runs" in tables and version < SCHEMA_VERSION:
            self._migrate_from_1()
        db.executescript(SCHEMA)  # CREATE ... IF NOT EXISTS: nothing changes in a current file
        db.execute(f"PRAGMA application_id = {DB_APPLICATION_ID}")
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        db.commit()
        db.execute(f"PRAGMA busy_timeout = {int(min(self.busy_timeout, 0.2) * 1000)}")  # short: we retry

    def _migrate_from_1(self) -> None:
        """Schema 1 (no version): runs lacked finished/completed/updated. Count what each run has."""
        db = self.db
        columns = {row[1] for row in db.execute("PRAGMA table_info(runs)")}
        if "finished" not in columns:
            db.execute("ALTER TABLE runs ADD COLUMN finished INTEGER NOT NULL DEFAULT 0")
            db.execute("ALTER TABLE runs ADD COLUMN completed INTEGER NOT NULL DEFAULT 0")
            db.execute("ALTER TABLE runs ADD COLUMN updated REAL")
        db.execute("UPDATE runs SET finished = (SELECT COUNT(*) FROM games WHERE games.run_id = runs.run_id)")
        db.execute("UPDATE runs SET completed = (finished >= games)")
        db.commit()

    # ------------------------------------------------------------------ runs
    @_guarded
    def start_run(self, game: str, config: dict, base_seed: int, games: int) -> int:
        """Continue the run of this game, config and seed if the file has one, else start a new one."""
        key = json.dumps(config, sort_keys=True)
        self.games = games
        with self._patiently():
            row = self.db.execute("SELECT run_id, games FROM runs WHERE game = ? AND config = ? AND base_seed = ? "
                                  "ORDER BY run_id DESC LIMIT 1", (game, key, base_seed)).fetchone()
            if row is None and config.get("robot_rules_file"):
                self._same_rules_file(game, config, base_seed)
            with self.db:
                if row is None:
                    cur = self.db.execute("INSERT INTO runs (game, config, base_seed, games, started, updated) "
                                          "VALUES (?, ?, ?, ?, ?, ?)", (game, key, base_seed, games, time.time(),
                                                                        time.time()))
                    self.run_id = int(cur.lastrowid)
                else:
                    self.run_id = int(row[0])
                    self.db.execute("UPDATE runs SET games = MAX(games, ?), completed = 0, updated = ? "
                                    "WHERE run_id = ?", (games, time.time(), self.run_id))
        return self.run_id

    def _same_rules_file(self, game: str, config: dict, base_seed: int) -> None:
        """A run of the same robot rules file whose contents changed since: refuse (core/robot_rules.py)."""
        import paperrobot
        from ..core.robot_rules import refuse_changed

        rows = self.db.execute("SELECT config FROM runs WHERE game = ? AND base_seed = ?", (game, base_seed))
        recorded = [json.loads(r[0]) for r in rows]
        refuse_changed(recorded, config, str(self.path), paperrobot.game_info(game).robot_rules)

    @_guarded
    def done(self, games: int | None = None) -> int:
        """Games of this run with a row, among the first ``games`` (all when None)."""
        games = self.games if games is None else games
        return self.db.execute("SELECT COUNT(*) FROM games WHERE run_id = ? AND idx < ?",
                               (self.run_id, games)).fetchone()[0]

    @_guarded
    def missing(self, games: int | None = None) -> list[tuple[int, int]]:
        """The index ranges ``[start, stop)`` below ``games`` that have no row yet, in order."""
        games = self.games if games is None else games
        gaps, expected = [], 0
        for (idx,) in self.db.execute("SELECT idx FROM games WHERE run_id = ? AND idx < ? ORDER BY idx",
                                      (self.run_id, games)):
            if idx > expected:
                gaps.append((expected, idx))
            expected = idx + 1
        if expected < games:
            gaps.append((expected, games))
        return gaps

    @_guarded
    def outcomes(self, games: int | None = None) -> list[Outcome]:
        """The outcome of every stored game of this run below ``games``, each once (a row that another program
        changed into something this program never writes is the database's damage: one line)."""
        games = self.games if games is None else games
        out = []
        for winner, result, turns, metrics in self.db.execute(
                "SELECT winner, result, turns, metrics FROM games WHERE run_id = ? AND idx < ? ORDER BY idx",
                (self.run_id, games)):
            metrics = json.loads(metrics)
            if not (winner is None or isinstance(winner, str)) or not isinstance(result, str) \
                    or not isinstance(turns, int) or not isinstance(metrics, dict):
                raise ValueError(f"a game's row holds {str((winner, result, turns))[:60]}")
            out.append(Outcome(winner, result, turns, metrics))
        return out

    # ------------------------------------------------------------------ rows
    def add(self, index: int, seed: int, outcome: Outcome) -> None:
        self._pending.append((self.run_id, index, seed, outcome.winner, outcome.result, outcome.turns,
                              json.dumps(outcome.metrics, sort_keys=True)))
        self.tick()

    def tick(self) -> None:
        """Commit if a second has passed since the last commit; call it often (also while waiting)."""
        if self._pending and time.monotonic() - self._last_commit >= self.commit_every:
            self.flush()

    def flush(self, finish: bool = False) -> None:
        """Write the pending rows; a lock held by another program is waited out up to ``patience``."""
        try:
            with self.db:
                if self._pending:
                    cur = self.db.executemany("INSERT OR IGNORE INTO games VALUES (?, ?, ?, ?, ?, ?, ?)",
                                              self._pending)
                    self.db.execute("UPDATE runs SET finished = finished + ?, updated = ? WHERE run_id = ?",
                                    (max(cur.rowcount, 0), time.time(), self.run_id))
                if finish and self.run_id is not None:
                    self.db.execute("UPDATE runs SET completed = (SELECT COUNT(*) FROM games WHERE run_id = ?1 "
                                    "AND idx < runs.games) >= games, updated = ?2 WHERE run_id = ?1",
                                    (self.run_id, time.time()))
        except sqlite3.OperationalError as exc:
            if not _locked(exc):
                raise PaperRobotError(f"--db {self.path}: cannot write ({exc})") from None
            now = time.monotonic()
            self._locked_since = self._locked_since or now
            if now - self._locked_since >= self.patience:
                self._gave_up = True
                raise self._busy(f"waited {self.patience:g} s; {len(self._pending)} finished games are not "
                                 f"written and will be played again") from None
            return
        except sqlite3.DatabaseError as exc:  # a page damaged under the run: the games before it are committed
            self._gave_up = True
            raise _damaged(self.path, exc) from None
        self._pending.clear()
        self._last_commit = time.monotonic()
        self._locked_since = None

    def close(self, finish: bool = False) -> None:
        """Write everything (waiting out a lock up to ``patience``) and close."""
        if self._gave_up:  # the run already stopped on a lock: do not wait a second time
            self.db.close()
            return
        try:
            deadline = time.monotonic() + self.patience
            while True:
                self.flush(finish)
                if not self._pending and self._locked_since is None:
                    break
                if time.monotonic() > deadline:
                    raise self._busy(f"waited {self.patience:g} s")
                time.sleep(0.1)
            if self.run_id is not None:  # what the file holds of this run: what an interrupted run reports
                self.stored = self.db.execute("SELECT COUNT(*) FROM games WHERE run_id = ? AND idx < ?",
                                              (self.run_id, self.games)).fetchone()[0]
        finally:
            self.db.close()

    def _patiently(self):
        store = self

        class Wait:
            def __enter__(self):
                store.db.execute(f"PRAGMA busy_timeout = {int(store.busy_timeout * 1000)}")

            def __exit__(self, kind, exc, tb):
                store.db.execute(f"PRAGMA busy_timeout = {int(min(store.busy_timeout, 0.2) * 1000)}")
                if isinstance(exc, sqlite3.OperationalError) and _locked(exc):
                    raise store._busy(f"waited {store.busy_timeout:g} s") from None
                return False

        return Wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _is_sqlite(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return handle.read(16) == b"SQLite format 3\x00" or os.path.getsize(path) == 0
    except OSError:
        return False
