"""The shared front end of every ``simulate`` command: progress bar, SQLite rows, summary table.

With ``--db``, a run is resumable: the same command again plays only the games the file lacks (after
Ctrl-C, a kill, or with a larger ``--games``), and the summary counts every game of the run once.
"""
from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from pathlib import Path
from typing import Callable, Optional

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from ..core.errors import Interrupted, PaperRobotError
from ..sim import ResultStore, Summary
from ..sim.runner import Play, Runner
from .common import command_line, console

MAX_GAMES = 100_000_000  # game i's seed keeps i in 32 bits; at ~400 games/s this is already three days
MAX_JOBS = 256
MAX_SEED = 0xFFFFFFFF  # seeds of simulations are 32 bits (core.dice.derive_seed)


def check_counts(games: int, jobs: int, seed: int | None = None) -> int:
    if not 1 <= games <= MAX_GAMES:
        raise PaperRobotError(f"--games must be between 1 and {MAX_GAMES:,} (got {games}); split a bigger study "
                              f"over several --seed values")
    if not 0 <= jobs <= MAX_JOBS:
        raise PaperRobotError(f"--jobs must be 0 (one per core) up to {MAX_JOBS} (got {jobs})")
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise PaperRobotError(f"--seed must be between 0 and {MAX_SEED} for a simulation (got {seed})")
    return jobs or (os.cpu_count() or 1)


class Terminated(KeyboardInterrupt):
    """SIGTERM, turned into the same orderly stop as Ctrl-C."""


@contextlib.contextmanager
def sigterm_stops():
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame):
        raise Terminated()

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def simulate(game: str, config: dict, play: Play, games: int, jobs: int, seed: int, db: Optional[Path],
             sides: list[str], title: str, quiet: bool = False, init: Callable[[], object] | None = None,
             force: bool = False) -> Summary:
    """Run the games with a progress bar, store one row each in ``db`` if given, print the summary.

    ``init`` (picklable) sets up process-wide state a game needs in each worker process."""
    jobs = check_counts(games, jobs, seed)
    store = ResultStore(db, force=force) if db else None
    summary = Summary()
    ranges = [(0, games)]
    stopped: KeyboardInterrupt | None = None
    try:
        if store:
            store.start_run(game, config, seed, games)
            for outcome in store.outcomes():
                summary.add(outcome)
            ranges = store.missing()
            if summary.games and not quiet:
                console.print(f"{db}: continuing the run with these settings: {summary.games} of {games} games are "
                              f"already played; playing the other {games - summary.games}")
        todo = sum(stop - start for start, stop in ranges)
        started = time.perf_counter()
        before = summary.games
        with sigterm_stops():
            try:
                # the pool first, then the progress bar's thread: fork must copy a single-threaded process
                with Runner(play, seed, min(jobs, max(todo, 1)), init) as runner:
                    progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                                        TimeElapsedColumn(), TimeRemainingColumn(), console=console,
                                        transient=True, disable=quiet)
                    with progress:
                        task = progress.add_task(title, total=games, completed=summary.games)
                        for index, game_seed, outcome in runner.games(ranges, store.tick if store else None):
                            if store:
                                store.add(index, game_seed, outcome)
                            summary.add(outcome)
                            progress.advance(task)
            except KeyboardInterrupt as exc:
                stopped = exc
    finally:
        if store:
            store.close(finish=True)
    if stopped is not None:
        what = "terminated" if isinstance(stopped, Terminated) else "interrupted"
        if store:  # the file's own count (a Ctrl-C between storing a game and counting it)
            finished = store.stored if store.stored is not None else summary.games
            raise Interrupted(f"{what} after {finished} of {games} games; they are kept in {db}: resume with "
                              f"{command_line()}")
        raise Interrupted(f"{what} after {summary.games} of {games} games; nothing was kept (give --db FILE to keep "
                          f"finished games and resume)")
    elapsed = time.perf_counter() - started
    if not quiet:
        print_summary(summary, sides, title, elapsed, db, summary.games - before)
    return summary


def print_summary(summary: Summary, sides: list[str], title: str, elapsed: float, db: Optional[Path],
                  played: int | None = None) -> None:
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
    played = summary.games if played is None else played
    rate = played / elapsed if elapsed > 0 else 0.0
    console.print(f"{played} games played in {elapsed:.1f} s ({rate:.0f} games/s)" +
                  (f"; one row per game in {db}" if db else ""))
