"""What a copy of a match costs: CPU time of Match.clone() and Match.fork() early, mid and late in a game, as a
share of the CPU time of one whole battle of that game (issue 22's goal: at most 5 %).

Each game is played policy against robot with the player side answered from outside (so the match can be
copied at any of its requests) and snapshots on (``checkpoints``). A copy is timed at the requests 10 %, 50 %
and 90 % of the way through, repeated; the whole battle is timed with ``drive_all`` on the same seeds.
CPU time is process time (user + system) of this process, which runs nothing else.

Run: .venv/bin/python benchmarks/clone_cost.py [SEEDS] [REPEATS]
"""
from __future__ import annotations

import sys
import time

import paperrobot
from paperrobot.core.contract import Decision, drive_all

SETUPS = [("sfb", {"scenario": "5"}), ("fc", {"robot_ship": "d7", "player_ship": "federation-ca"}),
          ("armada", {})]
if len(sys.argv) > 3:
    SETUPS = [s for s in SETUPS if s[0] in sys.argv[3].split(",")]
POINTS = (0.1, 0.5, 0.9)


class Policy:
    """The game's own policy answering from outside the engine (its answers are recorded, so copies replay them);
    at the first of its requests past each of ``points`` (request numbers) it times copies of the match."""

    def __init__(self, match, side, points=(), repeats=1):
        self.inner = match.engine.controller(side, "policy")
        unroute = getattr(match.engine, "unroute", None)
        if unroute is not None:  # answered from outside: every question is asked, as the copies will ask it
            unroute(side)
        self.match, self.points, self.repeats = match, sorted(points), repeats
        self.copies: dict[str, list[tuple[int, float]]] = {"clone": [], "fork": []}

    def decide(self, request):
        if self.points and request.seq >= self.points[0]:
            while self.points and request.seq >= self.points[0]:
                self.points.pop(0)
            for _ in range(self.repeats):
                start = time.process_time()
                self.match.clone()
                self.copies["clone"].append((request.seq, time.process_time() - start))
                start = time.process_time()
                self.match.fork(request.seq, request.side)
                self.copies["fork"].append((request.seq, time.process_time() - start))
        decision = self.inner.decide(request)
        return Decision(decision.action, (), decision.memory)


def robot_side(game: str) -> tuple[str, str]:
    info = paperrobot.game_info(game)
    robot = info.robot_side
    return robot, next(side for side in info.sides if side != robot)


def battle_cpu(game: str, setup: dict, seeds: range) -> tuple[float, dict[int, int]]:
    """Mean CPU seconds of a whole battle, and each seed's number of requests."""
    robot, player = robot_side(game)
    total, lengths = 0.0, {}
    drive_all(paperrobot.new_game(game, seed=0, **setup), {player: "policy", robot: "robot"})  # loads the data
    for seed in seeds:
        match = paperrobot.new_game(game, seed=seed, **setup)
        start = time.process_time()
        drive_all(match, {player: "policy", robot: "robot"})
        total += time.process_time() - start
        counted = paperrobot.new_game(game, seed=seed, **setup)
        counted.checkpoints = True
        drive_all(counted, {player: Policy(counted, player), robot: "robot"})
        lengths[seed] = counted.seq
    return total / len(seeds), lengths


def copy_cpu(game: str, setup: dict, seed: int, length: int, repeats: int) -> dict[str, list[tuple[float, float]]]:
    robot, player = robot_side(game)
    match = paperrobot.new_game(game, seed=seed, **setup)
    match.checkpoints = True
    policy = Policy(match, player, [max(1, int(length * p)) for p in POINTS], repeats)
    drive_all(match, {player: policy, robot: "robot"})
    return {kind: [(seq / length, cpu) for seq, cpu in rows] for kind, rows in policy.copies.items()}


def main() -> None:
    seeds = range(1, 1 + (int(sys.argv[1]) if len(sys.argv) > 1 else 10))
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    print("| game | whole battle (ms CPU) | copy | early | mid | late |")
    print("|---|---:|---|---:|---:|---:|")
    for game, setup in SETUPS:
        battle, lengths = battle_cpu(game, setup, seeds)
        by_kind: dict[str, dict[str, list[float]]] = {"clone": {}, "fork": {}}
        for seed in seeds:
            for kind, rows in copy_cpu(game, setup, seed, lengths[seed], repeats).items():
                for share, cpu in rows:
                    phase = "early" if share < 0.3 else "mid" if share < 0.7 else "late"
                    by_kind[kind].setdefault(phase, []).append(cpu)
        for kind, phases in by_kind.items():
            cells = []
            for phase in ("early", "mid", "late"):
                values = phases.get(phase, [])
                mean = sum(values) / len(values) if values else float("nan")
                cells.append(f"{mean * 1e3:.3f} ms = {100 * mean / battle:.1f} %")
            print(f"| {game} | {battle * 1e3:.2f} | {kind} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
