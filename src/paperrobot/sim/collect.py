"""Whole games played one after another (simulations, a search's play-outs) with the cyclic collector run once a game.

A finished game is a web of reference cycles (an engine holds its robots, requests and dice, which hold the engine),
so only the cyclic garbage collector frees it. Left to itself the collector runs every few hundred allocations in
the middle of the next game, and each run also walks that game's live state and promotes it to the older
generations, whose collections walk more. Pausing the automatic collector for the length of one game and collecting
the young generation once after it frees the same garbage for less: measured 1.04-1.12x battles per CPU-second and
up to 1.3x for a search's play-outs (docs/speed.md, "Garbage once a game"). Nothing a game decides depends on
when garbage is collected.
"""
from __future__ import annotations

import gc
from typing import Callable, TypeVar

T = TypeVar("T")


def collected(play: Callable[[], T]) -> T:
    """``play()`` with the automatic collector paused, then its garbage collected. Nested calls (a search's
    play-outs inside a simulated game) each collect after their own game; the state the outermost call found is
    restored, also on an exception (Ctrl-C)."""
    was = gc.isenabled()
    gc.disable()
    try:
        return play()
    finally:
        if was:
            gc.enable()
        gc.collect(0)
