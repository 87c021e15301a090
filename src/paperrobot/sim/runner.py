"""Run many seeded games, in parallel over processes, streaming outcomes to a callback.

Work is cut into chunks of game indices; each worker process plays a chunk and returns only the small
outcomes, so memory stays flat however many games are asked for. Game ``i`` always gets the seed
``derive_seed(base, i)``, so a run is reproducible whatever the number of processes.
"""
from __future__ import annotations

import multiprocessing
from typing import Callable, Iterator

from ..core.dice import derive_seed
from ..core.outcome import Outcome

Play = Callable[[int], Outcome]


def _play_chunk(args: tuple[Play, int, int, int]) -> list[tuple[int, int, Outcome]]:
    play, base_seed, start, stop = args
    out = []
    for index in range(start, stop):
        seed = derive_seed(base_seed, index)
        out.append((index, seed, play(seed)))
    return out


def iter_games(play: Play, games: int, base_seed: int = 1, jobs: int = 1,
               chunk: int = 50) -> Iterator[tuple[int, int, Outcome]]:
    """Yield ``(index, seed, outcome)`` for every game, in completion order."""
    chunks = [(play, base_seed, start, min(start + chunk, games)) for start in range(0, games, chunk)]
    if jobs <= 1:
        for task in chunks:
            yield from _play_chunk(task)
        return
    context = multiprocessing.get_context("fork")
    with context.Pool(processes=jobs) as pool:
        for result in pool.imap_unordered(_play_chunk, chunks):
            yield from result


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
