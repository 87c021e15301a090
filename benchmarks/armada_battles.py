"""Complete Armada battles per CPU-second on one core: the Imperial AI against the Rebel policy, on the game
contract (paperrobot.new_game + drive_all, as 'simulate' plays them). To compare two versions side by side,
use benchmarks/compare.py OLD_REV . --only armada-policy.

Run: .venv/bin/python benchmarks/armada_battles.py [GAMES]
"""
from __future__ import annotations

import sys
import time

import paperrobot
from paperrobot.core.contract import drive_all
from paperrobot.core.dice import derive_seed

CONTROLLERS = {"imperial": "robot", "rebel": "policy"}


def battle(seed: int):
    return drive_all(paperrobot.new_game("armada", seed=seed), CONTROLLERS)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    battle(derive_seed(0, 0))  # warm the data caches
    started = time.process_time()
    rounds = 0
    for index in range(games):
        rounds += battle(derive_seed(1, index)).turns
    elapsed = time.process_time() - started
    print(f"armada, Imperial AI vs Rebel policy: {games / elapsed:6.1f} battles per CPU-second on one core "
          f"({games} battles, mean {rounds / games:.2f} rounds)")


if __name__ == "__main__":
    main()
