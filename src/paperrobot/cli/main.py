"""The ``paperrobot`` command.

Verbs are groups (``play``, ``battle``, ``simulate``, ``assist``) whose sub-commands are games; each
game's module in this package registers its own sub-commands and its ship listing, so the games stay
independent of each other. Every error a user can cause is one line on stderr and exit code 2.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer
from typer.core import TyperGroup

from ..core.errors import PaperRobotError
from ..core.events import read_jsonl
from . import armada, fc, sfb
from . import web as web_cli
from .common import GAME_MODULES, fail



class Group(TyperGroup):
    """Turns every error a user can cause into one line on stderr and exit code 2, wherever it is raised."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except PaperRobotError as exc:
            print(f"error: {exc}", file=sys.stderr)
            raise typer.Exit(2) from None
        except Exception as exc:
            if not _is_usage_error(exc):
                raise
            where = exc.ctx.command_path if getattr(exc, "ctx", None) is not None else "paperrobot"
            print(f"error: {exc.format_message()} (see '{where} --help')", file=sys.stderr)
            raise typer.Exit(2) from None


def _is_usage_error(exc: Exception) -> bool:
    """A click usage error (bad option, missing argument, unknown command), but not 'no arguments: show help'.

    Matched by class name because typer may carry its own copy of click."""
    names = {cls.__name__ for cls in type(exc).__mro__}
    return "UsageError" in names and "NoArgsIsHelpError" not in names


app = typer.Typer(cls=Group, add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Paper robots for solo starship wargames: play them, watch them, measure them.")
play_app = typer.Typer(no_args_is_help=True, help="Play a game against the robot in the terminal.")
battle_app = typer.Typer(no_args_is_help=True, help="Watch one narrated battle, robot against robot or policy.")
simulate_app = typer.Typer(no_args_is_help=True, help="Run many battles in parallel and summarise the results.")
assist_app = typer.Typer(no_args_is_help=True, help="Ask the robot what it does at your own table.")
app.add_typer(play_app, name="play")
app.add_typer(battle_app, name="battle")
app.add_typer(simulate_app, name="simulate")
app.add_typer(assist_app, name="assist")

GROUPS = {"play": play_app, "battle": battle_app, "simulate": simulate_app, "assist": assist_app}
for module in (sfb, fc, armada):
    module.register(GROUPS)
    if getattr(module, "GAME", None):
        GAME_MODULES[module.GAME] = module
web_cli.register(app)
from . import balance as balance_command  # noqa: E402  (paperrobot balance GAME: any game of the registry)
balance_command.register(app)


@app.command()
def ships(name: Optional[str] = typer.Argument(None, help="A ship to show in full; omit to list all."),
          game: Optional[str] = typer.Option(None, help="Only this game: " + ", ".join(sorted(GAME_MODULES))),
          ships_dir: Optional[Path] = typer.Option(None, "--ships-dir", help="A folder of your own ship files.")):
    """List the ships of every game, or show one ship's sheet."""
    modules = _games(game)
    if name is None:
        for module in modules:
            module.list_ships(ships_dir)
        return
    for module in modules:
        if module.has_ship(name, ships_dir):
            module.show_ship(name, ships_dir)
            return
    known = sorted(n for module in modules for n in module.ship_names(ships_dir))
    fail(f"unknown ship '{name}'; known ships: {', '.join(known)}")


@app.command()
def replay(file: Path = typer.Argument(..., help="A log written by 'battle --log' or 'play --log'."),
           decisions_only: bool = typer.Option(False, "--decisions", help="Show only the robot's decisions.")):
    """Narrate a recorded game again from its log."""
    events = read_jsonl(file)
    if not events or events[0].kind != "setup":
        fail(f"{file}: not a PaperRobot game log (it does not start with a 'setup' event)")
    game = str(events[0].data.get("game", ""))
    if game not in GAME_MODULES:
        fail(f"{file}: the log is of game '{game}', which this program does not know")
    GAME_MODULES[game].replay(events, decisions_only)


@app.command()
def data(provisional: bool = typer.Option(False, "--provisional", help="List the tables marked provisional."),
         game: Optional[str] = typer.Option(None, help="Only this game.")):
    """Show the data tables behind each game and where their numbers come from."""
    for module in _games(game):
        module.list_data(provisional)


def _games(game: Optional[str]):
    if game is None:
        return [GAME_MODULES[g] for g in sorted(GAME_MODULES)]
    if game not in GAME_MODULES:
        fail(f"unknown game '{game}'; choose one of: {', '.join(sorted(GAME_MODULES))}")
    return [GAME_MODULES[game]]


def run() -> None:
    """Entry point: one clear line and a non-zero exit for every error a user can cause."""
    try:
        app()
    except PaperRobotError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)


if __name__ == "__main__":
    run()
