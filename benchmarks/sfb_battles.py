"""Complete SFB Cadet scenario #5 battles per second on one core, robot vs robot and robot vs policy.

Run: .venv/bin/python benchmarks/sfb_battles.py [GAMES]
"""
from __future__ import annotations

import sys
import time

from paperrobot.core.dice import derive_seed
from paperrobot.sfb import play_battle


def measure(opponent: str, games: int) -> tuple[float, float]:
    started = time.perf_counter()
    turns = 0
    for index in range(games):
        turns += play_battle(derive_seed(1, index), scenario="5", opponent=opponent).turns
    elapsed = time.perf_counter() - started
    return games / elapsed, turns / games


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    play_battle(derive_seed(0, 0), scenario="5")  # warm the data caches
    for opponent in ("robot", "policy"):
        rate, turns = measure(opponent, games)
        print(f"scenario 5, robot vs {opponent:6s}: {rate:7.1f} battles/s on one core ({games} battles, "
              f"mean {turns:.1f} turns)")


if __name__ == "__main__":
    main()
