"""The shared front end of every ``simulate`` command: progress bar, SQLite rows, summary table."""
from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Optional

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from ..core.errors import PaperRobotError
from ..sim import ResultStore, Summary, run_games
from ..sim.runner import Play
from .common import console


def check_counts(games: int, jobs: int) -> int:
    if games < 1:
        raise PaperRobotError(f"--games must be at least 1 (got {games})")
    if jobs < 0:
        raise PaperRobotError(f"--jobs must be 0 (one per core) or more (got {jobs})")
    return jobs or (os.cpu_count() or 1)


def simulate(game: str, config: dict, play: Play, games: int, jobs: int, seed: int, db: Optional[Path],
             sides: list[str], title: str, quiet: bool = False) -> Summary:
    """Run the games with a progress bar, store one row each in ``db`` if given, print the summary."""
    jobs = check_counts(games, jobs)
    store = ResultStore(db) if db else None
    if store:
        store.start_run(game, config, seed, games)
    started = time.perf_counter()
    progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), TimeRemainingColumn(), console=console, transient=True,
                        disable=quiet)
    with progress:
        task = progress.add_task(title, total=games)

        def seen(index, game_seed, outcome):
            if store:
                store.add(index, game_seed, outcome)
            progress.advance(task)

        try:
            summary = run_games(play, games, seed, jobs, seen)
        finally:
            if store:
                store.close()
    elapsed = time.perf_counter() - started
    if not quiet:
        print_summary(summary, sides, title, elapsed, db)
    return summary


def print_summary(summary: Summary, sides: list[str], title: str, elapsed: float, db: Optional[Path]) -> None:
    table = Table(title=f"{title}: {summary.games} games", title_justify="left")
    table.add_column("outcome")
    table.add_column("games", justify="right")
    table.add_column("share", justify="right")
    table.add_column("95% interval", justify="right")
    for side in sides + [w for w in sorted(summary.wins) if w not in sides]:
        rate, low, high = summary.rate(side)
        table.add_row(f"{side} wins", str(summary.wins.get(side, 0)), f"{rate:6.1%}", f"{low:.1%} - {high:.1%}")
    rate, low, high = summary.rate(None)
    table.add_row("draws", str(summary.draws), f"{rate:6.1%}", f"{low:.1%} - {high:.1%}")
    console.print(table)
    low, high = summary.turns_interval()
    console.print(f"mean turns {summary.mean_turns:.2f} (95% {low:.2f} - {high:.2f}); "
                  f"endings: " + ", ".join(f"{k} {v}" for k, v in sorted(summary.results.items())))
    for key in sorted(summary.metric_sums):
        console.print(f"mean {key}: {summary.metric_mean(key):.2f}")
    rate = summary.games / elapsed if elapsed > 0 else 0.0
    console.print(f"{summary.games} games in {elapsed:.1f} s ({rate:.0f} games/s)" +
                  (f"; one row per game in {db}" if db else ""))
