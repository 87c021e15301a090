"""Run many seeded games, in parallel over processes, streaming outcomes back as they finish.

Game ``i`` always gets the seed ``derive_seed(base, i)``, so a run is reproducible whatever the number of
processes, the start method (fork or spawn) or the order the games finish in; a resumed run plays only
the indexes it is given.

Work goes to the workers in small spans of consecutive indexes. A worker plays a span until it is done
or ``budget`` seconds have passed, then sends back what it finished (the rest goes back in the queue),
so finished games reach the parent at least every ``budget`` seconds and can be stored at once. Only a
few spans are in flight at a time, so memory stays flat however many games are asked for.

Workers ignore SIGINT: the parent alone handles Ctrl-C (and SIGTERM), terminates the pool and says what
it kept. A worker whose parent has died stops quietly. Process-wide settings a game needs (Armada's
table geometry) are passed as ``init``, a picklable callable each worker runs before its first game,
because a spawned worker starts from a fresh interpreter.
"""
from __future__ import annotations

import multiprocessing
import gc
import os
import queue
import signal
import sys
import time
from collections import deque
from functools import partial
from typing import Callable, Iterable, Iterator

from ..core.dice import derive_seed
from ..core.errors import PaperRobotError
from ..core.outcome import Outcome
from .collect import collected

Play = Callable[[int], Outcome]
Result = tuple[int, int, Outcome]

_WORKER: dict = {}  # in a worker process: the play function, base seed and parent pid


def default_start_method() -> str | None:
    """``PAPERROBOT_START_METHOD`` (fork, spawn, forkserver) if set; fork where it exists (fastest),
    otherwise the platform's default (spawn on macOS and Windows)."""
    wanted = os.environ.get("PAPERROBOT_START_METHOD")
    if wanted:
        return wanted
    return "fork" if "fork" in multiprocessing.get_all_start_methods() and sys.platform == "linux" else None


_SETTLED: list[bool] = []  # this process has settled its long-lived objects (_settle)


def _settle() -> None:
    """Once per process, after its first game (every module imported, every table and cache loaded): collect, then
    move every object left to the collector's permanent generation (``gc.freeze``). The interpreter's full
    collections then no longer walk the modules, data and caches a simulation never frees (measured: about a tenth
    of a long FC simulation's CPU time went to them). Nothing a game decides depends on when garbage is collected."""
    if not _SETTLED:
        _SETTLED.append(True)
        gc.collect()
        gc.freeze()


def _worker_start(play: Play, base_seed: int, init: Callable[[], object] | None) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # pool.terminate() must end us, whatever fork copied
    _WORKER.update(play=play, base_seed=base_seed, parent=os.getppid())
    if init is not None:
        init()


def _play_span(start: int, stop: int, budget: float) -> tuple[list[Result], int, int, float]:
    """Play indexes ``start`` .. ``stop - 1`` until done or ``budget`` seconds passed."""
    play, base_seed, parent = _WORKER["play"], _WORKER["base_seed"], _WORKER["parent"]
    began = time.perf_counter()
    out: list[Result] = []
    index = start
    while index < stop:
        seed = derive_seed(base_seed, index)
        out.append((index, seed, collected(partial(play, seed))))
        _settle()
        index += 1
        if os.getppid() != parent:
            os._exit(0)  # the parent is gone: nobody to report to
        if time.perf_counter() - began >= budget:
            break
    return out, index, stop, time.perf_counter() - began


class WorkerDied(PaperRobotError):
    """A worker process ended without reporting its games."""


class _Failed:
    def __init__(self, exc: BaseException):
        self.exc = exc


class Runner:
    """Plays the games of one simulation; a context manager owning the worker pool (if ``jobs`` > 1).

    Create it before starting any thread (a progress bar), so that fork copies a single-threaded process."""

    def __init__(self, play: Play, base_seed: int = 1, jobs: int = 1, init: Callable[[], object] | None = None,
                 start_method: str | None = None, budget: float = 0.25):
        self.play, self.base_seed, self.jobs, self.init = play, base_seed, jobs, init
        self.start_method = start_method if start_method is not None else default_start_method()
        self.budget = budget
        self.pool = None
        self._pids: set = set()

    def __enter__(self) -> "Runner":
        if self.jobs > 1:
            context = multiprocessing.get_context(self.start_method)
            # Workers must never see Ctrl-C: ignore SIGINT while they are created (an ignored signal stays
            # ignored across fork and exec) and restore the parent's handler afterwards.
            previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if _main_thread() else None
            try:
                self.pool = context.Pool(self.jobs, _worker_start, (self.play, self.base_seed, self.init))
            finally:
                if previous is not None:
                    signal.signal(signal.SIGINT, previous)
            self._pids = self._worker_pids()
        return self

    def _worker_pids(self) -> set:
        return {p.pid for p in getattr(self.pool, "_pool", [])}

    def _check_workers(self) -> None:
        """A worker killed from outside (out of memory, kill -9) takes its span with it and the pool would
        wait for it forever: stop with one line instead (the finished games are kept)."""
        if self._pids and self._worker_pids() != self._pids:
            raise WorkerDied("a worker process died (killed from outside, or out of memory); the finished games "
                             "are kept: run the same command again to play the rest")

    def __exit__(self, kind, exc, tb) -> None:
        if self.pool is not None:
            if kind is None:
                self.pool.close()
            else:
                self.pool.terminate()
            self.pool.join()
            self.pool = None

    def games(self, ranges: Iterable[tuple[int, int]],
              idle: Callable[[], None] | None = None) -> Iterator[Result]:
        """Yield ``(index, seed, outcome)`` for every index in the ``[start, stop)`` ranges, in completion
        order; ``idle`` is called whenever no game has finished for a short while."""
        if self.pool is None:
            for start, stop in ranges:
                for index in range(start, stop):
                    seed = derive_seed(self.base_seed, index)
                    outcome = collected(partial(self.play, seed))
                    _settle()
                    yield index, seed, outcome
            return
        work = deque((start, stop) for start, stop in ranges if stop > start)
        results: queue.SimpleQueue = queue.SimpleQueue()
        in_flight, span = 0, 4
        while work or in_flight:
            while work and in_flight < 2 * self.jobs:
                start, stop = work.popleft()
                end = min(stop, start + span)
                if end < stop:
                    work.appendleft((end, stop))
                self.pool.apply_async(_play_span, (start, end, self.budget), callback=results.put,
                                      error_callback=lambda exc: results.put(_Failed(exc)))
                in_flight += 1
            try:
                item = results.get(timeout=0.2)
            except queue.Empty:
                self._check_workers()
                if idle is not None:
                    idle()
                continue
            in_flight -= 1
            if isinstance(item, _Failed):
                raise item.exc
            done, next_index, stop, elapsed = item
            if next_index < stop:
                work.appendleft((next_index, stop))
            if done:  # spans sized to about one budget of play
                rate = len(done) / max(elapsed, 1e-6)
                span = max(1, min(4096, int(rate * self.budget)))
            yield from done


def _main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


def iter_games(play: Play, games: int, base_seed: int = 1, jobs: int = 1,
               chunk: int = 50) -> Iterator[Result]:
    """Yield ``(index, seed, outcome)`` for games ``0 .. games - 1``, in completion order."""
    with Runner(play, base_seed, jobs) as runner:
        yield from runner.games([(0, games)])


def run_games(play: Play, games: int, base_seed: int = 1, jobs: int = 1,
              on_outcome: Callable[[int, int, Outcome], None] | None = None, chunk: int = 50):
    """Play ``games`` games and return their Summary; ``on_outcome`` sees each as it finishes."""
    from .stats import Summary

    summary = Summary()
    for index, seed, outcome in iter_games(play, games, base_seed, jobs, chunk):
        summary.add(outcome)
        if on_outcome is not None:
            on_outcome(index, seed, outcome)
    return summary
