"""How much stronger the search player is than the heuristic policy, against the robot, on the same seeds.

For each seed of the run, two games: the player side flown by search:N, and by the policy; the robot flies its
side in both (SFB #5: the Cadet robot; FC: the D7 against the Federation CA; Armada: the standard fleets, the
Imperial AI against the Rebels). Prints each player's wins/draws/losses with the win rate's 95% Wilson interval,
the seed-paired difference in score (win 1, draw 1/2) with its 95% interval, how many seeds each did better on,
and the CPU time per game and per searched decision (time.process_time in the worker, so other programs on the
machine do not count). Games run in worker processes (--jobs); game i of every player gets the seed
derive_seed(--seed, i), so the figures are the same for any --jobs.

Run: PYTHONPATH=src .venv/bin/python benchmarks/search_strength.py --game sfb --simulations 20 --seeds 60 --jobs 2
     [--out result.json]
"""
from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import time
from dataclasses import dataclass

import paperrobot
from paperrobot.core import players
from paperrobot.core.contract import drive_all
from paperrobot.core.dice import derive_seed
from paperrobot.core.outcome import Outcome
from paperrobot.sim.runner import Runner
from paperrobot.sim.stats import wilson_interval

SETUPS = {"sfb": {"scenario": "5"}, "fc": {}, "armada": {}}


@dataclass(frozen=True)
class Timed:
    """One game with ``player`` on the side facing the robot; the CPU time and searched decisions in the metrics."""

    game: str
    player: str

    def __call__(self, seed: int) -> Outcome:
        info = paperrobot.game_info(self.game)
        side = next(s for s in info.sides if s != info.robot_side)
        start = time.process_time()
        match = paperrobot.new_game(self.game, seed=seed, **SETUPS[self.game])
        who = players.resolve({side: self.player, info.robot_side: "robot"}, match)
        outcome = drive_all(match, who)
        searched = getattr(who[side], "searched", 0)
        metrics = {"cpu": time.process_time() - start, "searched": searched,
                   "score": 1.0 if outcome.winner == side else 0.5 if outcome.winner is None else 0.0}
        return Outcome(outcome.winner, outcome.result, outcome.turns, {**outcome.metrics, **metrics})


def kept(progress: str | None, player: str) -> dict[int, Outcome]:
    """The games of ``player`` already in the progress file, by seed (a run cut short resumes from them)."""
    out: dict[int, Outcome] = {}
    if progress and os.path.exists(progress):
        with open(progress) as handle:
            for line in handle:
                row = json.loads(line)
                if row["player"] == player:
                    out[row["seed"]] = Outcome(row["winner"], row["result"], 0, {
                        "score": row["score"], "cpu": row["cpu"], "searched": row["searched"]})
    return out


def missing(indices: list[int]) -> list[tuple[int, int]]:
    """[start, stop) ranges covering ``indices`` (sorted)."""
    ranges: list[tuple[int, int]] = []
    for i in indices:
        if ranges and ranges[-1][1] == i:
            ranges[-1] = (ranges[-1][0], i + 1)
        else:
            ranges.append((i, i + 1))
    return ranges


def run(game: str, player: str, seeds: int, base: int, jobs: int, progress: str | None = None) -> dict[int, Outcome]:
    """Every seed's game; each finished game also appended to ``progress`` (JSON lines), so a run cut short
    still tells what it played, and the same command again plays only the games the file does not hold."""
    done = kept(progress, player)
    out = {i: done[derive_seed(base, i)] for i in range(seeds) if derive_seed(base, i) in done}
    with Runner(Timed(game, player), base, jobs, budget=1.0) as runner:
        for index, seed, outcome in runner.games(missing([i for i in range(seeds) if i not in out])):
            out[index] = outcome
            if progress:
                with open(progress, "a") as handle:
                    handle.write(json.dumps({"player": player, "index": index, "seed": seed,
                                             "winner": outcome.winner, "result": outcome.result,
                                             "score": outcome.metrics["score"], "cpu": outcome.metrics["cpu"],
                                             "searched": outcome.metrics["searched"]}) + "\n")
    return out


def summary(name: str, results: dict[int, Outcome]) -> dict:
    scores = [o.metrics["score"] for o in results.values()]
    wins, draws = scores.count(1.0), scores.count(0.5)
    n = len(scores)
    low, high = wilson_interval(wins, n)
    cpu = [o.metrics["cpu"] for o in results.values()]
    searched = sum(o.metrics["searched"] for o in results.values())
    return {"player": name, "games": n, "wins": wins, "draws": draws, "losses": n - wins - draws,
            "win_rate": wins / n, "wilson95": [low, high], "score": sum(scores) / n,
            "cpu_per_game": statistics.mean(cpu), "searched_per_game": searched / n,
            "cpu_per_searched": sum(cpu) / searched if searched else None}


def paired(a: dict[int, Outcome], b: dict[int, Outcome]) -> dict:
    diffs = [a[i].metrics["score"] - b[i].metrics["score"] for i in sorted(a)]
    n = len(diffs)
    mean = sum(diffs) / n
    sd = statistics.stdev(diffs) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n) if n else 0.0
    return {"mean": mean, "ci95": [mean - half, mean + half], "better": sum(d > 0 for d in diffs),
            "worse": sum(d < 0 for d in diffs), "same": sum(d == 0 for d in diffs)}


def report_progress(paths: list[str], name: str) -> None:
    """The figures of the seeds both players finished in the --progress files ``paths`` (runs of other base seeds
    join: games are paired by their seed)."""
    games: dict[str, dict[int, Outcome]] = {}
    path = ", ".join(paths)
    for one in paths:
        with open(one) as handle:
            for line in handle:
                row = json.loads(line)
                games.setdefault(row["player"], {})[row["seed"]] = Outcome(
                    row["winner"], row["result"], 0,
                    {"score": row["score"], "cpu": row["cpu"], "searched": row["searched"]})
    both = sorted(set(games.get(name, {})) & set(games.get("policy", {})))
    search = {i: games[name][i] for i in both}
    policy = {i: games["policy"][i] for i in both}
    print(f"{len(both)} seeds finished by both players ({path})")
    if not both:
        return
    for r in (summary(name, search), summary("policy", policy)):
        print(f"  {r['player']:>10}: {r['wins']}/{r['draws']}/{r['losses']} (W/D/L), wins {r['win_rate']:.1%} "
              f"[{r['wilson95'][0]:.1%}, {r['wilson95'][1]:.1%}], score {r['score']:.3f}; CPU {r['cpu_per_game']:.2f} "
              f"s a game" + (f", {r['cpu_per_searched'] * 1000:.0f} ms per searched decision "
                             f"({r['searched_per_game']:.0f} a game)" if r["cpu_per_searched"] else ""))
    d = paired(search, policy)
    print(f"  paired score difference {d['mean']:+.3f} [{d['ci95'][0]:+.3f}, {d['ci95'][1]:+.3f}]; search better on "
          f"{d['better']} seeds, worse on {d['worse']}, the same on {d['same']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(SETUPS), default="sfb")
    parser.add_argument("--simulations", type=int, default=50)
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1, help="base seed: game i gets derive_seed(seed, i)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", default=None, help="write the figures as JSON here")
    parser.add_argument("--progress", default=None, help="append every finished game here (JSON lines); the same "
                        "command again resumes: only the games the file does not hold are played")
    parser.add_argument("--from-progress", default=None, nargs="+",
                        help="no games: the figures of the seeds both players finished in these --progress files")
    args = parser.parse_args()
    name = f"search:{args.simulations}"
    if args.from_progress:
        report_progress(args.from_progress, name)
        return
    players.check(name)
    began = time.perf_counter()
    policy = run(args.game, "policy", args.seeds, args.seed, args.jobs, args.progress)
    search = run(args.game, name, args.seeds, args.seed, args.jobs, args.progress)
    rows = [summary(name, search), summary("policy", policy)]
    diff = paired(search, policy)
    print(f"{args.game} {SETUPS[args.game] or 'default set-up'}, against the robot, seeds derive_seed({args.seed}, "
          f"0..{args.seeds - 1}), jobs {args.jobs}, {time.perf_counter() - began:.0f} s wall")
    for r in rows:
        per = f", {r['cpu_per_searched'] * 1000:.0f} ms per searched decision ({r['searched_per_game']:.0f} a game)" \
            if r["cpu_per_searched"] else ""
        print(f"  {r['player']:>10}: {r['wins']}/{r['draws']}/{r['losses']} (W/D/L), wins {r['win_rate']:.1%} "
              f"[{r['wilson95'][0]:.1%}, {r['wilson95'][1]:.1%}], score {r['score']:.3f}; "
              f"CPU {r['cpu_per_game']:.2f} s a game{per}")
    print(f"  paired score difference {diff['mean']:+.3f} [{diff['ci95'][0]:+.3f}, {diff['ci95'][1]:+.3f}]; "
          f"search better on {diff['better']} seeds, worse on {diff['worse']}, the same on {diff['same']}")
    if args.out:
        with open(args.out, "w") as handle:
            json.dump({"game": args.game, "setup": SETUPS[args.game], "simulations": args.simulations,
                       "seeds": args.seeds, "base_seed": args.seed, "jobs": args.jobs, "rows": rows, "paired": diff},
                      handle, indent=1)


if __name__ == "__main__":
    main()
