"""Decision time of every robot: p50 / p99 / max CPU time of each ``decide`` of the robot's controller (the SFB
Cadet robot, the FC Robot Rules, the Armada Imperial AI), timed with time.process_time_ns around each call while
whole battles are played on the game contract against the heuristic policy (issue #16's goal: p99 < 0.5 ms).

Run: .venv/bin/python benchmarks/decision_times.py [GAMES]   (GAMES battles per game; Armada plays GAMES // 5)
"""
from __future__ import annotations

import sys
import time

import paperrobot
from paperrobot.core.contract import drive_all
from paperrobot.core.dice import derive_seed

GAMES = {  # name: (game, set-up, the other side's controller, share of GAMES)
    "sfb #5 Cadet robot": ("sfb", {"scenario": "5"}, "policy", 1.0),
    "fc D7 Robot Rules": ("fc", {"robot_ship": "d7", "player_ship": "federation-ca"}, "policy", 1.0),
    "armada Imperial AI": ("armada", {}, "policy", 0.2),
}


class Timed:
    """The robot's controller, each decide() timed (CPU time of this process)."""

    def __init__(self, inner, times: list[int]):
        self.inner, self.times = inner, times

    def decide(self, request):
        started = time.process_time_ns()
        try:
            return self.inner.decide(request)
        finally:
            self.times.append(time.process_time_ns() - started)


def times_of(game: str, setup: dict, other: str, games: int) -> list[int]:
    times: list[int] = []
    for index in range(games):
        match = paperrobot.new_game(game, seed=derive_seed(1, index), **setup)
        robot = match.engine.robot_side
        controllers = {side: other for side in match.sides}
        controllers[robot] = Timed(match.engine.controller(robot, "robot"), times)
        drive_all(match, controllers)
    return times


def percentile(values: list[int], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    for name, (game, setup, other, share) in GAMES.items():
        times_of(game, setup, other, 1)  # warm the data caches
        times = times_of(game, setup, other, max(1, round(games * share)))
        print(f"{name:20s} decide(): p50 {percentile(times, 50) / 1e3:7.1f} us, p99 {percentile(times, 99) / 1e3:7.1f} us, "
              f"max {max(times) / 1e3:8.1f} us CPU ({len(times)} decisions)", flush=True)


if __name__ == "__main__":
    main()
