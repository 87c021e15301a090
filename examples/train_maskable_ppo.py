"""Train a masked PPO agent against the SFB Cadet robot (scenario #5) for a few CPU-minutes, then compare its win
rate against the robot with the heuristic policy's and a random masked agent's, on the same evaluation seeds.

    bash scripts/setup-train                     # .venv-train: the rl extra, sb3-contrib, CPU-only torch
    .venv-train/bin/python examples/train_maskable_ppo.py --cpu-minutes 5 --eval 200

One thread and one environment (the machine is shared); the training budget is CPU time of this process
(user + system), not wall time. The point is that it runs and reports honestly, not that a few minutes of
PPO beats a rule bot.
"""
from __future__ import annotations

import argparse
import collections
import sys
import time

import numpy as np

import paperrobot
from paperrobot.core.contract import drive_all
from paperrobot.core.dice import derive_seed
from paperrobot.envs import gym_env
from paperrobot.sim.stats import wilson_interval

SETUPS = {"sfb": {"scenario": "5"}}  # the scenario; other games use their default set-up


def learner_side(game: str) -> str:
    info = paperrobot.game_info(game)
    return next(s for s in info.sides if s != info.robot_side)  # the side gym_env gives the learner


def policy_outcomes(game: str, setup: dict, seeds: list[int]) -> list:
    """The heuristic policy flies the learner's side against the robot."""
    robot = paperrobot.game_info(game).robot_side
    return [drive_all(paperrobot.new_game(game, seed=seed, **setup), {robot: "robot", learner_side(game): "policy"})
            for seed in seeds]


def env_outcomes(env, choose, seeds: list[int]) -> list:
    """Play one battle per seed in ``env``; ``choose(obs, mask)`` gives the action."""
    outcomes = []
    for seed in seeds:
        obs, _ = env.reset(seed=seed)
        while True:
            obs, reward, terminated, truncated, _ = env.step(choose(obs, env.action_masks()))
            if terminated or truncated:
                outcomes.append(env.unwrapped.match.outcome)
                break
    return outcomes


def how(outcomes: list, learner: str) -> str:
    """How the battles ended, from the learner's side: 'loss by disengaged 180, win by destroyed 20'."""
    counts = collections.Counter(
        f"{'draw' if o.winner is None else 'win' if o.winner == learner else 'loss'} by {o.result}" for o in outcomes)
    return ", ".join(f"{k} {n}" for k, n in counts.most_common())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="sfb", choices=paperrobot.games())
    parser.add_argument("--cpu-minutes", type=float, default=5.0, help="training budget in CPU time of this process")
    parser.add_argument("--eval", type=int, default=200, help="evaluation battles for each of the three players")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reward", default="outcome", choices=("outcome", "shaped"), help="docs/envs.md")
    args = parser.parse_args()
    try:
        import torch
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.callbacks import BaseCallback
    except ImportError:
        sys.exit("this example needs torch and sb3-contrib in their own venv: bash scripts/setup-train")
    torch.set_num_threads(1)  # one core for the learner; the engine runs in the same thread

    class CpuBudget(BaseCallback):
        """Stops learning once this process has used ``seconds`` of CPU time; counts finished battles."""

        def __init__(self, seconds: float):
            super().__init__()
            self.end, self.battles = time.process_time() + seconds, 0

        def _on_step(self) -> bool:
            self.battles += int(np.sum(self.locals["dones"]))
            return time.process_time() < self.end

    setup = SETUPS.get(args.game, {})
    env = gym_env(args.game, reward=args.reward, **setup)
    env.reset(seed=args.seed)
    # a battle ends in one sparse reward after hundreds of small decisions: a long horizon (gamma near 1)
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, verbose=0, n_steps=2048, batch_size=256, gamma=0.999,
                        ent_coef=0.01, device="cpu")
    budget = CpuBudget(args.cpu_minutes * 60)
    start = time.process_time()
    model.learn(total_timesteps=10 ** 9, callback=budget)
    trained_cpu = time.process_time() - start

    seeds = [derive_seed(args.seed + 1000, i) for i in range(args.eval)]  # never the training battles' seeds
    start = time.process_time()
    rng = np.random.default_rng(args.seed)
    results = {
        "PPO agent (masked, deterministic)": env_outcomes(
            gym_env(args.game, **setup),
            lambda obs, mask: int(model.predict(obs, action_masks=mask, deterministic=True)[0]), seeds),
        "heuristic policy": policy_outcomes(args.game, setup, seeds),
        "random masked agent": env_outcomes(
            gym_env(args.game, **setup), lambda obs, mask: int(rng.choice(np.flatnonzero(mask))), seeds),
    }
    eval_cpu = time.process_time() - start
    print(f"{args.game} {setup or ''}: trained {model.num_timesteps} steps ({budget.battles} battles, reward "
          f"{args.reward}) in {trained_cpu / 60:.1f} CPU-minutes; evaluated in {eval_cpu / 60:.1f} CPU-minutes")
    print(f"win rate against the robot over {args.eval} battles (seeds derive_seed({args.seed + 1000}, i)), "
          "95% Wilson interval:")
    learner = learner_side(args.game)
    for name, outcomes in results.items():
        wins = sum(o.winner == learner for o in outcomes)
        low, high = wilson_interval(wins, args.eval)
        print(f"  {name:34} {wins:4d}/{args.eval}  {wins / args.eval:6.1%}  [{low:.1%}, {high:.1%}]  "
              f"mean turns {np.mean([o.turns for o in outcomes]):.1f}; {how(outcomes, learner)}")


if __name__ == "__main__":
    main()
