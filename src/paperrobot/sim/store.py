"""SQLite store: one row per game, one row per run. Rows are written in batches as games finish."""
from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

from ..core.errors import PaperRobotError
from ..core.outcome import Outcome

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    run_id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    config TEXT NOT NULL,
    base_seed INTEGER NOT NULL,
    games INTEGER NOT NULL,
    started REAL NOT NULL
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
"""


class ResultStore:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        try:
            self.db = sqlite3.connect(self.path)
            self.db.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise PaperRobotError(f"{self.path}: not a usable results database ({exc}); "
                                  f"give --db a new file name") from None
        self._pending: list[tuple] = []
        self.run_id: int | None = None

    def start_run(self, game: str, config: dict, base_seed: int, games: int) -> int:
        cur = self.db.execute("INSERT INTO runs (game, config, base_seed, games, started) VALUES (?, ?, ?, ?, ?)",
                              (game, json.dumps(config, sort_keys=True), base_seed, games, time.time()))
        self.db.commit()
        self.run_id = int(cur.lastrowid)
        return self.run_id

    def add(self, index: int, seed: int, outcome: Outcome) -> None:
        self._pending.append((self.run_id, index, seed, outcome.winner, outcome.result, outcome.turns,
                              json.dumps(outcome.metrics, sort_keys=True)))
        if len(self._pending) >= 500:
            self.flush()

    def flush(self) -> None:
        if self._pending:
            self.db.executemany("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?)", self._pending)
            self.db.commit()
            self._pending.clear()

    def close(self) -> None:
        self.flush()
        self.db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
