"""A person's own results: every finished game of ``play`` in a local SQLite file (docs/ladder.md).

One row per finished game: the game, its set-up (JSON), the handicap, the seed, the side the person flew,
who won, how and when. Nothing else is kept and nothing leaves the machine. The file is
``$PAPERROBOT_RECORDS`` if set, else ``$XDG_DATA_HOME/paperrobot/results.sqlite`` (``~/.local/share/...``),
next to the recovery saves of unfinished games. ``play --no-record`` keeps a game out of it.
``paperrobot rating`` reads it.

Front ends that keep a game of their own (the web page, an assistant's state) record it with a ``source``: one
key per game of theirs (``web:<database id>:<game id>``). A source is recorded once, the first time its game
finishes: a game finished, taken back and finished again is still one game (docs/ladder.md).
"""
from __future__ import annotations

import json
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import PaperRobotError
from ..core.files import DB_APPLICATION_ID

SCHEMA_VERSION = 2  # 2: the source column
SCHEMA = """
CREATE TABLE IF NOT EXISTS person_games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    setup TEXT NOT NULL,
    handicap REAL NOT NULL,
    seed INTEGER NOT NULL,
    person_side TEXT NOT NULL,
    opponent TEXT NOT NULL,          -- who flew the other side: 'robot'
    winner TEXT,                     -- NULL: a draw
    score REAL NOT NULL,             -- the person's: win 1, draw 1/2, loss 0
    result TEXT NOT NULL,
    turns INTEGER NOT NULL,
    engine_version INTEGER NOT NULL,
    finished REAL NOT NULL,
    source TEXT                      -- a front end's key of the game (NULL: a terminal game); unique
);
"""
SOURCE_INDEX = "CREATE UNIQUE INDEX IF NOT EXISTS person_games_source ON person_games (source)"


def default_path() -> Path:
    chosen = os.environ.get("PAPERROBOT_RECORDS")
    if chosen:
        return Path(chosen)
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "paperrobot"
    return base / "results.sqlite"


@dataclass(frozen=True)
class Record:
    game: str
    setup: dict
    handicap: float
    seed: int
    person_side: str
    opponent: str
    winner: str | None
    score: float
    result: str
    turns: int
    engine_version: int
    finished: float
    source: str | None = None


class Records:
    def __init__(self, path: str | Path | None = None, create: bool = True):
        self.path = Path(path) if path is not None else default_path()
        try:
            if create:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            elif not self.path.exists():
                raise PaperRobotError(f"no recorded games yet ({self.path} does not exist): finish a game of "
                                      f"'paperrobot play' first")
            self.db = sqlite3.connect(self.path, timeout=10)
            tables = [r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
            foreign = sorted(t for t in tables if t not in ("person_games", "sqlite_sequence"))
            if foreign:
                raise PaperRobotError(f"{self.path}: not a PaperRobot results file (it holds {', '.join(foreign)}); "
                                      f"move it away or set PAPERROBOT_RECORDS to another file")
            if self.db.execute("PRAGMA user_version").fetchone()[0] > SCHEMA_VERSION:
                raise PaperRobotError(f"{self.path}: written by a newer PaperRobot; upgrade")
            self.db.executescript(SCHEMA)
            columns = [r[1] for r in self.db.execute("PRAGMA table_info(person_games)")]
            if "source" not in columns:  # a version 1 file: every row a terminal game
                self.db.execute("ALTER TABLE person_games ADD COLUMN source TEXT")
            self.db.execute(SOURCE_INDEX)
            self.db.execute(f"PRAGMA application_id = {DB_APPLICATION_ID}")
            self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            self.db.commit()
        except (sqlite3.Error, OSError) as exc:
            raise PaperRobotError(f"{self.path}: cannot use the results file ({exc})") from None

    def add(self, record: Record) -> bool:
        """Add ``record``; False (nothing written) when its source is recorded already."""
        try:
            with self.db:
                cur = self.db.execute(
                    "INSERT OR IGNORE INTO person_games (game, setup, handicap, seed, person_side, opponent, winner,"
                    " score, result, turns, engine_version, finished, source) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (record.game, json.dumps(record.setup, sort_keys=True, default=str), record.handicap,
                     record.seed, record.person_side, record.opponent, record.winner, record.score,
                     record.result, record.turns, record.engine_version, record.finished, record.source))
                return cur.rowcount == 1
        except sqlite3.Error as exc:
            raise PaperRobotError(f"{self.path}: cannot record the game ({exc})") from None

    def has(self, source: str) -> bool:
        return self.db.execute("SELECT 1 FROM person_games WHERE source = ?", (source,)).fetchone() is not None

    def games(self, game: str | None = None) -> list[Record]:
        sql = ("SELECT game, setup, handicap, seed, person_side, opponent, winner, score, result, turns, "
               "engine_version, finished, source FROM person_games")
        try:
            rows = self.db.execute(sql + (" WHERE game = ? ORDER BY id" if game else " ORDER BY id"),
                                   (game,) if game else ()).fetchall()
            return [Record(g, json.loads(s), *rest) for g, s, *rest in rows]
        except (sqlite3.Error, ValueError, TypeError) as exc:
            raise PaperRobotError(f"{self.path}: cannot read the results file ({exc})") from None

    def close(self) -> None:
        self.db.close()


def person_side(controllers: dict) -> str | None:
    """The person's side in a game a rating can use (one side the person's, every other the robot's), else None."""
    people = [side for side, who in controllers.items() if who == "person"]
    others = {who for side, who in controllers.items() if who != "person"}
    return people[0] if len(people) == 1 and others == {"robot"} else None


def record_match(match, engine_version: int, path: str | Path | None = None,
                 source: str | None = None) -> Record | None:
    """Record a finished match of a person against the robot (``play``, the web page, the table assistants);
    None (nothing written) when it is not one, or when ``source`` is recorded already. A file that cannot be
    used raises PaperRobotError with one line; the caller says it and goes on (the game is never lost)."""
    outcome, side = match.outcome, person_side(match.controllers)
    if outcome is None or side is None:
        return None
    return record_result(match.game, dict(match.setup), int(match.seed), side, outcome.winner,
                         str(outcome.result), int(outcome.turns), engine_version, path, source)


def record_result(game: str, setup: dict, seed: int, person_side: str, winner: str | None, result: str, turns: int,
                  engine_version: int, path: str | Path | None = None, source: str | None = None) -> Record | None:
    """Record one finished game of a person against the robot given by its result (a game the program did not
    play to its end, such as Armada's assistant: the person says who won); None when ``source`` is recorded."""
    score = 0.5 if winner is None else float(winner == person_side)
    record = Record(game, setup, float(setup.get("handicap") or 0), int(seed), person_side, "robot", winner, score,
                    result, int(turns), int(engine_version), time.time(), source)
    records = Records(path)
    try:
        added = records.add(record)
    finally:
        records.close()
    return record if added else None
