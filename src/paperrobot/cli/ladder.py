"""``paperrobot ladder GAME``: rate the rungs (random, policy, robot, search:N) on one scale (docs/ladder.md);
``paperrobot rating [GAME]``: a person's rating on that scale from their recorded games."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import List, Optional

import typer

from ..core.errors import PaperRobotError
from ..core.files import ReportFolder
from ..core.frontend import frontend_of
from . import setup_flags
from .balance import _check_statistics, _engine
from .common import FORCE_HELP, console, fail, say
from .verbs import GameGroup, make, option


def register(app: typer.Typer) -> None:
    app.command("rating")(rating)


def build(info):
    hooks = frontend_of(info)
    parameters = setup_flags.params(info, hooks) + PARAMETERS

    def body(**kwargs):
        values = setup_flags.given(kwargs)
        return ladder(info, hooks, values, **kwargs)
    return make(body, parameters, "Play rungs against each other on shared seeds and fit their ratings (robot = "
                                  "1000) with 95% intervals.")


PARAMETERS = [
    option("out", ..., Path, help="Folder for ladder.json, fit.json, the table and the plots."),
    option("rungs", "random,policy,robot", str, help="Rungs, comma-separated: random, policy, robot, search:N, "
                                                     "mix:policy=0.9,random=0.1 (the robot is the anchor)."),
    option("games", 20_000, int, help="Cap on the ladder's games (stored ones included); the first round plays --batch seeds of each pairing whatever the cap."),
    option("batch", 50, int, help="Seeds per pairing in the first round and per adaptive step."),
    option("precision", 25.0, float, help="Play until every adjacent pair's 95% half-width is at most this (rating "
                                          "points)."),
    option("jobs", 0, int, help="Worker processes, or Ray CPUs for a local Ray (0 = one per core)."),
    option("engine", "local", str, help="local (process pool) or ray."),
    option("ray_address", None, Optional[str], help="A Ray cluster (else RAY_ADDRESS)."),
    option("db", None, Optional[Path], help="SQLite file of the ladder's games (default OUT/ladder.sqlite); the same "
                                            "command again resumes or extends it."),
    option("seed", 1, int, help="Base seed: game i of every pairing gets derive_seed(seed, i)."),
    option("balance", False, bool, help="Also measure each rung's even-fight handicap (balance sweeps) and fit the "
                                        "handicap's worth."),
    option("balance_games", 200, int, help="Games per level (and per probe) of each sweep."),
    option("quiet", False, bool, help="No progress bar."),
    option("force", False, bool, help=FORCE_HELP),
]


class LadderGroup(GameGroup):
    build = staticmethod(build)


def _game(game: str):
    import paperrobot

    known = paperrobot.games()
    if game not in known:
        fail(f"unknown game '{game}'; the games are: {', '.join(sorted(known))}")
    return paperrobot.game_info(game)


def ladder(info, hooks, values: dict, out: Path, rungs: str, games: int, batch: int, precision: float, jobs: int,
           engine: str, ray_address: Optional[str], db: Optional[Path], seed: int, balance: bool, balance_games: int,
           quiet: bool, force: bool):
    """Play rungs against each other on shared seeds and fit their ratings (robot = 1000) with 95% intervals."""
    game = info.name
    if balance and "handicap" in values:
        fail("--balance sweeps the handicap itself: drop --handicap")
    setup = setup_flags.setup_of(info, hooks, values)
    from ..sim import rungs as rung_kinds

    names = rung_kinds.split_rungs(rungs)
    if len(set(names)) != len(names):
        fail(f"--rungs names a rung twice: {rungs}")
    for name, value, least in (("--games", games, 10), ("--batch", batch, 2), ("--balance-games", balance_games, 10)):
        if value < least:
            fail(f"{name} must be at least {least}, not {value}")
    if not precision > 0:
        fail(f"--precision must be a positive number of rating points, not {precision}")
    if jobs < 0:
        fail(f"--jobs must be 0 (one per core) or more, not {jobs}")
    if not 0 <= seed < 2 ** 31:
        fail(f"--seed must be from 0 to 2**31-1, not {seed}")
    _check_statistics()
    from ..sim.ladder import LadderStore, Plan, pairings, registry_spec

    for name in names:
        rung_kinds.check_rung(name)
    if "robot" not in names:
        fail("--rungs must include robot: the ladder is anchored at the published robot (1000)")
    if len(names) < 2:
        fail("--rungs needs the robot and at least one other rung")
    spec = registry_spec(game, setup, seed)
    for name in names:
        if name != "robot" and not any(name in pair for pair in pairings(spec, names)):
            fail(f"rung {name} cannot meet any other rung in {game} (it flies no side the others leave free)")
    if balance and "handicap" not in [o.name for o in info.options]:
        fail(f"{game} has no handicap set-up option, so --balance cannot sweep it")
    folder = ReportFolder(out, "--out", force)  # only the reports this program wrote there are replaced
    folder.check(REPORT_FILES + (("handicap.png", "handicap.svg") if balance else ()))
    out = folder.folder
    store = LadderStore(db or out / "ladder.sqlite")
    plan = Plan(tuple(names), batch, precision, games)
    runner = _engine(engine, jobs or (os.cpu_count() or 1), ray_address)
    try:
        result = _run(spec, plan, store, runner, quiet)
        if balance:
            _balance(result, names, setup, seed, balance_games, runner, out, db, quiet)
    except KeyboardInterrupt:
        runner.close(abort=True)
        store.close()
        print(f"interrupted: the finished games are kept in {store.path}; run the same command again to resume",
              file=sys.stderr)
        raise typer.Exit(130) from None
    except BaseException:
        runner.close(abort=True)
        store.close()
        raise
    runner.close()
    store.close()
    _write(result, folder)


def _progress(quiet: bool):
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=console, transient=True, disable=quiet)


def _run(spec, plan, store, runner, quiet):
    from ..sim import ladder as lad

    bar = _progress(quiet)

    class Shown(lad.Progress):
        task = None

        def stage(self, text, games):
            if self.task is not None:
                bar.remove_task(self.task)
            self.task = bar.add_task(text, total=games)

        def games(self, count):
            bar.advance(self.task, count)

    with bar:
        return lad.run_ladder(spec, plan, store, runner, Shown())


def _balance(result, names, setup, seed, games, runner, out, db, quiet) -> None:
    """A balance sweep per rung (sim/balance.py, its own database next to the ladder's); the sweeps' games
    against the robot join the ladder's fit, which then has a handicap term."""
    from ..sim.balance import BalanceStore, Plan, SweepError, registry_matchup
    from ..sim.ladder import refit_with_sweeps
    from .balance import _run as run_sweep

    path = (db.with_name(db.stem + "-balance.sqlite") if db else out / "balance.sqlite")
    store = BalanceStore(path)
    plan = Plan(base_seed=seed, probe_games=games, games_per_level=games)
    played = {}
    try:
        for name in names:
            if name.startswith("mix:"):
                continue
            try:
                matchup = registry_matchup(result.spec.game, setup, name)
                result.balance[name] = run_sweep(matchup, plan, store, runner, quiet)
            except SweepError as exc:
                result.balance[name] = str(exc)
            except PaperRobotError as exc:
                result.balance[name] = f"not swept: {exc}"
                continue
            played[name] = store.games(plan.store_key(matchup))
    finally:
        store.close()
    refit_with_sweeps(result, played)


REPORT_FILES = ("ladder.txt", "ladder.json", "fit.json", "ladder.png", "ladder.svg")


def _write(result, folder: ReportFolder) -> None:
    from ..sim.ladder_report import fit_json, plot_handicap, plot_ladder, rungs_json, table_lines

    lines = table_lines(result)
    for line in lines:
        say(line)
    contents = {"ladder.txt": ("\n".join(lines) + "\n").encode(),
                "ladder.json": (json.dumps(rungs_json(result), indent=2) + "\n").encode(),
                "fit.json": (json.dumps(fit_json(result), indent=2, default=float) + "\n").encode(),
                **{"ladder" + suffix: data for suffix, data in plot_ladder(result).items()}}
    if result.balance:
        contents.update({"handicap" + suffix: data for suffix, data in plot_handicap(result).items()})
    paths = folder.write(contents)
    say(f"Written {', '.join(str(p) for p in paths)}")


# ------------------------------------------------------------------------------------------- rating
def rating(
    game: Optional[str] = typer.Argument(None, help="The game (default: every game you have recorded)."),
    ladder_path: Optional[Path] = typer.Option(None, "--ladder", help="A ladder's folder (its fit.json) or fit.json; "
                                                                      "written by 'paperrobot ladder GAME --out DIR' "
                                                                      "(default: the game's published ladder)."),
    records_path: Optional[Path] = typer.Option(None, "--records", help="Your results file (default: "
                                                                         "$XDG_DATA_HOME/paperrobot/results.sqlite)."),
):
    """Your rating on the ladder's scale from your recorded games, and the handicap for an even next game."""
    _check_statistics()
    from ..sim.records import Records

    if game is not None:
        _game(game)
    records = Records(records_path, create=False)
    try:
        played = records.games(game)
    finally:
        records.close()
    if not played:
        fail(f"no recorded games{' of ' + game if game else ''} in {records.path}: finish a game of 'paperrobot play' "
             f"first")
    if ladder_path is not None:
        model = _read_fit(ladder_path)
    rated = 0
    for name in sorted({r.game for r in played}):
        if ladder_path is None:  # each game on its published ladder
            from ..sim.person import published_fit
            model = published_fit(name)
            if model is None:
                say(f"{name}: {sum(r.game == name for r in played)} recorded games, but no ladder of {name} is "
                    f"published yet; give --ladder DIR (paperrobot ladder {name} --out DIR)")
                continue
        if name != model["game"]:
            say(f"{name}: {sum(r.game == name for r in played)} recorded games, but the ladder given is of "
                f"{model['game']}; give a ladder of {name}")
            continue
        _show_rating(name, [r for r in played if r.game == name], model)
        rated += 1
    if not rated:
        fail("no ladder to rate your games on: give --ladder DIR, the folder of a ladder of the game you played "
             "(paperrobot ladder GAME --out DIR)")


def _read_fit(path: Path) -> dict:
    from ..sim.person import read_fit
    try:
        return read_fit(path)
    except PaperRobotError as exc:
        fail(f"--ladder {exc}")


def _show_rating(game: str, played, data: dict) -> None:
    """The same sentences the web page shows (sim/person.py)."""
    from ..sim.person import person_report

    report = person_report(game, played, data)
    if report.used == 0:
        fail(report.lines[-1])
    for line in report.lines:
        say(line)
