"""A ladder's report from its stored games, with balance sweeps for a chosen few rungs (docs/ladder.md "Measured").

    .venv/bin/python benchmarks/ladder_answers.py fc --robot-ship d7 --player-ship federation-ca \
        --db reports/ladder-fc.sqlite --rungs random,policy,robot,search:5,search:10,search:20,search:50 \
        --sweep policy --sweep random --balance-games 100 --out docs/ladder-results/fc --jobs 2

Why not ``paperrobot ladder ... --balance``: that sweeps every rung, and a sweep of a searching rung costs hundreds
of its games (tens of CPU-seconds each in FC); here the cheap rungs are swept, their games give the joint fit its
handicap term, and every rated rung's even handicap comes from that fit (``LadderFit.even``), which the sweeps'
own slopes check. No ladder game is played: the report is of the games stored by ``paperrobot ladder ... --db``
(run that first, as often as the CPU allows). The sweeps are stored next to the database (``<db>-balance.sqlite``),
as ``ladder --balance`` stores them, so the two share their games. The set-up is given with the flags of every verb
(``--robot-ship d7``; ``paperrobot ladder GAME --help`` lists them), parsed and checked by cli/setup_flags.py.
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

from paperrobot.cli.setup_flags import setup_from_args
from paperrobot.core.errors import PaperRobotError
from paperrobot.core.files import write_bytes_atomic, write_text_atomic
from paperrobot.sim.even_points import LADDER_FILE
from paperrobot.sim.person import PUBLISHED  # noqa: F401 (a test replaces it)
from paperrobot.sim import ladder_report as report
from paperrobot.sim.rungs import split_rungs
from paperrobot.sim.balance import BalanceStore, Plan as SweepPlan, SweepError, registry_matchup, run_sweep
from paperrobot.sim.chunks import LocalEngine
from paperrobot.sim.fit import Z95
from paperrobot.sim.ladder import Ladder, LadderStore, Plan, refit_with_sweeps, registry_spec
from paperrobot.sim.ratings import adjacent, fit_ladder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False,
                                     epilog="The game's set-up flags as under every verb (--robot-ship d7; "
                                            "paperrobot ladder GAME --help lists them).")
    parser.add_argument("game")
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--rungs", required=True)
    parser.add_argument("--sweep", action="append", default=[], help="a rung to sweep (repeat); RUNG=N gives that "
                        "rung's sweep N games per level instead of --games-per-level (a sweep extended by hand)")
    parser.add_argument("--balance-games", type=int, default=100, help="a sweep's games per probe and per level, "
                        "unless --probe-games / --games-per-level say otherwise")
    parser.add_argument("--probe-games", type=int, help="a sweep's games per bracketing probe")
    parser.add_argument("--games-per-level", type=int, help="a sweep's games per level of its fit")
    parser.add_argument("--levels", type=int, default=7)
    parser.add_argument("--start", type=float, default=0.0, help="a sweep's first probe (the game's points)")
    parser.add_argument("--step", type=float, default=10.0, help="a sweep's first bracketing step")
    parser.add_argument("--balance-db", type=Path, help="the sweeps' database (default: <db>-balance.sqlite beside "
                        "--db); a 'paperrobot balance ... --out DIR' sweep's games are reused when the plan is its own")
    parser.add_argument("--precision", type=float, default=50.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--write-points", action="store_true", help="put this set-up's rungs (rating, even "
                        "handicap) into src/paperrobot/sim/ladder_points.toml, the suggested difficulty's data, "
                        "and its fit.json into src/paperrobot/sim/ladder_fits/GAME.json, the game's published "
                        "ladder a person is rated on")
    parser.add_argument("--command", default="", help="the command to name in ladder_points.toml")
    args, rest = parser.parse_known_args(argv)
    try:
        setup = setup_from_args(args.game, rest)
        spec = registry_spec(args.game, setup, args.seed)
        rungs = tuple(split_rungs(args.rungs))
        if not args.db.exists():
            raise PaperRobotError(f"--db {args.db} does not exist: run 'paperrobot ladder ... --db' first")
        store = LadderStore(args.db)
        results = [r for r in store.results(spec.key) if r.robot_rung in rungs and r.player_rung in rungs
                   and r.handicap == spec.handicap]
        store.close()
        fit = fit_ladder(results, rungs)
        met = all(Z95 * fit.difference(a, b)[1] <= args.precision for a, b in adjacent(fit))
        ladder = Ladder(spec, Plan(rungs, precision=args.precision), fit, results, 0, met, 0.0, list(fit.notes))
        if args.sweep:
            sweeps = BalanceStore(args.balance_db or args.db.with_name(args.db.stem + "-balance.sqlite"))
            plan = SweepPlan(base_seed=args.seed, probe_games=args.probe_games or args.balance_games,
                             games_per_level=args.games_per_level or args.balance_games, levels=args.levels,
                             start=args.start, step=args.step)
            played = {}
            with LocalEngine(args.jobs) as engine:
                for given in args.sweep:
                    name, _, per_level = given.partition("=")
                    matchup = registry_matchup(args.game, setup, name)
                    if per_level and not per_level.isdigit():
                        raise PaperRobotError(f"--sweep {given}: after '=' give the games per level, e.g. {name}=80")
                    mine = replace(plan, games_per_level=int(per_level)) if per_level else plan
                    try:
                        ladder.balance[name] = run_sweep(matchup, mine, sweeps, engine)
                    except SweepError as exc:
                        ladder.balance[name] = str(exc)
                    played[name] = sweeps.games(plan.store_key(matchup))
            sweeps.close()
            refit_with_sweeps(ladder, played)
    except PaperRobotError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    lines = report.table_lines(ladder)
    files = {"ladder.txt": ("\n".join(lines) + "\n").encode(),
             "ladder.json": (json.dumps(report.rungs_json(ladder), indent=2) + "\n").encode(),
             "fit.json": (json.dumps(report.fit_json(ladder), indent=2, default=float) + "\n").encode(),
             **{"ladder" + suffix: data for suffix, data in report.plot_ladder(ladder).items()}}
    if ladder.balance:
        files.update({"handicap" + suffix: data for suffix, data in report.plot_handicap(ladder).items()})
    for name, data in files.items():
        write_bytes_atomic(args.out / name, data)
    if args.write_points:
        write_text_atomic(LADDER_FILE, points_toml(ladder, args.command))
        published = PUBLISHED / f"{args.game}.json"  # the game's published ladder: a person is rated on it
        published.parent.mkdir(parents=True, exist_ok=True)
        write_bytes_atomic(published, files["fit.json"])
        print(f"Written {LADDER_FILE} and {published}")
    print("\n".join(lines))
    return 0


def points_toml(ladder: Ladder, command: str) -> str:
    """ladder_points.toml with this set-up's rungs replacing its old ones (other set-ups kept)."""
    import tomllib

    import paperrobot

    spec = ladder.spec
    defaults = {o.name: o.default for o in paperrobot.game_info(spec.game).options}
    setup = {k: v for k, v in spec.setup.items() if k != "handicap" and v not in ("", None) and (
        v != defaults.get(k) or k in ("robot_ship", "player_ship", "scenario"))}
    old = tomllib.loads(LADDER_FILE.read_text()).get("rung", []) if LADDER_FILE.exists() else []
    keep = [r for r in old if not (r["game"] == spec.game and dict(r.get("setup", {})) == setup)]
    # A rung's even handicap from its own sweep where it was swept: a handicap point is not worth the same at every
    # strength (docs/ladder.md), so the joint fit's figure is the fallback, and says so ("how").
    even = {name: (h, i, "ladder fit") for name, h, i in report.even_curve(ladder)}
    for name, sweep in ladder.balance.items():
        if not isinstance(sweep, str) and sweep.fit.slope_positive and sweep.fit.interval.low is not None:
            even[name] = (sweep.fit.h50, sweep.fit.interval, "sweep")
    new = []
    for r in report.ordered(ladder):
        if r.rating is None or r.name == "robot":
            continue
        row = {"game": spec.game, "rung": r.name, "rating": round(r.rating, 1), "rating_low": round(r.low, 1),
               "rating_high": round(r.high, 1), "games": r.games, "unit": spec.unit, "command": command,
               "setup": setup}
        seat = ladder.fit.seat(r.name)
        if seat is not None:
            row.update(seat=round(seat[0], 1), seat_low=round(seat[1], 1), seat_high=round(seat[2], 1))
        if r.name in even and even[r.name][1].low is not None:
            h, interval, how = even[r.name]
            row.update(h50=round(h, 1), low=round(interval.low, 1), high=round(interval.high, 1), how=how)
        new.append(row)
    out = ["# Every rated rung of a set-up's opponent ladder: its rating (side-free; the robot = 1000), its rating from",
           "# the player's seat (seat: rating + side term) and its even handicap, from its own sweep where it was swept",
           "# (how = 'sweep'), else from the ladder's joint fit (how = 'ladder fit'). benchmarks/ladder_answers.py",
           "# --write-points; docs/ladder.md. sim/even_points.py reads it: the suggested difficulty names the rung.", ""]
    for row in keep + new:
        out.append("[[rung]]")
        for key, value in row.items():
            if key == "setup":
                value = "{" + ", ".join(f"{k} = {json.dumps(v)}" for k, v in value.items()) + "}"
                out.append(f"setup = {value}")
            else:
                out.append(f"{key} = {json.dumps(value)}")
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    raise SystemExit(main())
