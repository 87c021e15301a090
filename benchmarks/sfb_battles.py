"""Complete SFB Cadet scenario #5 battles per CPU-second, robot vs robot and robot vs policy, on the contract.

Run: .venv/bin/python benchmarks/sfb_battles.py [GAMES]
(benchmarks/compare.py OLD_REV . --only sfb-policy,sfb-robot puts two versions side by side.)
"""
from __future__ import annotations

import sys
import time

import paperrobot
from paperrobot.core.contract import drive_all
from paperrobot.core.dice import derive_seed


def battle(seed: int, opponent: str):
    return drive_all(paperrobot.new_game("sfb", seed=seed, scenario="5"), {"player": opponent, "robot": "robot"})


def measure(opponent: str, games: int) -> tuple[float, float]:
    started = time.process_time()
    turns = 0
    for index in range(games):
        turns += battle(derive_seed(1, index), opponent).turns
    elapsed = time.process_time() - started
    return games / elapsed, turns / games


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    battle(derive_seed(0, 0), "policy")  # warm the data caches
    for opponent in ("robot", "policy"):
        rate, turns = measure(opponent, games)
        print(f"scenario 5, robot vs {opponent:6s}: {rate:7.1f} battles per CPU-second ({games} battles, "
              f"mean {turns:.1f} turns)")


if __name__ == "__main__":
    main()
