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
GAME_MODULES: dict = {}  # game name -> its cli module (filled by main)
ARGV: list[str] = []  # the command line as typed (filled by main), for "resume with ..." hints

FORCE_HELP = ("Replace an existing file even if it is not this program's own file of that kind "
              "(without it such a file is never touched).")


def force_option():
    return typer.Option(False, "--force", help=FORCE_HELP)


def fail(message: str) -> NoReturn:
    """Stop the command with one line on stderr and exit code 2."""
    raise PaperRobotError(message)


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


def command_line() -> str:
    """The command as the person typed it, to repeat in a hint."""
    import shlex

    return "paperrobot " + shlex.join(ARGV) if ARGV else "the same command again"


__all__ = ["console", "fail", "say", "check_outputs", "force_option", "command_line", "GAME_MODULES", "sys"]


# ------------------------------------------------------------------------------------ the handicap
HANDICAP_HELP = ("Handicap in the game's points for the robot (negative: for your side), given as {what}; "
                 "0 is the published game. Measured even points: {even}.")


def handicap_option(game: str, what: str):
    """``--handicap N``, its help naming the mechanism and the measured even points (sim/even_points.toml)."""
    from ..sim.even_points import listing

    return typer.Option(0, "--handicap", help=HANDICAP_HELP.format(what=what, even=listing(game)))


def prices_option():
    return typer.Option(None, "--handicap-prices", help="Your own price table for the handicap (a copy of the "
                        "game's data/handicap.toml, edited); see docs/balance.md.")


def handicap_setup(game: str, handicap: int, prices: Optional[Path]) -> dict:
    """The set-up options of --handicap and --handicap-prices (checked against the registry: one line if wrong)."""
    from ..core import registry

    info = registry.info(game)
    setup = {"handicap": info.option("handicap").check(handicap)}
    if prices is not None:
        setup["handicap_prices"] = str(Path(prices).resolve())  # absolute: a save resumes from another folder
    return setup


def show_handicap(game: str, setup: dict, opponent: str = "policy") -> None:
    """Before a game: what the handicap gives (a line), or the measured even point as a suggestion."""
    from ..sim.even_points import suggestion

    line = handicap_line(game, setup)
    if line:
        say(line)
        return
    point = suggestion(game, setup, opponent)
    if point is not None:
        who = "heuristic policy" if opponent == "policy" else "robot itself"
        say(f"Suggested difficulty: --handicap {point.h50:+.0f}, the even point measured against PaperRobot's {who} "
            f"({point.text()}; docs/balance.md).")


def handicap_line(game: str, setup: dict) -> str:
    """One line saying what --handicap gives to whom, in the game's own terms (empty at 0)."""
    handicap = int(setup.get("handicap") or 0)
    if not handicap:
        return ""
    from ..core import handicap as hc

    prices_path = setup.get("handicap_prices") or ""
    if game == "armada":
        from ..armada.data import catalogue
        from ..armada.game import handicap_prices

        prices = handicap_prices(prices_path)
        who, points = hc.side_and_amount(handicap)
        unit = prices.robot_unit if who == "robot" else prices.player_unit
        card = catalogue(setup.get("ships_dir") or None)[1][unit].points
        side = "the Imperial AI" if who == "robot" else "your Rebel fleet"
        return (f"Handicap {handicap:+d} fleet points: {side} gets {hc.units_for(points, card)} extra {unit} "
                f"squadrons ({card} points each), on top of its fleet")
    if game == "fc":
        from ..fc import handicap_prices_for
        return hc.describe_boxes(handicap, handicap_prices_for(prices_path), "points")
    from ..sfb.game import handicap_prices_for
    return hc.describe_boxes(handicap, handicap_prices_for(prices_path), "BPV")
