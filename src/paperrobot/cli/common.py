"""Helpers shared by the game front ends: the console, failing cleanly, the registry of games, and the
checks of output files that every command makes before any work (core/files.py holds the policy)."""
from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import NoReturn, Optional

import typer
from rich.console import Console

from ..core import files
from ..core.errors import PaperRobotError

console = Console(highlight=False)
ARGV: list[str] = []  # the command line as typed (filled by main), for "resume with ..." hints

NO_RECORD_HELP = ("Keep this game out of your results file (read by 'paperrobot rating'; it never leaves this "
                  "machine; docs/ladder.md).")
FORCE_HELP = ("Replace an existing file even if it is not this program's own file of that kind "
              "(without it such a file is never touched).")


def force_option():
    return typer.Option(False, "--force", help=FORCE_HELP)


def fail(message: str) -> NoReturn:
    """Stop the command with one line on stderr and exit code 2."""
    raise PaperRobotError(message)


OPPONENT_HELP = ("Who flies the other side: policy (a heuristic captain), robot, or search[:N] (a player that plans: N "
                 "simulations per decision on forks of the game, search = search:50; docs/search.md).")


def check_opponent(name: str) -> str:
    """``name`` if it names a player ("policy", "robot", "search:20"), else one line saying what is wrong."""
    from ..core import players
    if not players.known(name):
        choices = ", ".join(["policy", "robot"] + [f"{n}[:N]" for n in players.registered()])
        fail(f"unknown opponent '{name}'; choose one of: {choices}")
    return players.check(name, "--opponent")


def with_players(match, controllers: dict) -> dict:
    """``controllers`` with named players ("search:20") made into objects for ``match`` (the driver itself knows
    only "robot" and "policy")."""
    from ..core import players
    return players.resolve(controllers, match)


def typed(prompt: str) -> str:
    """A line the person types: ``input()``, with a closed standard input (``<&-``, some service managers) read as
    its end, as an empty file would be, instead of input()'s RuntimeError."""
    if sys.stdin is None:
        print(prompt, end="", flush=True)  # as input() shows it before it meets the end
        raise EOFError
    return input(prompt)


def say(text: str = "") -> None:
    console.print(text, highlight=False, markup=False, soft_wrap=True)


def _same(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return a == b


def check_outputs(force: bool = False, *, save: Optional[Path] = None, resume: Optional[Path] = None,
                  log: Optional[Path] = None, state: Optional[Path] = None, db: Optional[Path] = None,
                  svg: Optional[Path] = None, new_state: bool = True) -> None:
    """Every output path of a command, checked before any work (one line each on failure).

    A save that exists is refused unless it is the game being resumed: replacing another saved game would
    lose it (``--force`` replaces it anyway). A log, an assistant state file or a results database may be
    replaced or extended only when it is this program's own file of that kind. ``new_state=False``: an existing
    state file is read and continued (its reader checks it), not replaced."""
    if save is not None and not (resume is not None and _same(save, resume)):
        if save.exists() and files.owned(save, "save") and not force:
            fail(f"--save {save}: the file already exists (another saved game); choose another --save file, resume it "
                 f"with --resume {save}, or add --force to replace it")
        files.check_output(save, "save", "--save", force)
    elif resume is not None:
        files.check_folder(resume.parent, "--resume")  # 'save' and 'quit' write it back
    files.check_output(log, "log", "--log", force)
    if state is not None and not new_state and state.is_file():
        files.check_folder(state.parent, "--state")
    else:
        files.check_output(state, "assist", "--state", force)
    files.check_output(db, "db", "--db", force)
    if svg is not None:
        folder = files.check_folder(svg, "--svg", create=not svg.exists())
        for path in sorted(folder.glob("*.svg")):
            if re.fullmatch(r"(round-\d+|final)\.svg", path.name) and not force and not files.owned(path, "svg"):
                fail(f"--svg {svg}: {path.name} exists and is not a PaperRobot picture; refusing to replace it "
                     f"(choose another folder, or add --force)")


def program() -> str:
    """How the person started this program, to repeat in hints: ``./paperrobot`` through the launcher (it sets
    PAPERROBOT_PROGRAM; or the launcher next to the .venv this program runs from), else ``paperrobot``."""
    import os

    named = os.environ.get("PAPERROBOT_PROGRAM", "").strip()
    if named:
        return named
    argv0 = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if argv0 is not None and argv0.name == "paperrobot" and argv0.parent.name == "bin" \
            and argv0.parent.parent.name == ".venv":
        launcher = argv0.parent.parent.parent / "paperrobot"
        if launcher.is_file():
            try:
                shown = os.path.relpath(launcher)
            except ValueError:
                shown = str(launcher)
            return shown if "/" in shown else "./" + shown
    return "paperrobot"


def command_line() -> str:
    """The command as the person typed it, to repeat in a hint."""
    import shlex

    return program() + " " + shlex.join(ARGV) if ARGV else "the same command again"


__all__ = ["console", "fail", "say", "check_outputs", "force_option", "command_line", "program", "sys"]


# ------------------------------------------------------------------------------------ the handicap
PLANNER = "search:50"  # the search player whose balance sweep, where measured, is named beside the policy's


def show_handicap(game: str, setup: dict, opponent: str = "policy", front=None, person: bool = False) -> None:
    """Before a game: what the handicap gives (a line), or the measured even point as a suggestion; with ``person``
    (a person plays: ``play``), their own even handicap where their recorded games give one."""
    from ..sim.even_points import beyond, suggestion

    line = handicap_line(game, setup, front)
    if line:
        say(line)
        return
    if int(setup.get("handicap") or 0):
        return
    mine = _person_suggestion(game, setup) if person else None
    if mine is not None:
        say(mine)
        return
    point = suggestion(game, setup, opponent)
    if point is not None:
        # The figure is an opponent's even point, never a person's: say whose, and that a stronger player needs more.
        who = "PaperRobot's heuristic policy" if opponent == "policy" else f"the '{opponent}' rung"
        planner = suggestion(game, setup, PLANNER) if opponent == "policy" else None
        stronger = (f"; against its search player ({PLANNER}, which plans ahead and beats the policy clearly), "
                    f"--handicap {planner.h50:+.0f} {planner.unit}" + (f" (95% {planner.low:+.0f} to {planner.high:+.0f})"
                                                                        if planner.low is not None else "")
                    if planner is not None and planner.how == "sweep" else "")
        more = "A stronger player should give the robot more"
        if opponent == "policy" and not stronger:
            none = beyond(game, setup, PLANNER)
            stronger = f"; against its search player ({PLANNER}) {none}" if none else ""
            if none:  # more of this handicap stops helping somewhere below the planner's strength (Armada)
                more += ", though against a player that plans this handicap may not be enough at any size"
        say(f"Suggested difficulty: --handicap {point.h50:+.0f} makes an even fight for {who} ({point.text()}"
            f"{stronger}; docs/balance.md, docs/ladder.md). {more}; "
            f"'paperrobot rating' measures your own from your recorded games.")


def _person_suggestion(game: str, setup: dict) -> str | None:
    """The suggested difficulty from the person's own recorded games on the published ladder, or None."""
    from ..sim.person import suggestion_for

    report = suggestion_for(game, setup)
    if report is None:
        return None
    r = report.rating
    return (f"Suggested difficulty: --handicap {report.even_text()} makes the next game even for you (your rating "
            f"{r.rating:.0f}, 95% {r.low:.0f} to {r.high:.0f}, from your {report.used} recorded games on the "
            f"published ladder; 'paperrobot rating' says more, --no-record keeps a game out).")


def handicap_line(game: str, setup: dict, front=None) -> str:
    """One line saying what --handicap gives to whom, in the game's own terms: the game's hook (core/frontend.py;
    empty at 0), found through the registry."""
    if front is None:
        from ..core import registry
        from ..core.frontend import frontend_of
        front = frontend_of(registry.info(game))
    return front.handicap_line(setup)


# ------------------------------------------------------------------------------------ the robot rules
def check_resumed_rules(game: str, resume: Optional[Path], rules: Optional[str]) -> None:
    """--resume SAVE with --robot-rules FILE: refuse a file whose entries differ from the ones the save holds."""
    if resume is None or not rules:
        return
    from ..core import registry, robot_rules
    from ..core.save import read_match_save

    recorded = read_match_save(resume, game).setup.get("robot_rules") or ""
    robot_rules.check_same(recorded, str(rules), f"--resume {resume}", registry.info(game).robot_rules)
