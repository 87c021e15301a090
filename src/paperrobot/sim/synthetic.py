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


# ------------------------------------------------------------------ validation of the statistics
LEVELS = (10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0)


def fixed_sweep(replicate: int, games_per_level: int, levels=LEVELS, cluster: bool = True, **game):
    """The fit of one synthetic stage-2 sweep: ``games_per_level`` seeds (base seed ``replicate``) at every level."""
    from functools import partial

    from .chunks import Chunk, play_chunk
    from .fit import fit_sweep

    play_one = partial(play, **game)
    rows = [row for level in levels
            for row in play_chunk(Chunk(play_one, "robot", replicate, level, tuple(range(games_per_level))))]
    return fit_sweep([r.level for r in rows], [r.score for r in rows], [r.seed_index for r in rows],
                     cluster=cluster)


def coverage(replicates: int, games_per_level: int, levels=LEVELS, first: int = 1, cluster: bool = True,
             **game) -> dict:
    """How often the 95 % Fieller interval of a fixed-size synthetic sweep holds the true h50."""
    import statistics

    truth = game.get("h50", TRUE_H50)
    held, halves, estimates, unbounded = 0, [], [], 0
    for replicate in range(first, first + replicates):
        fit = fixed_sweep(replicate, games_per_level, levels, cluster, **game)
        if not fit.slope_positive:
            unbounded += 1
            continue
        held += fit.interval.low <= truth <= fit.interval.high
        halves.append(fit.interval.half_width)
        estimates.append(fit.h50)
    return {"replicates": replicates, "games_per_level": games_per_level, "levels": len(levels),
            "coverage": float(held) / replicates, "no_interval": unbounded,
            "mean_half_width": statistics.fmean(halves) if halves else None,
            "sd_h50": statistics.stdev(estimates) if len(estimates) > 1 else None}


def stopping_coverage(replicates: int, precision: float, games_per_level: int = 50, first: int = 1,
                      **game) -> dict:
    """Coverage of whole sweeps (bracket, fit, then seeds added until the half-width is at most ``precision``):
    the data-dependent stopping rule's effect on the interval."""
    import statistics
    from functools import partial

    from .balance import BalanceStore, Matchup, Plan, run_sweep
    from .chunks import LocalEngine

    truth = game.get("h50", TRUE_H50)
    held, totals = 0, []
    with LocalEngine(1) as engine:
        for replicate in range(first, first + replicates):
            matchup = Matchup("synthetic/stopping", "synthetic", partial(play, **game))
            plan = Plan(base_seed=replicate, games_per_level=games_per_level, probe_games=100, precision=precision)
            sweep = run_sweep(matchup, plan, BalanceStore(None), engine)
            fit = sweep.fit
            held += fit.slope_positive and fit.interval.low <= truth <= fit.interval.high
            totals.append(sweep.stage2_games)
    return {"replicates": replicates, "precision": precision, "coverage": float(held) / replicates,
            "mean_stage2_games": statistics.fmean(totals)}
