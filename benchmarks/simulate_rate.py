"""Battles per CPU-second as issue #24 measures them: ``paperrobot simulate GAME ... --jobs 1 --quiet`` end to end,
CPU time (user + system) of the whole process tree, start-up subtracted, for several versions side by side.

    .venv/bin/python benchmarks/simulate_rate.py NAME=DIR[:pure] ... [--games N] [--rounds R] [-- SIMULATE ARGS]

Each version is a folder holding src/paperrobot (``.`` for this tree; ``:pure`` runs it with PAPERROBOT_PURE=1, the
pure-Python fallback of a compiled tree). Every round runs each version twice in fresh processes, alternating:
``--games N`` and ``--games 1``; the rate is (N - 1) / (CPU of the long run - CPU of the short one), so start-up
(imports, data files) and the first battle's cache filling cancel out. CPU time is read from
``getrusage(RUSAGE_CHILDREN)`` around each run (the simulate process and any worker it starts). Prints each
version's median rate and its ratio to the first version, per round's pairing.

Default simulate arguments: ``sfb --scenario 5`` (robot vs policy).
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path


def cpu_of(tree: Path, pure: bool, args: list[str], games: int) -> float:
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    env.pop("PAPERROBOT_PURE", None)
    if pure:
        env["PAPERROBOT_PURE"] = "1"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    quiet = [] if args[0] == "armada" else ["--quiet"]  # armada's simulate prints its summary only: no --quiet
    subprocess.run([sys.executable, "-m", "paperrobot.cli.main", "simulate", *args, "--games", str(games),
                    "--jobs", "1", *quiet], env=env, cwd=tree, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("versions", nargs="+", help="NAME=DIR or NAME=DIR:pure")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=3)
    argv = sys.argv[1:]
    extra = ["sfb", "--scenario", "5"]
    if "--" in argv:
        at = argv.index("--")
        argv, extra = argv[:at], argv[at + 1:]
    args = parser.parse_args(argv)
    versions = []
    for spec in args.versions:
        name, _, where = spec.partition("=")
        pure = where.endswith(":pure")
        tree = Path(where.removesuffix(":pure") or ".").resolve()
        if not (tree / "src" / "paperrobot").is_dir():
            parser.error(f"{where}: no src/paperrobot there")
        versions.append((name, tree, pure))
    print(f"simulate {' '.join(extra)} --jobs 1: {args.games} battles minus 1, {args.rounds} rounds; battles per "
          f"CPU-second of the process tree, start-up subtracted", flush=True)
    rates: dict[str, list[float]] = {name: [] for name, _, _ in versions}
    for _ in range(args.rounds):
        for name, tree, pure in versions:
            long = cpu_of(tree, pure, extra, args.games)
            short = cpu_of(tree, pure, extra, 1)
            rates[name].append((args.games - 1) / (long - short))
    first = versions[0][0]
    for name, _, _ in versions:
        ratios = [new / old for new, old in zip(rates[name], rates[first])]
        print(f"{name:24s} {statistics.median(rates[name]):8.1f} battles/CPU-s  (rounds: "
              f"{', '.join(f'{r:.1f}' for r in rates[name])})  ratio to {first}: {statistics.median(ratios):.2f}",
              flush=True)


if __name__ == "__main__":
    main()
