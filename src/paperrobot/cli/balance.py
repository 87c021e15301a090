"""``paperrobot balance GAME``: how many handicap points the robot needs for an even fight (docs/balance.md).

Works on any game of the registry whose set-up has a ``handicap`` option (a whole number of the game's
points); the games reach it only through ``paperrobot.new_game`` and ``core.contract.drive_all``.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import List, Optional

import typer

from ..core.extras import needs_extra
from ..core.files import ReportFolder
from ..core.frontend import frontend_of
from . import setup_flags
from .common import FORCE_HELP, console, fail, say
from .verbs import GameGroup, make, option


def _engine(name: str, jobs: int, ray_address: Optional[str]):
    if name == "local":
        from ..sim.chunks import LocalEngine
        return LocalEngine(jobs)
    if name == "ray":
        from ..sim.ray_engine import RayEngine
        return RayEngine(jobs, ray_address)
    fail(f"--engine must be local or ray, not '{name}'")


def _check_statistics() -> None:
    try:
        import matplotlib  # noqa: F401
        import statsmodels  # noqa: F401
    except ImportError:
        fail(needs_extra("the balance command", "balance", "statsmodels, matplotlib"))


def build(info):
    """``balance GAME`` for a game with a whole-number ``handicap`` set-up option."""
    if "handicap" not in [o.name for o in info.options]:
        return None
    hooks = frontend_of(info)
    parameters = setup_flags.params(info, hooks, many_rules=True) + PARAMETERS

    def body(**kwargs):
        from .simview import sigterm_stops
        values = setup_flags.given(kwargs)
        with sigterm_stops():  # SIGTERM: the same orderly stop as Ctrl-C (workers ended, games kept)
            return balance(info, hooks, values, **kwargs)
    return make(body, parameters, "Measure the handicap that makes the robot's fight even: bracket, fit, Fieller "
                                  "interval, plot.")


PARAMETERS = [
    option("opponents", ["policy"], List[str], "--opponent", help="Who flies the other side: a ladder rung (random, "
           "policy, robot = the mirror, search:N); repeat for more."),
    option("out", ..., Path, help="Folder for the report, JSON and plots (created if missing). Only reports this "
           "program wrote there are replaced (listed in its .paperrobot-report); a file of yours with the same name "
           "is refused unless --force."),
    option("db", None, Optional[Path], help="SQLite file of the sweep's games (default OUT/balance.sqlite); the same "
                                            "command again resumes or extends the sweep."),
    option("precision", None, Optional[float], help="Add seeds until the 95% interval's half-width is at most W "
                                                    "points."),
    option("games_per_level", 200, int, help="Seeds played at every fit level (at first)."),
    option("levels", 7, int, help="Fit levels across the bracket (5-9)."),
    option("probe_games", 200, int, help="Games per bracketing probe."),
    option("start", 0, int, help="The first handicap probed."),
    option("step", 10, int, help="The first bracketing step in points (it doubles each probe)."),
    option("max_games", 200_000, int, help="Cap on the fit's games when chasing --precision."),
    option("jobs", 0, int, help="Worker processes, or Ray CPUs for a local Ray (0 = one per core)."),
    option("engine", "local", str, help="local (process pool) or ray."),
    option("ray_address", None, Optional[str], help="A Ray cluster (else RAY_ADDRESS, else a local Ray)."),
    option("seed", 1, int, help="Base seed: game i of every level gets derive_seed(seed, i)."),
    option("fresh_seeds", False, bool, "--fresh-seeds", help="Each level its own seeds instead of the same seeds at "
                                                            "every level."),
    option("chunk", 25, int, help="Games per task.", hidden=True),
    option("quiet", False, bool, help="No progress bar."),
    option("force", False, bool, help=FORCE_HELP),
]


def balance(info, hooks, values: dict, opponents: List[str], out: Path, db: Optional[Path],
            precision: Optional[float], games_per_level: int, levels: int, probe_games: int, start: int, step: int,
            max_games: int, jobs: int, engine: str, ray_address: Optional[str], seed: int, fresh_seeds: bool,
            chunk: int, quiet: bool, force: bool):
    """Measure the handicap that makes the robot's fight even: bracket, fit, Fieller interval, plot."""
    game = info.name
    robot_rules = [str(p) for p in values.pop("robot_rules", [])]
    if "handicap" in values:
        fail("the sweep sets the handicap itself: drop --handicap")
    setup = setup_flags.setup_of(info, hooks, values)
    if not 5 <= levels <= 9:
        fail(f"--levels must be from 5 to 9, not {levels}")
    for name, value, least in (("--games-per-level", games_per_level, 10), ("--probe-games", probe_games, 10),
                               ("--step", step, 1), ("--max-games", max_games, 1), ("--chunk", chunk, 1)):
        if value < least:
            fail(f"{name} must be at least {least}, not {value}")
    if precision is not None and not precision > 0:
        fail(f"--precision must be a positive number of points, not {precision}")
    if jobs < 0:
        fail(f"--jobs must be 0 (one per core) or more, not {jobs}")
    if not 0 <= seed < 2 ** 31:  # game seeds derive_seed(seed, i) = seed << 32 | i stay below 2**63
        fail(f"--seed must be from 0 to 2**31-1, not {seed}")
    _check_statistics()

    from ..sim.balance import BalanceStore, Plan, registry_matchup, slug

    variants = list(dict.fromkeys(robot_rules)) or [None]
    matchups = [registry_matchup(game, {**setup, **({"robot_rules": rules} if rules else {})}, opponent)
                for opponent in dict.fromkeys(opponents) for rules in variants]
    folder = ReportFolder(out, "--out", force)  # only the reports this program wrote there are replaced
    folder.check([f"{slug(m)}{suffix}" for m in matchups for suffix in REPORT_SUFFIXES]
                 + (["robot-rules-compare.json"] if len(variants) > 1 else []))
    store = BalanceStore(db or out / "balance.sqlite")
    plan = Plan(base_seed=seed, start=start, step=step, probe_games=probe_games, levels=levels,
                games_per_level=games_per_level, precision=precision, max_games=max_games, chunk=chunk,
                fresh_seeds=fresh_seeds)
    jobs = jobs or (os.cpu_count() or 1)
    runner = _engine(engine, jobs, ray_address)
    done = 0
    sweeps = []
    try:
        for matchup in matchups:
            sweep = _run(matchup, plan, store, runner, quiet)
            done += sweep.played
            _write(sweep, folder, slug(matchup))
            sweeps.append(sweep)
        if len(variants) > 1:
            _compare(sweeps, variants, folder)
    except KeyboardInterrupt:
        runner.close(abort=True)
        kept = sum(len(store.games(plan.store_key(m))) for m in matchups)
        store.close()
        print(f"interrupted: the {kept} finished games of this sweep are kept in {store.path}; run the same "
              "command again to resume", file=sys.stderr)
        raise typer.Exit(130) from None
    except BaseException:
        runner.close(abort=True)
        store.close()
        raise
    runner.close()
    store.close()


def _run(matchup, plan, store, runner, quiet):
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from ..sim import balance as bal

    bar = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   console=console, transient=True, disable=quiet)

    class Shown(bal.Progress):
        task = None

        def stage(self, text, games):
            if self.task is not None:
                bar.remove_task(self.task)
            self.task = bar.add_task(f"{matchup.key} {matchup.opponent} {text}", total=games)

        def games(self, count):
            bar.advance(self.task, count)

    with bar:
        return bal.run_sweep(matchup, plan, store, runner, Shown())


REPORT_SUFFIXES = (".txt", ".json", ".png", ".svg")


def _compare(sweeps, variants: list[str], folder: ReportFolder) -> None:
    """Per opponent: each variant's even point against the first's, the difference with its 95 % interval."""
    from ..sim.fit import h50_difference

    k = len(variants)
    lines, rows = [], []
    for start in range(0, len(sweeps), k):
        group = sweeps[start:start + k]
        base = group[0]
        lines.append(f"Robot rules compared, opponent {base.matchup.opponent} (difference = variant minus "
                     f"{variants[0]}; 95% MOVER interval from the two Fieller intervals):")
        for name, sweep in zip(variants[1:], group[1:]):
            diff = h50_difference(base.fit, sweep.fit)
            unit = sweep.matchup.unit
            if diff.value is None:
                text = "no even point in one of the sweeps: no difference can be given"
            elif diff.low is None:
                text = f"{diff.value:+.1f} {unit}, no interval (a sweep's slope is not clearly positive)"
            else:
                text = f"{diff.value:+.1f} {unit}, 95% {diff.low:+.1f} to {diff.high:+.1f}"
            lines.append(f"  {name}: h50 {sweep.fit.h50:+.1f} vs {base.fit.h50:+.1f}: difference {text}")
            rows.append({"opponent": base.matchup.opponent, "base": variants[0], "variant": name,
                         "base_h50": base.fit.h50, "variant_h50": sweep.fit.h50, **diff.to_dict()})
    for line in lines:
        say(line)
    paths = folder.write({"robot-rules-compare.json": (json.dumps(rows, indent=2, default=float) + "\n").encode()})
    say(f"Written {paths[0]}")


def _write(sweep, folder: ReportFolder, stem: str) -> None:
    from ..sim.balance import report_dict, report_lines
    from ..sim.plot import render_sweep

    lines = report_lines(sweep)
    for line in lines:
        say(line)
    pictures = render_sweep(sweep)
    paths = folder.write({f"{stem}.txt": ("\n".join(lines) + "\n").encode(),
                          f"{stem}.json": (json.dumps(report_dict(sweep), indent=2, default=float) + "\n").encode(),
                          **{stem + suffix: data for suffix, data in pictures.items()}})
    say(f"Written {', '.join(str(p) for p in paths[1:])}")
    say("")


class BalanceGroup(GameGroup):
    build = staticmethod(build)

    @staticmethod
    def refusal(info) -> str:
        return (f"{info.name} has no handicap set-up option yet, so it cannot be swept; its set-up options: "
                f"{', '.join(o.name for o in info.options) or 'none'}")
