"""CPU time and memory of a whole `paperrobot simulate` run: the process tree, workers included.

    .venv/bin/python benchmarks/sweep_memory.py [--game sfb] [--games 20000] [--jobs 2] [--every 0.5] [-- EXTRA...]

Issue #16 asks that a 100,000-game SFB sweep take under 2 CPU-minutes with the memory of the whole process
tree flat and under 100 MB, counting shared pages once. So this starts `paperrobot simulate GAME --quiet`,
and every ``--every`` seconds adds up the proportional set size (Pss: each shared page divided among the
processes that map it, so forked workers' shared pages count once) of the simulate process and all its
descendants, read from /proc/PID/smaps_rollup (Linux; psutil reads the same file and is not needed for it).
At the end it prints the CPU time of the tree (user + system of the process and every worker it waited for),
games per CPU-second, and the memory at each quarter of the run: flat means the last quarter is not higher
than the first.
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def tree(pid: int) -> list[int]:
    """``pid`` and its descendants now (from /proc/PID/task/TID/children)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo += [int(c) for c in f.read().split()]
        except OSError:
            continue  # ended between the listing and the read
    return out


def pss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="sfb", choices=("sfb", "fc", "armada"))
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--every", type=float, default=0.5, help="seconds between memory samples")
    parser.add_argument("extra", nargs="*", help="more simulate options, after --")
    args = parser.parse_args()
    if not Path("/proc/self/smaps_rollup").exists():
        sys.exit("sweep_memory.py reads /proc/PID/smaps_rollup: it runs on Linux only")
    command = [sys.executable, "-c", "from paperrobot.cli.main import run; run()", "simulate", args.game,
               "--games", str(args.games), "--jobs", str(args.jobs), "--quiet", *args.extra]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    samples: list[tuple[float, int, int]] = []  # (seconds, Pss kB of the tree, processes)
    while proc.poll() is None:
        pids = tree(proc.pid)
        samples.append((time.monotonic() - started, sum(pss_kb(p) for p in pids), len(pids)))
        time.sleep(args.every)
    output = proc.stdout.read() if proc.stdout else ""
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode:
        sys.exit(f"simulate failed (exit {proc.returncode}):\n{output}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    wall = time.monotonic() - started
    print(" ".join(command[3:]))
    print(f"games {args.games}, jobs {args.jobs}: CPU {cpu:.1f} s (user + system of the tree), wall {wall:.1f} s, "
          f"{args.games / cpu:.1f} games per CPU-second; {100000 / (args.games / cpu) / 60:.1f} CPU-minutes per "
          f"100,000 games")
    if samples:
        peak = max(s[1] for s in samples)
        print(f"memory of the tree (Pss, shared pages counted once): peak {peak / 1024:.1f} MB, "
              f"{len(samples)} samples, up to {max(s[2] for s in samples)} processes")
        busy = [s for s in samples if s[2] > 1] or samples  # workers running
        quarters = [busy[min(len(busy) - 1, int(len(busy) * q))] for q in (0.0, 0.25, 0.5, 0.75, 1.0)]
        print("  at 0 / 25 / 50 / 75 / 100 % of the run: "
              + " / ".join(f"{s[1] / 1024:.1f}" for s in quarters) + " MB")
    print(output.strip()[-2000:])


if __name__ == "__main__":
    main()
