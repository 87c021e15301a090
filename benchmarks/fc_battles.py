"""FC throughput on one core: games per second, robot vs robot and robot vs policy.

    .venv/bin/python benchmarks/fc_battles.py [games]
"""
from __future__ import annotations

import sys
import time

from paperrobot.fc import play


def bench(label: str, games: int, **kw) -> float:
    started = time.perf_counter()
    for seed in range(games):
        play(seed, **kw)
    rate = games / (time.perf_counter() - started)
    print(f"{label:38} {games} games, {rate:7.1f} games/s")
    return rate


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    bench("robot d7 vs policy federation-ca", n)
    bench("robot d7 vs robot kzinti-bc", n, opponent="robot", opponent_ship="kzinti-bc")
