"""Many games: seeds, parallel runs over processes, a SQLite result store and statistics.

A game joins by offering a picklable function ``play(seed) -> Outcome`` (a top-level function, or
``functools.partial`` of one); this package knows nothing else about it.
"""
from .runner import run_games
from .stats import Summary, wilson_interval
from .store import ResultStore

__all__ = ["run_games", "Summary", "ResultStore", "wilson_interval"]
