"""A balance sweep end to end (bracket, 7 levels, fit), one process, the local process pool and Ray, side by
side: games per CPU-second and per wall-second. The game is the synthetic logistic one with a busy loop that
costs about as much CPU as a real battle (``--work``); each engine plays the same sweep into a fresh
in-memory store, so every engine plays every game.

CPU time is that of this process and every process under it (pool workers; Ray's raylet, GCS and workers),
read from /proc before the engine is closed, so Ray's own overhead counts. Start-up (pool spawn, ray.init)
is reported apart.

    .venv/bin/python benchmarks/balance_sweep.py [--games-per-level 400] [--work 60000] [--jobs 2] [--no-ray]
    .venv/bin/python benchmarks/balance_sweep.py --game sfb --scenario 5 --games-per-level 100   # a real game

``--game`` sweeps a real game of the registry over its ``handicap`` option against the policy instead; its set-up is
given with the same flags as under every verb (``--scenario 5``; ``paperrobot balance GAME --help`` lists them),
parsed and checked by cli/setup_flags.py.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from functools import partial

from paperrobot.cli.setup_flags import setup_from_args
from paperrobot.core.errors import PaperRobotError
from paperrobot.sim import synthetic
from paperrobot.sim.balance import BalanceStore, Matchup, Plan, run_sweep
from paperrobot.sim.chunks import Chunk, LocalEngine

TICKS = os.sysconf("SC_CLK_TCK")


def tree_cpu(root: int | None = None) -> float:
    """CPU seconds (user + system) of ``root`` and all its live descendants, plus the reaped children it has
    waited for (Linux /proc)."""
    root = root or os.getpid()
    parent, cpu = {}, {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(name)
        parent[pid] = int(fields[1])
        utime, stime, cutime, cstime = (int(x) for x in fields[11:15])
        cpu[pid] = (utime + stime + (cutime + cstime if pid == root else 0)) / TICKS
    total, stack = 0.0, [root]
    children: dict[int, list[int]] = {}
    for pid, ppid in parent.items():
        children.setdefault(ppid, []).append(pid)
    while stack:
        pid = stack.pop()
        total += cpu.get(pid, 0.0)
        stack.extend(children.get(pid, ()))
    return total


def measure(name: str, make_engine, matchup: Matchup, plan: Plan) -> dict:
    cpu0, wall0 = tree_cpu(), time.perf_counter()
    engine = make_engine()
    if name != "serial":  # start the workers before the clock: warm-up chunk
        list(engine.map([Chunk(matchup.play, matchup.robot_side, 999, 0, (0,))] * engine.jobs))
    cpu1, wall1 = tree_cpu(), time.perf_counter()
    sweep = run_sweep(matchup, plan, BalanceStore(None), engine)
    cpu2, wall2 = tree_cpu(), time.perf_counter()
    engine.close()
    games = sweep.played
    return {"engine": name, "games": games, "wall": wall2 - wall1, "cpu": cpu2 - cpu1,
            "startup_wall": wall1 - wall0, "startup_cpu": cpu1 - cpu0, "h50": sweep.fit.h50,
            "interval": (sweep.fit.interval.low, sweep.fit.interval.high)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, epilog="With --game, that game's set-up flags as under every "
                                     "verb (--scenario 5; paperrobot balance GAME --help lists them).")
    parser.add_argument("--games-per-level", type=int, default=400)
    parser.add_argument("--work", type=int, default=60000, help="busy-loop steps per game (about 1 ms per 20,000 here)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--chunk", type=int, default=50)
    parser.add_argument("--no-ray", action="store_true")
    parser.add_argument("--game", help="a real game of the registry (fc, sfb, armada) instead of the synthetic one")
    args, rest = parser.parse_known_args(argv)
    try:
        if args.game:
            from paperrobot.sim.balance import registry_matchup
            matchup = registry_matchup(args.game, setup_from_args(args.game, rest), "policy")
        elif rest:
            raise PaperRobotError(f"{rest[0]}: set-up flags need --game GAME (the synthetic game has none)")
    except PaperRobotError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    synthetic.fixed_sweep(1, 20, work=0)  # import statsmodels and fit once, outside the measurements
    if not args.game:
        matchup = Matchup("synthetic/bench", "synthetic", partial(synthetic.play, work=args.work, shared=0.8,
                                                                  draw=0.05))
    plan = Plan(games_per_level=args.games_per_level, probe_games=args.games_per_level, chunk=args.chunk)
    engines = [("serial", lambda: LocalEngine(1)), (f"local x{args.jobs}", lambda: LocalEngine(args.jobs))]
    if not args.no_ray:
        def ray_engine():
            from paperrobot.sim.ray_engine import RayEngine
            return RayEngine(args.jobs)
        engines.append((f"ray x{args.jobs}", ray_engine))
    what = f"{matchup.label}" if args.game else f"synthetic game, work {args.work}"
    print(f"sweep: {what}, {args.games_per_level} games per level and probe, chunks of "
          f"{args.chunk}, {os.cpu_count()} cores")
    print(f"{'engine':<10} {'games':>6} {'wall s':>7} {'CPU s':>7} {'games/CPU-s':>11} {'games/wall-s':>12} "
          f"{'start-up wall/CPU s':>19}  h50 [95%]")
    results = []
    for name, make in engines:
        r = measure(name, make, matchup, plan)
        results.append(r)
        print(f"{r['engine']:<10} {r['games']:>6} {r['wall']:>7.2f} {r['cpu']:>7.2f} {r['games'] / r['cpu']:>11.0f} "
              f"{r['games'] / r['wall']:>12.0f} {r['startup_wall']:>9.2f}/{r['startup_cpu']:<9.2f}"
              f"  {r['h50']:.2f} [{r['interval'][0]:.2f}, {r['interval'][1]:.2f}]", flush=True)
    same = len({(r["h50"], r["interval"]) for r in results}) == 1
    print(f"same fit from every engine: {'yes' if same else 'NO'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
