"""The ``paperrobot`` command.

Verbs are groups (``play``, ``battle``, ``simulate``, ``assist``, ``balance``, ``ladder``) whose sub-commands
are the registered games, made from the registry when the command line is read (cli/verbs.py): every set-up
option is a flag of its own name under every verb (cli/setup_flags.py), and what a game shows beyond the
contract is its own hooks (core/frontend.py). No game is imported here. Every error a user can cause is one
line on stderr and exit code 2.
"""
from __future__ import annotations

import errno
import sys
from pathlib import Path
from typing import Optional

import typer
from typer.core import TyperGroup

from ..core.errors import PaperRobotError, one_line
from ..core.events import read_log
from ..core.frontend import frontend_of
from . import web as web_cli
from .assist import AssistGroup
from .balance import BalanceGroup
from .battle import BattleGroup
from .common import ARGV, fail, say
from .front import narrate_to_console
from .ladder import LadderGroup
from .play import PlayGroup
from .setup_flags import retired
from .simulate import SimulateGroup
from .verbs import bare_flags, games as registered_games, verb


class Group(TyperGroup):
    """Turns every error a user can cause into one line on stderr and exit code 2, wherever it is raised."""

    def main(self, args=None, *rest, **kwargs):
        ARGV[:] = [str(a) for a in (sys.argv[1:] if args is None else args)]  # for "resume with ..." hints
        problem = _empty_value(ARGV) or retired(ARGV)
        if problem:
            print(f"error: {problem}", file=sys.stderr)
            sys.exit(2)
        return super().main(args, *rest, **kwargs)

    def get_command(self, ctx, name):
        return bare_flags(super().get_command(ctx, name), ctx)  # --help shows a flag as a flag (cli/verbs.py)

    def get_params(self, ctx):
        bare_flags(self, ctx)  # and the top level's own (--version, --help)
        return super().get_params(ctx)

    def make_context(self, info_name, args, parent=None, **extra):
        try:  # options of the top level ('paperrobot --bogus') are parsed here, outside invoke()
            return super().make_context(info_name, args, parent=parent, **extra)
        except Exception as exc:
            if not _is_usage_error(exc):
                raise
            _usage_line(exc)
            raise typer.Exit(2) from None

    def invoke(self, ctx):
        from . import started
        started()
        try:
            return super().invoke(ctx)
        except PaperRobotError as exc:
            print(f"{exc.prefix}{one_line(str(exc))}", file=sys.stderr)
            raise typer.Exit(exc.exit_code) from None
        except KeyboardInterrupt:  # Ctrl-C outside 'simulate' (which says what it kept): one line, not "Aborted!"
            print("interrupted", file=sys.stderr)
            raise typer.Exit(130) from None
        except OSError as exc:
            if exc.errno != errno.ENAMETOOLONG:  # outputs are checked by name first (core/files.check_name)
                raise
            name = str(exc.filename or "")
            shown = name if len(name) <= 60 else name[:40] + "..." + name[-12:]
            print(f"error: {one_line(shown)}: the file name is too long; choose a shorter name", file=sys.stderr)
            raise typer.Exit(2) from None
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
for group, name, text in (
        (PlayGroup, "play", "Play a game against the robot in the terminal."),
        (BattleGroup, "battle", "Watch one narrated battle, robot against robot or policy."),
        (SimulateGroup, "simulate", "Run many battles in parallel and summarise the results."),
        (AssistGroup, "assist", "Ask the robot what it does at your own table."),
        (BalanceGroup, "balance", "How many handicap points the robot needs for an even fight (docs/balance.md)."),
        (LadderGroup, "ladder", "Rate the rungs (random, policy, robot, search:N) on one scale (docs/ladder.md).")):
    app.add_typer(verb(group, name, text), name=name)

def _version(value: bool) -> None:
    if value:
        from .. import __version__  # the one source (pyproject reads it too): an old install's metadata may lag
        print(f"paperrobot {__version__}")
        raise typer.Exit(0)


@app.callback()
def _top(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                      help="Show the version and exit.")) -> None:
    """Paper robots for solo starship wargames: play them, watch them, measure them."""


web_cli.register(app)
from . import ladder as ladder_command  # noqa: E402  (paperrobot rating [GAME])
ladder_command.register(app)
from . import rules as rules_command  # noqa: E402  (paperrobot rules export GAME: the robot's procedure as data)
rules_command.register(app)


@app.command()
def ships(name: Optional[str] = typer.Argument(None, help="A ship to show in full; omit to list all."),
          game: Optional[str] = typer.Option(None, help="Only this game."),
          ships_dir: Optional[Path] = typer.Option(None, "--ships-dir", help="A folder of your own ship files.")):
    """List the ships of every game, or show one ship's sheet."""
    folder = str(ships_dir) if ships_dir else None
    hooks = _hooks(game)
    if name is None:
        for front in hooks.values():
            for line in front.ship_list(folder):
                say(line)
        return
    for front in hooks.values():
        if name in front.ship_names(folder):
            for line in front.ship_sheet(name, folder):
                say(line)
            return
    known = sorted(n for front in hooks.values() for n in front.ship_names(folder))
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
    known = registered_games()
    if game not in known:
        fail(f"{file}: the log is of game '{game}', which this program does not know")
    info = known[game]
    show = narrate_to_console(info, decisions_only, frontend_of(info).decision_kinds)
    shown = 0
    try:
        for event in events:
            shown += 1
            show(event)
    except Exception as exc:  # a line that is JSON but not an event the narrator can read: damage too
        kind = events[shown - 1].kind if shown else "?"
        fail(f"{file}: event {shown} (a '{kind}' event) cannot be narrated ({type(exc).__name__}: {exc}); "
             f"the log is damaged or from another version: the replay above stops there")
    if problem:
        fail(f"{file}: {problem}; the replay above stops there (after {len(events)} events)")


@app.command()
def data(provisional: bool = typer.Option(False, "--provisional", help="List the tables marked provisional."),
         game: Optional[str] = typer.Option(None, help="Only this game.")):
    """Show the data tables behind each game and where their numbers come from."""
    for front in _hooks(game).values():
        for line in front.data_lines(provisional):
            say(line)


def _hooks(game: Optional[str]) -> dict:
    """Each game's front-end hooks (only ``game``'s when given), by name."""
    known = registered_games()
    if game is not None and game not in known:
        fail(f"unknown game '{game}'; choose one of: {', '.join(sorted(known))}")
    return {name: frontend_of(known[name]) for name in sorted(known) if game in (None, name)}


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
