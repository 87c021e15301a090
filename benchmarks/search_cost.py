"""CPU time of one searched decision of the search player (sim/search.py) at several budgets, for each game.

A game is played with the player side answering the suggested option (the policy's answer in SFB and FC), the
robot on its side; at every K-th question worth searching (more than one answer, no standing answer) the search
estimates it at each budget, timed with time.process_time (CPU of this process only, so other programs on the
machine do not count). Prints one line per game and budget: the median and range over the measured decisions,
the simulations played (a search ends early when nothing tells its answers apart) and the CPU time per simulation.

Run: PYTHONPATH=src .venv/bin/python benchmarks/search_cost.py [--games sfb,fc,armada] [--budgets 20,50,200]
     [--decisions 5] [--every 12] [--seed 3]

Two versions side by side (``--compare OLD [--new NEW]``, a commit or a tree with src/, "." the working tree, as
benchmarks/compare.py): in each round each version runs once per game, alternating, each in a fresh process, and
searches the same positions at search:50 (the early, middle and late questions worth searching of ``--at``, seed
3, the player side answered by its policy from outside); CPU time per simulation of each version, the median of
the rounds, and new/old. ``--log`` gives the real match an event log that is on (a battle in the terminal).

     .venv/bin/python benchmarks/search_cost.py --compare 1776b2f [--new .] [--rounds 3] [--log]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import paperrobot
from paperrobot.core.contract import Decision
from paperrobot.sim.search import SearchPlayer, _one_action

SETUPS = {"sfb": {"scenario": "5"}, "fc": {}, "armada": {}}


class Probe:
    """Answers with the first option; times a search of every ``every``-th searchable question."""

    def __init__(self, budgets, decisions, every):
        self.budgets, self.decisions, self.every = budgets, decisions, every
        self.times = {n: [] for n in budgets}
        self.played = {n: [] for n in budgets}  # simulations a search played (fewer when nothing told answers apart)
        self.seen = 0

    def bind(self, match, side):
        self.match, self.side = match, side
        match.checkpoints = True

    def decide(self, request):
        options = request.options
        if len(options) > 1 and len(self.times[self.budgets[0]]) < self.decisions and not _one_action(request):
            searcher = SearchPlayer(1)
            searcher.bind(self.match, self.side)
            if request.kind not in searcher._standing(self.match, self.side):
                self.seen += 1
                if self.seen % self.every == 1 or self.every == 1:
                    for n in self.budgets:
                        player = SearchPlayer(n)
                        player.bind(self.match, self.side)
                        start = time.process_time()
                        player.estimate(request)
                        self.times[n].append(time.process_time() - start)
                        self.played[n].append(player.played)
        return Decision(options[0].key)


AT = {"sfb": (1, 40, 80), "fc": (1, 120, 240), "armada": (1, 30, 60)}  # early, middle, late (searchable questions)


class Positions:
    """Flies the player side with its policy from outside; searches the ``at``-th questions worth searching."""

    def __init__(self, at, simulations):
        self.at, self.simulations, self.seen, self.policy = set(at), simulations, 0, None
        self.rows: list[dict] = []

    def bind(self, match, side):
        self.match, self.side = match, side
        match.checkpoints = True

    def decide(self, request):
        if self.policy is None:
            self.policy = self.match.engine.controller(self.side, "policy")
            unroute = getattr(self.match.engine, "unroute", None)
            if unroute is not None:
                unroute(self.side)
        if len(request.options) > 1 and not _one_action(request):
            player = SearchPlayer(self.simulations)
            player.bind(self.match, self.side)
            if request.kind not in player._standing(self.match, self.side):
                self.seen += 1
                if self.seen in self.at:
                    start = time.process_time()
                    player.estimate(request)
                    self.rows.append({"at": self.seen, "seq": request.seq, "cpu": time.process_time() - start,
                                      "played": player.played})
        return Decision(self.policy.decide(request).action)


def child(game: str, log: bool, simulations: int = 50) -> None:
    """One version, one game: the CPU time of the search at each position of AT, as JSON."""
    from paperrobot.core.events import EventLog
    info = paperrobot.game_info(game)
    side = next(s for s in info.sides if s != info.robot_side)
    probe = Positions(AT[game], simulations)
    match = paperrobot.new_game(game, seed=3, log=EventLog() if log else None, **SETUPS[game])
    steps = match.play({side: probe, info.robot_side: "robot"})
    try:
        next(steps)
    except StopIteration:
        pass
    print(json.dumps(probe.rows))


def compare(old: str, new: str, games: list[str], rounds: int, log: bool) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from compare import checkout
    trees = {"old": checkout(old), "new": checkout(new)}
    print(f"old = {old} ({trees['old']}), new = {new} ({trees['new']}); search:50, {rounds} rounds, the real log "
          f"{'on' if log else 'off'}; CPU ms per simulation, median of the rounds")
    for game in games:
        per: dict[tuple[str, int], list[float]] = {}
        played: dict[tuple[str, int], int] = {}
        for _ in range(rounds):
            for which in ("old", "new"):
                env = dict(os.environ, PYTHONPATH=str(trees[which] / "src"))
                out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", game] +
                                     (["--log"] if log else []), env=env, cwd=trees[which], check=True,
                                     capture_output=True, text=True).stdout
                for row in json.loads(out.strip().splitlines()[-1]):
                    per.setdefault((which, row["at"]), []).append(row["cpu"] / row["played"] * 1000)
                    played[(which, row["at"])] = row["played"]
        for at in AT[game]:
            if ("old", at) not in per:
                continue
            o, n = statistics.median(per[("old", at)]), statistics.median(per[("new", at)])
            ratios = [b / a for a, b in zip(per[("old", at)], per[("new", at)])]
            print(f"{game:7s} question {at:4d}: old {o:6.2f} ms, new {n:6.2f} ms per simulation, new/old "
                  f"{statistics.median(ratios):.2f} ({played[('old', at)]}/{played[('new', at)]} simulations)",
                  flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="sfb,fc,armada")
    parser.add_argument("--budgets", default="20,50,200")
    parser.add_argument("--decisions", type=int, default=5)
    parser.add_argument("--every", type=int, default=12)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--compare", metavar="OLD", help="measure OLD against --new side by side")
    parser.add_argument("--new", default=".")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--log", action="store_true", help="the real match's event log on (a terminal battle)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.log)
        return
    if args.compare:
        compare(args.compare, args.new, args.games.split(","), args.rounds, args.log)
        return
    budgets = [int(b) for b in args.budgets.split(",")]
    for game in args.games.split(","):
        info = paperrobot.game_info(game)
        side = next(s for s in info.sides if s != info.robot_side)
        probe = Probe(budgets, args.decisions, args.every)
        match = paperrobot.new_game(game, seed=args.seed, **SETUPS[game])
        steps = match.play({side: probe, info.robot_side: "robot"})
        try:
            next(steps)
        except StopIteration:
            pass
        for n in budgets:
            times = probe.times[n]
            if not times:
                print(f"{game:7s} search:{n:<4d} no decision measured")
                continue
            med, played = statistics.median(times), sum(probe.played[n])
            print(f"{game:7s} search:{n:<4d} {len(times)} decisions: median {med * 1000:7.0f} ms CPU "
                  f"(range {min(times) * 1000:.0f}-{max(times) * 1000:.0f}), {played / len(times):.0f} simulations "
                  f"played a decision, {sum(times) / max(played, 1) * 1000:5.1f} ms per simulation", flush=True)


if __name__ == "__main__":
    main()
