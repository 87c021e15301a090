"""Train a masked PPO agent against the SFB Cadet robot (scenario #5) for a few minutes and compare its win
rate with the heuristic policy's, on the same evaluation seeds.

    pip install 'paperrobot[rl]' sb3-contrib        # the example's own dependencies (not installed by tests)
    python examples/train_maskable_ppo.py --minutes 5 --eval 200

The point is that it runs and reports honestly, not that a few minutes of PPO beats a rule bot.
"""
from __future__ import annotations

import argparse
import time

import paperrobot
from paperrobot.core.contract import drive_all
from paperrobot.core.dice import derive_seed
from paperrobot.envs import gym_env


def policy_win_rate(game: str, setup: dict, seeds: list[int]) -> float:
    wins = 0
    for seed in seeds:
        match = paperrobot.new_game(game, seed=seed, **setup)
        robot = match.engine.robot_side
        learner = next(s for s in match.sides if s != robot)
        outcome = drive_all(match, {robot: "robot", learner: "policy"})
        wins += outcome.winner == learner
    return wins / len(seeds)


def agent_win_rate(model, game: str, setup: dict, seeds: list[int]) -> float:
    env = gym_env(game, **setup)
    wins = 0
    for seed in seeds:
        obs, _ = env.reset(seed=seed)
        while True:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, reward, terminated, truncated, _ = env.step(int(action))
            if terminated or truncated:
                wins += reward > 0
                break
    return wins / len(seeds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="sfb")
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--eval", type=int, default=200, help="evaluation games for each of agent and policy")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    try:
        from sb3_contrib import MaskablePPO
    except ImportError:
        raise SystemExit("this example needs sb3-contrib: pip install sb3-contrib")
    setup = {"scenario": "5"} if args.game == "sfb" else {}
    env = gym_env(args.game, **setup)
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, verbose=0, n_steps=1024, batch_size=256)
    deadline, steps = time.monotonic() + args.minutes * 60, 0
    while time.monotonic() < deadline:
        model.learn(total_timesteps=4096, reset_num_timesteps=False)
        steps += 4096
        print(f"{steps} steps trained", flush=True)
    seeds = [derive_seed(args.seed + 1000, i) for i in range(args.eval)]
    agent = agent_win_rate(model, args.game, setup, seeds)
    policy = policy_win_rate(args.game, setup, seeds)
    print(f"{args.game}: after {steps} steps ({args.minutes:g} min), win rate against the robot: "
          f"agent {agent:.1%}, heuristic policy {policy:.1%} ({args.eval} games each)")


if __name__ == "__main__":
    main()
