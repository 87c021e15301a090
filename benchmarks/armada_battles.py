"""Complete Armada battles per second on one core: the Imperial AI against the Rebel policy.

Run: .venv/bin/python benchmarks/armada_battles.py [GAMES]
"""
from __future__ import annotations

import sys
import time

from paperrobot.armada import play_battle
from paperrobot.core.dice import derive_seed


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    play_battle(derive_seed(0, 0))  # warm the data caches
    started = time.perf_counter()
    rounds = 0
    for index in range(games):
        rounds += play_battle(derive_seed(1, index)).turns
    elapsed = time.perf_counter() - started
    print(f"armada, Imperial AI vs Rebel policy: {games / elapsed:6.1f} battles/s on one core "
          f"({games} battles, mean {rounds / games:.2f} rounds)")


if __name__ == "__main__":
    main()
