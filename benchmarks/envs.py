"""Environment steps per CPU-second, per game: the Gymnasium environment (the learner against the robot) and the
PettingZoo AEC one (every side an agent), both driven by masked actions (``--actions random``, or ``first``: each
question's suggestion, so that an episode is a whole battle), beside PettingZoo's own classic tic-tac-toe driven by
the same AEC loop in the same run.

    bash scripts/setup-train        # .venv-train has the rl extra and pettingzoo[classic] (tic-tac-toe needs pygame)
    .venv-train/bin/python benchmarks/envs.py --seconds 10 --rounds 3

CPU time is this process's user + system time (time.process_time), which a busy machine distorts far less than
wall time. A step is one small decision (docs/envs.md); resets are inside the measured time. Each figure is the
median of ``--rounds`` runs of ``--seconds`` CPU-seconds each, every run from its own seed.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Callable

import numpy as np

import paperrobot
from paperrobot.core.errors import PaperRobotError

SETUPS = {"sfb": {"scenario": "5"}}  # the training example's scenario; other games use their default set-up


def pick_random(mask: np.ndarray, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def pick_first(mask: np.ndarray, rng: np.random.Generator) -> int:
    """The first legal action: every question's first choice is its suggestion (the policy's answer; "no" to
    SFB's "disengage?"), so episodes are whole battles, as issue 24 asks the rate to be measured."""
    return int(np.argmax(mask))


PICKS = {"random": pick_random, "first": pick_first}
pick = pick_random


def gym_rate(make: Callable, seconds: float, seed: int) -> tuple[int, float, int]:
    """(steps, CPU-seconds, finished episodes) of masked actions (``pick``) in a Gymnasium environment."""
    env, rng = make(), np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = episodes = 0
    start = time.process_time()
    end = start + seconds
    while time.process_time() < end:
        for _ in range(100):
            _, _, terminated, truncated, _ = env.step(pick(env.action_masks(), rng))
            steps += 1
            if terminated or truncated:
                episodes += 1
                env.reset()
    return steps, time.process_time() - start, episodes


def aec_rate(make: Callable, seconds: float, seed: int) -> tuple[int, float, int]:
    """(steps, CPU-seconds, finished episodes) of masked actions (``pick``) in a PettingZoo AEC environment; the
    same loop for PaperRobot's environments and PettingZoo's own."""
    env, rng = make(), np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = episodes = 0
    start = time.process_time()
    end = start + seconds
    while time.process_time() < end:
        for _ in range(100):
            if not env.agents:
                episodes += 1
                env.reset()
            _, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                action = None
            else:
                action = pick(env.observe(env.agent_selection)["action_mask"], rng)
            env.step(action)
            steps += 1
    return steps, time.process_time() - start, episodes


def measure(name: str, fn: Callable, make: Callable, seconds: float, rounds: int, seed: int) -> None:
    runs = [fn(make, seconds, seed + r) for r in range(rounds)]
    rates = [steps / cpu for steps, cpu, _ in runs]
    episodes = sum(r[2] for r in runs)
    per_episode = f"{sum(r[0] for r in runs) / episodes:,.0f}" if episodes else "no episode ended"
    print(f"| {name} | {statistics.median(rates):,.0f} | {min(rates):,.0f}-{max(rates):,.0f} | {per_episode} |",
          flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="CPU-seconds per run")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", nargs="*", default=list(paperrobot.games()))
    parser.add_argument("--actions", choices=sorted(PICKS), default="random",
                        help="random masked actions (SFB episodes end in a few steps by disengaging), or the first "
                             "legal one, each question's suggestion (whole battles)")
    args = parser.parse_args()
    global pick
    pick = PICKS[args.actions]
    try:
        from paperrobot.envs import aec_env, gym_env
        gym_env("sfb", scenario="5")
    except PaperRobotError as exc:
        sys.exit(str(exc))
    print(f"{args.actions} masked actions; median of {args.rounds} runs of {args.seconds:g} CPU-s each\n")
    print("| environment | steps per CPU-second | range | steps per episode |\n|---|---|---|---|")
    for game in args.games:
        setup = SETUPS.get(game, {})
        measure(f"{game} Gymnasium (vs robot)", gym_rate, lambda: gym_env(game, **setup), args.seconds, args.rounds,
                args.seed)
        measure(f"{game} AEC (both sides agents)", aec_rate, lambda: aec_env(game, **setup), args.seconds,
                args.rounds, args.seed)
    try:
        from pettingzoo.classic import tictactoe_v3
    except ImportError as exc:  # pettingzoo.classic needs its extra (pygame for tic-tac-toe)
        print(f"| PettingZoo tic-tac-toe | not measured: {exc} (pip install 'pettingzoo[classic]') | | |")
        return
    measure("PettingZoo classic tictactoe_v3 (AEC)", aec_rate, tictactoe_v3.env, args.seconds, args.rounds, args.seed)


if __name__ == "__main__":
    main()
