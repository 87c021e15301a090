"""Chunks of seeded games at one handicap level, and the local engine that plays them over processes.

A chunk is plain data: ``(play, robot_side, base_seed, level, seed_indices)``. ``play(seed, handicap)`` is a
picklable callable (a top-level function, a ``functools.partial`` or a small dataclass) that carries every
game parameter with it: nothing is set process-wide, so the same chunk gives the same rows in this process,
in a pool worker or in a Ray task. Game ``i`` of every level gets the seed ``derive_seed(base_seed, i)``
(common random numbers). This module stays light (no statsmodels) because every worker imports it.

The balance sweep has its own small executor rather than ``sim.runner`` (which plays one configuration,
``play(seed)``); a later change can unify the two.
"""
from __future__ import annotations

import multiprocessing
import signal
from functools import partial
from typing import Any, Callable, Iterable, Iterator, NamedTuple, Sequence

from ..core.dice import derive_seed
from ..core.outcome import Outcome
from .collect import collected

HandicapPlay = Callable[[int, Any], Outcome]


class Chunk(NamedTuple):
    play: HandicapPlay
    robot_side: str
    base_seed: int
    level: Any  # the handicap handed to play (an int for games whose option is a whole number)
    indices: tuple[int, ...]


class Row(NamedTuple):
    level: float
    seed_index: int
    seed: int
    score: float  # the robot's: win 1, draw 1/2, loss 0
    winner: str | None
    result: str
    turns: int


def score_of(outcome: Outcome, robot_side: str) -> float:
    if outcome.winner is None:
        return 0.5
    return 1.0 if outcome.winner == robot_side else 0.0


def play_chunk(chunk: Chunk) -> list[Row]:
    rows = []
    for index in chunk.indices:
        seed = derive_seed(chunk.base_seed, index)
        outcome = collected(partial(chunk.play, seed, chunk.level))  # sim/collect.py
        rows.append(Row(float(chunk.level), index, seed, score_of(outcome, chunk.robot_side), outcome.winner,
                        str(outcome.result), int(outcome.turns)))
    return rows


def _ignore_sigint() -> None:
    # Ctrl-C goes to the whole process group: the driver handles it (keeps finished games, stops the pool);
    # workers must not die mid-chunk with a traceback each.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class LocalEngine:
    """Chunks over a stdlib process pool (created on first use, kept for the whole sweep), results in
    completion order. ``jobs=1`` plays in this process. ``start_method`` defaults to spawn: no fork of a
    process that may hold threads; workers import only what the chunks' play functions need."""

    name = "local"

    def __init__(self, jobs: int = 1, start_method: str = "spawn"):
        self.jobs = max(1, int(jobs))
        self.start_method = start_method
        self._pool = None

    def map(self, chunks: Sequence[Chunk]) -> Iterator[list[Row]]:
        if not chunks:
            return
        if self.jobs == 1:
            for chunk in chunks:
                yield play_chunk(chunk)
            return
        if self._pool is None:
            context = multiprocessing.get_context(self.start_method)
            self._pool = context.Pool(self.jobs, initializer=_ignore_sigint)
        yield from self._pool.imap_unordered(play_chunk, chunks)

    def close(self, abort: bool = False) -> None:
        if self._pool is not None:
            if abort:
                self._pool.terminate()
            else:
                self._pool.close()
            self._pool.join()
            self._pool = None

    def __enter__(self):
        return self

    def __exit__(self, kind, value, traceback):
        self.close(abort=kind is not None)


def split(indices: Iterable[int], size: int) -> list[tuple[int, ...]]:
    indices = list(indices)
    return [tuple(indices[i:i + size]) for i in range(0, len(indices), max(1, size))]


def task_size(limit: int, todo: int, cost: float) -> int:
    """Games per task: ``limit`` when the games are cheap (``cost`` 1, rungs.cost); a searching player's games
    take seconds each, so then about an eighth of the work, which keeps every worker busy and loses little to
    Ctrl-C. The rows do not depend on it: a game's seed comes from its index."""
    return limit if cost <= 1 else min(limit, max(1, -(-todo // 8)))
