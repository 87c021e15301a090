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

from ..core.errors import PaperRobotError
from .common import console, fail, say


def register(app: typer.Typer) -> None:
    app.command("balance")(balance)


def parse_sets(pairs: List[str]) -> dict:
    setup = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            fail(f"--set takes key=value (a set-up option of the game), not '{pair}'")
        if key in setup:
            fail(f"--set {key} is given twice")
        setup[key] = value.strip()
    return setup


def _writable_folder(out: Path) -> Path:
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".paperrobot-write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as exc:
        fail(f"cannot write to --out {out}: {exc.strerror or exc}")
    return out


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
        fail("the balance command needs the balance extra (statsmodels, matplotlib): "
             "pip install -e '.[balance]' (scripts/setup installs it)")


def balance(
    game: str = typer.Argument(..., help="The game to sweep (it needs a 'handicap' set-up option)."),
    sets: List[str] = typer.Option([], "--set", help="A set-up option of the game, key=value; repeat for more."),
    opponents: List[str] = typer.Option(["policy"], "--opponent",
                                        help="Who flies the other side: policy or robot (mirror); repeat for both."),
    out: Path = typer.Option(..., "--out", help="Folder for the report, JSON and plots (created if missing)."),
    db: Optional[Path] = typer.Option(None, "--db", help="SQLite file of the sweep's games (default OUT/balance.sqlite)"
                                                          "; the same command again resumes or extends the sweep."),
    precision: Optional[float] = typer.Option(None, "--precision",
                                              help="Add seeds until the 95% interval's half-width is at most W points."),
    games_per_level: int = typer.Option(200, "--games-per-level", help="Seeds played at every fit level (at first)."),
    levels: int = typer.Option(7, "--levels", help="Fit levels across the bracket (5-9)."),
    probe_games: int = typer.Option(200, "--probe-games", help="Games per bracketing probe."),
    start: int = typer.Option(0, "--start", help="The first handicap probed."),
    step: int = typer.Option(10, "--step", help="The first bracketing step in points (it doubles each probe)."),
    max_games: int = typer.Option(200_000, "--max-games", help="Cap on the fit's games when chasing --precision."),
    jobs: int = typer.Option(0, "--jobs", help="Worker processes, or Ray CPUs for a local Ray (0 = one per core)."),
    engine: str = typer.Option("local", "--engine", help="local (process pool) or ray."),
    ray_address: Optional[str] = typer.Option(None, "--ray-address",
                                              help="A Ray cluster (else RAY_ADDRESS, else a local Ray)."),
    seed: int = typer.Option(1, "--seed", help="Base seed: game i of every level gets derive_seed(seed, i)."),
    fresh_seeds: bool = typer.Option(False, "--fresh-seeds",
                                     help="Each level its own seeds instead of the same seeds at every level."),
    chunk: int = typer.Option(25, "--chunk", help="Games per task.", hidden=True),
    quiet: bool = typer.Option(False, "--quiet", help="No progress bar."),
):
    """Measure the handicap that makes the robot's fight even: bracket, fit, Fieller interval, plot."""
    import paperrobot

    setup = parse_sets(sets)
    known = paperrobot.games()
    if game not in known and game not in paperrobot.GAME_PACKAGES:
        fail(f"unknown game '{game}'; the games are: {', '.join(sorted(set(known) | set(paperrobot.GAME_PACKAGES)))}")
    if game not in known:
        fail(f"{game} has no handicap set-up option yet (it is not on the game contract yet), so it cannot be swept")
    info = paperrobot.game_info(game)
    if "handicap" not in [o.name for o in info.options]:
        fail(f"{game} has no handicap set-up option yet, so it cannot be swept; its set-up options: "
             f"{', '.join(o.name for o in info.options) or 'none'}")
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

    matchups = [registry_matchup(game, setup, opponent) for opponent in dict.fromkeys(opponents)]
    out = _writable_folder(out)
    store = BalanceStore(db or out / "balance.sqlite")
    plan = Plan(base_seed=seed, start=start, step=step, probe_games=probe_games, levels=levels,
                games_per_level=games_per_level, precision=precision, max_games=max_games, chunk=chunk,
                fresh_seeds=fresh_seeds)
    jobs = jobs or (os.cpu_count() or 1)
    runner = _engine(engine, jobs, ray_address)
    done = 0
    try:
        for matchup in matchups:
            sweep = _run(matchup, plan, store, runner, quiet)
            done += sweep.played
            _write(sweep, out, slug(matchup))
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


def _write(sweep, out: Path, stem: str) -> None:
    from ..sim.balance import report_dict, report_lines
    from ..sim.plot import plot_sweep

    lines = report_lines(sweep)
    for line in lines:
        say(line)
    try:
        (out / f"{stem}.txt").write_text("\n".join(lines) + "\n")
        (out / f"{stem}.json").write_text(json.dumps(report_dict(sweep), indent=2, default=float) + "\n")
        paths = plot_sweep(sweep, out / stem)
    except OSError as exc:
        raise PaperRobotError(f"cannot write the report to {out}: {exc.strerror or exc}") from None
    say(f"Written {out / (stem + '.json')}, {', '.join(str(p) for p in paths)}")
    say("")
