"""``paperrobot simulate GAME``: many battles in parallel, win rates with 95% intervals, for every registered game
(the progress bar, the results file and the table are cli/simview.py)."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from rich.table import Table

import paperrobot

from ..core.frontend import frontend_of
from ..sim.matchplay import NamedPlay
from . import setup_flags, simview
from .battle import controllers
from .common import FORCE_HELP, OPPONENT_HELP, check_opponent, check_outputs, console, fail, say, show_handicap
from .verbs import GameGroup, make, option


def build(info):
    hooks = frontend_of(info)
    parameters = setup_flags.params(info, hooks) + [
        option("games", hooks.default_games, int, help="How many battles."),
        option("jobs", 0, int, help="Worker processes (0 = one per core)."),
        option("seed", 1, int, help="Base seed; battle i gets a seed derived from it and i."),
        option("db", None, Optional[Path], help="SQLite file to store one row per battle; the same command again "
                                                "resumes or extends the run."),
        option("opponent", "policy", str, help=OPPONENT_HELP),
        option("quiet", False, bool, help="No progress bar or table (for scripts)."),
    ]
    if hooks.pairings:
        parameters.append(option("all_pairings", False, bool, "--all-pairings", help=(
            "Every pairing of the ships " + ", ".join(s for s, _ in hooks.pairings) + ", robot vs robot and robot vs "
            "policy; --games is per pairing.")))
    parameters.append(option("force", False, bool, help=FORCE_HELP))

    def body(**kwargs):
        run(info, setup_flags.given(kwargs), **kwargs)
    return make(body, parameters, f"Run many battles of {info.title} in parallel and print win rates with 95% "
                                  f"intervals.")


def run(info, values: dict, games: int, jobs: int, seed: int, db: Optional[Path], opponent: str, quiet: bool,
        force: bool, all_pairings: bool = False) -> None:
    game = info.name
    check_outputs(force, db=db)
    check_opponent(opponent)
    simview.check_counts(games, jobs, seed)  # counts and seed first, in the words every simulate uses
    hooks = frontend_of(info)
    setup = setup_flags.setup_of(info, hooks, values)
    rules_file = values.get("robot_rules")
    if all_pairings:
        _all_pairings(info, hooks, setup, games, jobs, seed, db)
        return
    if setup.get("handicap") and not quiet:
        show_handicap(game, setup, opponent, hooks)
    if not quiet:
        for line in hooks.simulate_notes(setup):
            say(line)
    paperrobot.new_game(game, seed=seed, **setup)  # a bad set-up fails before any process starts
    play = NamedPlay.of(game, setup, controllers(info, opponent))
    config = {"setup": setup, "opponent": opponent}  # the flags given: a store of earlier runs keeps its configuration
    if rules_file:  # the variant's contents are in the setup (sim/store.py refuses a file changed under a run)
        config["robot_rules_file"] = str(Path(rules_file).resolve())
    sides = [info.robot_side] + [s for s in info.sides if s != info.robot_side]
    simview.simulate(game, config, play, games, jobs, seed, db, sides, f"{game}: robot vs {opponent}", quiet,
                     force=force)


def _all_pairings(info, hooks, setup: dict, games: int, jobs: int, seed: int, db: Optional[Path]) -> None:
    """Win-rate tables of every robot ship against every opponent ship, flown by the robot and by the policy."""
    game = info.name
    if "robot_ship" in setup or "player_ship" in setup:
        fail("--all-pairings plays every pairing of ships: leave out --robot-ship and --player-ship")
    base = {**{k: info.option(k).check(v) for k, v in hooks.pairings_setup.items()}, **setup}
    paperrobot.new_game(game, seed=seed, **base)  # a bad set-up fails first
    ships = [s for s, _ in hooks.pairings]
    short = dict(hooks.pairings)
    results = {}
    pairs = [(opp, r, p) for opp in ("policy", "robot") for r in ships for p in ships]
    with simview.Progress(simview.TextColumn("[bold]{task.description}"), simview.BarColumn(),
                          simview.MofNCompleteColumn(), simview.TimeElapsedColumn(), console=console,
                          transient=True) as progress:
        task = progress.add_task(f"{game}: every pairing", total=len(pairs))
        for opponent, robot_ship, player_ship in pairs:
            pairing = {**base, "robot_ship": robot_ship, "player_ship": player_ship}
            play = NamedPlay.of(game, pairing, controllers(info, opponent))
            results[(opponent, robot_ship, player_ship)] = simview.simulate(
                game, {"setup": pairing, "opponent": opponent}, play, games, jobs, seed, db,
                [info.robot_side] + [s for s in info.sides if s != info.robot_side], "", quiet=True)
            progress.advance(task)
    for opponent in ("robot", "policy"):
        table = Table(title=f"Robot's win rate, opponent ship flown by the {opponent} ({game}; rows: robot ship; "
                            f"columns: opponent ship; {games} games each, draws = the rest)", title_justify="left")
        table.add_column("robot")
        for p in ships:
            table.add_column(short[p], justify="right")
        for r in ships:
            table.add_row(short[r], *(pairing_cell(results[(opponent, r, p)], info.robot_side) for p in ships))
        console.print(table)
    console.print("Ships: " + ", ".join(f"{v} = {k}" for k, v in short.items()))
    console.print("Each cell: the robot's win rate and its 95% Wilson interval; the Elo-style difference of the "
                  "robot's score (wins + half the draws) with its 95% interval; LOS, the likelihood that the robot "
                  "wins more often than it loses (docs/balance.md 'The formulas').")


def pairing_cell(summary, robot_side: str = "robot") -> str:
    """One pairing's cell: win rate with its Wilson interval, the Elo-style difference, the likelihood of superiority."""
    from ..sim.fit import elo_difference, los

    rate, low, high = summary.rate(robot_side)
    wins = summary.wins.get(robot_side, 0)
    losses = summary.games - wins - summary.draws
    elo = elo_difference(wins, summary.draws, losses)

    def signed(x: float) -> str:
        return f"{x:+.0f}" if abs(x) != float("inf") else ("+inf" if x > 0 else "-inf")
    return (f"{rate:.0%} ({low:.0%}-{high:.0%})\nElo {signed(elo.elo)} ({signed(elo.low)}..{signed(elo.high)})\n"
            f"LOS {los(wins, losses):.0%}")


class SimulateGroup(GameGroup):
    build = staticmethod(build)
