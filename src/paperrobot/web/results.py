"""The runs of ``simulate`` from a results SQLite file (``sim/store.py``'s schema), read only.

The file is opened with ``mode=ro``: the page never writes to it. Win rates carry 95% Wilson intervals
and the mean length a 95% normal interval, as ``simulate`` prints them (``sim/stats.py``).
"""
from __future__ import annotations

import json
import math
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from ..core.errors import PaperRobotError
from ..sim.stats import Z95, wilson_interval


@dataclass
class Rate:
    name: str
    count: int
    rate: float
    low: float
    high: float


@dataclass
class Run:
    run_id: int
    game: str
    config: dict
    base_seed: int
    planned: int
    started: float
    games: int = 0
    rates: list[Rate] = field(default_factory=list)
    results: list[tuple[str, int]] = field(default_factory=list)
    turns: tuple[float, float, float] = (0.0, 0.0, 0.0)
    metrics: list[tuple[str, float]] = field(default_factory=list)


def open_results(path: str) -> list[Run]:
    """Every run in the file, newest first; PaperRobotError (one line) if it is not a results file."""
    file = Path(path).expanduser()
    if not file.is_file():
        raise PaperRobotError(f"{file}: no such file")
    try:
        db = sqlite3.connect(f"file:{quote(str(file.resolve()))}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise PaperRobotError(f"{file}: cannot be opened ({exc})") from None
    try:
        try:
            rows = db.execute("SELECT run_id, game, config, base_seed, games, started FROM runs "
                              "ORDER BY run_id DESC LIMIT 200").fetchall()
        except sqlite3.Error as exc:
            raise PaperRobotError(f"{file}: not a results file written by 'paperrobot simulate --db' ({exc})") from None
        runs = []
        for run_id, game, config, seed, planned, started in rows:
            try:
                config = json.loads(config)
            except ValueError:
                config = {"config": config}
            run = Run(run_id, game, config if isinstance(config, dict) else {"config": config}, seed, planned, started)
            _fill(db, run)
            runs.append(run)
        return runs
    finally:
        db.close()


def _fill(db: sqlite3.Connection, run: Run) -> None:
    n, mean, square = db.execute("SELECT COUNT(*), AVG(turns), AVG(turns * turns) FROM games WHERE run_id = ?",
                                 (run.run_id,)).fetchone()
    run.games = n or 0
    if not run.games:
        return
    for winner, count in db.execute("SELECT winner, COUNT(*) FROM games WHERE run_id = ? GROUP BY winner "
                                    "ORDER BY COUNT(*) DESC", (run.run_id,)):
        low, high = wilson_interval(count, run.games)
        run.rates.append(Rate(winner if winner is not None else "draw", count, count / run.games, low, high))
    run.results = [(r, c) for r, c in db.execute(
        "SELECT result, COUNT(*) FROM games WHERE run_id = ? GROUP BY result ORDER BY COUNT(*) DESC", (run.run_id,))]
    half = 0.0
    if run.games > 1:
        variance = max(0.0, (square - mean * mean) * run.games / (run.games - 1))
        half = Z95 * math.sqrt(variance / run.games)
    run.turns = (mean, mean - half, mean + half)
    try:
        run.metrics = [(k, v) for k, v in db.execute(
            "SELECT j.key, AVG(j.value) FROM games, json_each(games.metrics) AS j WHERE games.run_id = ? "
            "GROUP BY j.key ORDER BY j.key", (run.run_id,))]
    except sqlite3.Error:
        run.metrics = []
