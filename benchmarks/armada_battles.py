"""Complete Armada battles per CPU-second on one core: the Imperial AI against the Rebel policy, on the game
contract (paperrobot.new_game + drive_all, as 'simulate' plays them), and the Imperial AI's decision time
(p50/p99/max CPU time of ``Robot.decide``, timed with time.process_time_ns around each call, over the first
``DECISION_GAMES`` battles, separate from the battles-per-second run; then, by request kind, how many are over
0.5 ms). To compare two versions side by side, use benchmarks/compare.py OLD_REV . --only armada-policy.

Run: .venv/bin/python benchmarks/armada_battles.py [GAMES] [DECISION_GAMES]
"""
from __future__ import annotations

import sys
import time

import paperrobot
from paperrobot.armada.robot import Robot
from paperrobot.core.contract import drive_all
from paperrobot.core.dice import derive_seed

CONTROLLERS = {"imperial": "robot", "rebel": "policy"}
SLOW = 500_000  # ns: issue #16's goal for a decision's p99


def battle(seed: int):
    return drive_all(paperrobot.new_game("armada", seed=seed), CONTROLLERS)


def decision_times(games: int, kinds: dict | None = None) -> list[int]:
    """CPU nanoseconds of every Imperial decision in ``games`` battles (Robot.decide wrapped while they run);
    ``kinds``, if given, gathers them by request kind too."""
    times: list[int] = []
    plain = Robot.decide
    clock = time.process_time_ns

    def timed(self, request):
        started = clock()
        try:
            return plain(self, request)
        finally:
            times.append(clock() - started)
            if kinds is not None:
                kinds.setdefault(request.kind, []).append(times[-1])

    Robot.decide = timed
    try:
        for index in range(games):
            battle(derive_seed(1, index))
    finally:
        Robot.decide = plain
    return times


def percentile(values: list[int], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    decision_games = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    battle(derive_seed(0, 0))  # warm the data caches
    if games:
        started = time.process_time()
        rounds = 0
        for index in range(games):
            rounds += battle(derive_seed(1, index)).turns
        elapsed = time.process_time() - started
        print(f"armada, Imperial AI vs Rebel policy: {games / elapsed:6.1f} battles per CPU-second on one core "
              f"({games} battles, mean {rounds / games:.2f} rounds)")
    if decision_games:
        kinds: dict[str, list[int]] = {}
        times = decision_times(decision_games, kinds)
        print(f"armada, Imperial AI decide(): p50 {percentile(times, 50) / 1e6:.3f} ms, "
              f"p99 {percentile(times, 99) / 1e6:.3f} ms, max {max(times) / 1e6:.3f} ms CPU "
              f"({len(times)} decisions in {decision_games} battles)")
        # which decisions are over issue #16's 0.5 ms, by request kind
        for kind, ts in sorted(kinds.items(), key=lambda k: -sum(t > SLOW for t in k[1])):
            print(f"  {kind:14s} {len(ts):5d} decisions, p50 {percentile(ts, 50) / 1e6:.3f} ms, "
                  f"max {max(ts) / 1e6:.3f} ms, {sum(t > SLOW for t in ts)} over 0.5 ms")


if __name__ == "__main__":
    main()
