"""Battles per CPU-second of two versions of PaperRobot, side by side in one run.

    .venv/bin/python benchmarks/compare.py OLD_REV [NEW_REV|.|DIR] [--games N] [--rounds R] [--only sfb-policy,...]

Each version's src/ is exported once under /tmp (git archive; "." is the working tree as it is). Every
round runs each matchup once per version, alternating, each in a fresh process, and counts CPU time
(user + system of that process, ``time.process_time``), which a busy machine distorts far less than
wall time. The ratio new/old per round is what to read; the table gives the median of the rounds.
A version may also be a folder holding a src/paperrobot tree (a build with compiled modules, say).
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

ROOT = Path(__file__).resolve().parents[1]
MATCHUPS = {
    # name: (game, set-up, the other side's controller)
    "sfb-policy": ("sfb", {"scenario": "5"}, "policy"),
    "sfb-robot": ("sfb", {"scenario": "5"}, "robot"),
    "fc-policy": ("fc", {"robot_ship": "d7", "player_ship": "federation-ca"}, "policy"),
    "fc-robot": ("fc", {"robot_ship": "d7", "player_ship": "kzinti-bc"}, "robot"),
    "armada-policy": ("armada", {}, "policy"),
}


def child(name: str, games: int) -> None:
    """Runs in the version's own interpreter path: plays ``games`` battles, prints CPU seconds and turns."""
    game, setup, other = MATCHUPS[name]
    from paperrobot.core.dice import derive_seed
    play = _player(game, setup, other)
    play(derive_seed(0, 0))  # warm the data caches
    started = time.process_time()
    turns = sum(play(derive_seed(1, i)).turns for i in range(games))
    print(json.dumps({"cpu": time.process_time() - started, "games": games, "turns": turns}))


def _player(game: str, setup: dict, other: str):
    import paperrobot
    if hasattr(paperrobot, "games") and game in paperrobot.games():  # the game contract
        from paperrobot.core.contract import drive_all

        def play(seed):
            match = paperrobot.new_game(game, seed=seed, **setup)
            robot = match.engine.robot_side
            return drive_all(match, {side: ("robot" if side == robot else other) for side in match.sides})
        return play
    if game == "sfb":  # the engines before the contract
        from paperrobot.sfb import play_battle
        return lambda seed: play_battle(seed, scenario=setup["scenario"], opponent=other)
    if game == "fc":
        from paperrobot.fc import play
        return lambda seed: play(seed, setup["robot_ship"], setup["player_ship"], other)
    from paperrobot.armada import play_battle
    return lambda seed: play_battle(seed)


def checkout(rev: str) -> Path:
    if rev == ".":
        return ROOT
    if (Path(rev) / "src" / "paperrobot").is_dir():  # a tree of its own, e.g. a build with compiled modules
        return Path(rev).resolve()
    sha = subprocess.run(["git", "rev-parse", "--short", rev], cwd=ROOT, check=True, capture_output=True,
                         text=True).stdout.strip()
    where = Path("/tmp") / f"paperrobot-bench-{sha}"
    if not (where / "src").exists():  # an exported copy of src/ (no worktree registered in the repository)
        where.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "archive", sha, "src"], cwd=ROOT, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(where)], input=archive, check=True, capture_output=True)
    return where


def measure(tree: Path, name: str, games: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", name, str(games)],
                         env=env, cwd=tree, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", nargs="?")
    parser.add_argument("new", nargs="?", default=".")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", default=",".join(MATCHUPS))
    parser.add_argument("--child", nargs=2, metavar=("MATCHUP", "GAMES"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]))
        return
    if not args.old:
        parser.error("name the old version (a commit, branch or tag)")
    names = [n for n in args.only.split(",") if n]
    for name in names:
        if name not in MATCHUPS:
            parser.error(f"unknown matchup {name}; choose from {', '.join(MATCHUPS)}")
    trees = {"old": checkout(args.old), "new": checkout(args.new)}
    print(f"old = {args.old} ({trees['old']}), new = {args.new} ({trees['new']}); {args.games} battles per run, "
          f"{args.rounds} rounds, CPU time of each run's process")
    print(f"{'matchup':14s} {'old battles/CPU-s':>18s} {'new battles/CPU-s':>18s} {'ratio (median)':>15s}  turns old/new")
    for name in names:
        rates = {"old": [], "new": []}
        ratios, turns = [], {}
        for _ in range(args.rounds):
            for which in ("old", "new"):
                result = measure(trees[which], name, args.games)
                rates[which].append(result["games"] / result["cpu"])
                turns[which] = result["turns"] / result["games"]
            ratios.append(rates["new"][-1] / rates["old"][-1])
        print(f"{name:14s} {statistics.median(rates['old']):18.1f} {statistics.median(rates['new']):18.1f} "
              f"{statistics.median(ratios):15.2f}  {turns['old']:.2f}/{turns['new']:.2f}", flush=True)


if __name__ == "__main__":
    main()
