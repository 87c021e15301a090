"""A synthetic "game" whose robot win chance is a known logistic function of the handicap.

It validates the balance statistics (the true even point is known) and stands in for a real game in the
sweep's tests and benchmark. ``play(seed, handicap)`` is deterministic in (seed, handicap) like a real game;
with ``shared=1`` a seed draws the same uniform number at every level (full common random numbers: a seed
the robot wins at handicap h it also wins at every larger h); ``shared=0`` draws afresh at every level.
"""
from __future__ import annotations

import math
import random

from ..core.outcome import Outcome

TRUE_H50 = 40.0
TRUE_SLOPE = math.log(3) / 30  # 25 % -> 75 % over 60 points (platform.md 3.3)


def win_chance(handicap: float, h50: float = TRUE_H50, slope: float = TRUE_SLOPE) -> float:
    return 1 / (1 + math.exp(-slope * (handicap - h50)))


def play(seed: int, handicap: float, h50: float = TRUE_H50, slope: float = TRUE_SLOPE, draw: float = 0.0,
         shared: float = 1.0, work: int = 0) -> Outcome:
    """One synthetic game. The robot scores with expected value ``draw/2 + (1-draw)*win_chance(h)``, which is
    1/2 exactly at ``h50``. ``work`` burns that many loop steps (a stand-in for a real game's CPU time)."""
    rng = random.Random(seed)
    u, d = rng.random(), rng.random()
    if shared < 1.0:
        level_rng = random.Random(f"{seed}/{handicap!r}")
        if level_rng.random() >= shared:
            u = level_rng.random()
    total = 0
    for i in range(work):
        total += i * i % 7
    if d < draw:
        return Outcome(None, "draw", 1, {"work": float(total)})
    winner = "robot" if u < win_chance(handicap, h50, slope) else "player"
    return Outcome(winner, "synthetic", 1, {"work": float(total)})
