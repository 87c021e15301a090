"""FC throughput: battles per CPU-second (time.process_time), robot vs policy and robot vs robot, through the
registry and the contract driver (``paperrobot.fc.play`` = new_game + drive_all).

    .venv/bin/python benchmarks/fc_battles.py [games] [rounds]

To compare with another checkout (e.g. the engine before the contract), run the same file with its sources:
    PYTHONPATH=/tmp/fc-old/src .venv/bin/python benchmarks/fc_battles.py
(the old API is detected: ``make_game``/``fc.play(seed, opponent_ship=...)``). The best of the rounds is shown:
on a shared machine the minimum CPU time is the least disturbed.
"""
from __future__ import annotations

import sys
import time

import paperrobot.fc as fc

CONTRACT = hasattr(fc, "build")


def one(seed: int, robot_vs_robot: bool):
    other = "kzinti-bc" if robot_vs_robot else "federation-ca"
    opponent = "robot" if robot_vs_robot else "policy"
    if CONTRACT:
        return fc.play(seed, opponent=opponent, player_ship=other)
    return fc.play(seed, opponent=opponent, opponent_ship=other)  # before the contract (commit 1461507)


def bench(label: str, games: int, rounds: int, robot_vs_robot: bool) -> float:
    best = 0.0
    for _ in range(rounds):
        started = time.process_time()
        for seed in range(games):
            one(seed, robot_vs_robot)
        best = max(best, games / (time.process_time() - started))
    print(f"{'contract' if CONTRACT else 'before  '} {label:34} {games} games x {rounds}: best "
          f"{best:6.1f} battles/CPU-s")
    return best


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    one(0, False)  # imports and data loading outside the measurement
    bench("robot d7 vs policy federation-ca", n, rounds, False)
    bench("robot d7 vs robot kzinti-bc", n, rounds, True)
