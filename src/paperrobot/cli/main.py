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

from ..core.errors import PaperRobotError, one_line
from ..core.events import read_log
from . import armada, fc, sfb
from . import web as web_cli
from .common import ARGV, GAME_MODULES, fail



class Group(TyperGroup):
    """Turns every error a user can cause into one line on stderr and exit code 2, wherever it is raised."""

    def main(self, args=None, *rest, **kwargs):
        ARGV[:] = [str(a) for a in (sys.argv[1:] if args is None else args)]  # for "resume with ..." hints
        problem = _empty_value(ARGV)
        if problem:
            print(f"error: {problem}", file=sys.stderr)
            sys.exit(2)
        return super().main(args, *rest, **kwargs)

    def make_context(self, info_name, args, parent=None, **extra):
        try:  # options of the top level ('paperrobot --bogus') are parsed here, outside invoke()
            return super().make_context(info_name, args, parent=parent, **extra)
        except Exception as exc:
            if not _is_usage_error(exc):
                raise
            _usage_line(exc)
            raise typer.Exit(2) from None

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except PaperRobotError as exc:
            print(f"{exc.prefix}{one_line(str(exc))}", file=sys.stderr)
            raise typer.Exit(exc.exit_code) from None
        except KeyboardInterrupt:  # Ctrl-C outside 'simulate' (which says what it kept): one line, not "Aborted!"
            print("interrupted", file=sys.stderr)
            raise typer.Exit(130) from None
        except Exception as exc:
            if not _is_usage_error(exc):
                raise
            _usage_line(exc)
            raise typer.Exit(2) from None


def _empty_value(args: list[str]) -> str | None:
    """An empty value ('--robot ""', '--fleet=') is never meant: say so instead of taking a default."""
    for i, arg in enumerate(args):
        if arg.startswith("--") and "=" in arg and not arg.split("=", 1)[1].strip():
            return f"{arg.split('=', 1)[0]} is empty; give it a value (or leave the option out)"
        if not arg.strip():
            if i and args[i - 1].startswith("-"):
                return f"{args[i - 1]} is empty; give it a value (or leave the option out)"
            return "an argument is empty; give it a value"
    return None


def _usage_line(exc) -> None:
    where = exc.ctx.command_path if getattr(exc, "ctx", None) is not None else "paperrobot"
    message = " ".join(exc.format_message().split())
    print(f"error: {message} (see '{where} --help')", file=sys.stderr)


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

def _version(value: bool) -> None:
    if value:
        print(f"paperrobot {_installed_version()}")
        raise typer.Exit(0)


def _installed_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("paperrobot")
    except PackageNotFoundError:  # run from a source tree without installing
        from .. import __version__
        return __version__


@app.callback()
def _top(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                      help="Show the version and exit.")) -> None:
    """Paper robots for solo starship wargames: play them, watch them, measure them."""


GROUPS = {"play": play_app, "battle": battle_app, "simulate": simulate_app, "assist": assist_app}
for module in (sfb, fc, armada):
    module.register(GROUPS)
    if getattr(module, "GAME", None):
        GAME_MODULES[module.GAME] = module
from . import assist as assist_command  # noqa: E402  (assist sfb|fc: every game with a table assistant)
assist_command.register(GROUPS)
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
    """Narrate a recorded game again from its log (a damaged log: up to the damage, then say where)."""
    events, problem = read_log(file)
    if not events or events[0].kind != "setup":
        fail(f"{file}: not a PaperRobot game log (" + (problem if problem and not events else
                                                       "it does not start with a 'setup' event") + ")")
    game = str(events[0].data.get("game", ""))
    if game not in GAME_MODULES:
        fail(f"{file}: the log is of game '{game}', which this program does not know")
    shown = []

    def tracked():
        for event in events:
            shown.append(event)
            yield event

    try:
        GAME_MODULES[game].replay(tracked(), decisions_only)
    except Exception as exc:  # a line that is JSON but not an event the narrator can read: damage too
        kind = shown[-1].kind if shown else "?"
        fail(f"{file}: event {len(shown)} (a '{kind}' event) cannot be narrated ({type(exc).__name__}: {exc}); "
             f"the log is damaged or from another version: the replay above stops there")
    if problem:
        fail(f"{file}: {problem}; the replay above stops there (after {len(events)} events)")


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
        print(f"{exc.prefix}{one_line(str(exc))}", file=sys.stderr)
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)


if __name__ == "__main__":
    run()
