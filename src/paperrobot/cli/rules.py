"""``paperrobot rules export GAME``: the robot's published procedure as data, to copy and edit (docs/robot-rules.md).

``rules check GAME FILE`` says whether a variant has the procedure's shape and which entries differ from the
published ones. Works for every game whose registry entry carries its procedure (``GameInfo.robot_rules``).
"""
from __future__ import annotations

import sys
from pathlib import Path

import typer

from .common import fail, say

rules_app = typer.Typer(no_args_is_help=True, help="The robot's procedure as data: export it, check a variant.")


def register(app: typer.Typer) -> None:
    app.add_typer(rules_app, name="rules")


def _procedure(game: str):
    import paperrobot

    known = paperrobot.games()
    if game not in known:
        fail(f"unknown game '{game}'; choose one of: {', '.join(known)}")
    procedure = paperrobot.game_info(game).robot_rules
    if procedure is None:
        with_rules = [g for g in known if paperrobot.game_info(g).robot_rules is not None]
        fail(f"{game}'s robot procedure is not data yet; the games whose is: {', '.join(with_rules) or 'none'}")
    return procedure


@rules_app.command("export")
def export(game: str = typer.Argument(..., help="The game whose robot procedure to write.")):
    """Write the published procedure (TOML) to stdout: paperrobot rules export fc > my-robot.toml"""
    sys.stdout.write(_procedure(game).export())


@rules_app.command("check")
def check(game: str = typer.Argument(..., help="The game of the procedure."),
          file: Path = typer.Argument(..., help="A robot rules file (a copy of 'rules export GAME', edited).")):
    """Check a variant's shape and list the entries that differ from the published procedure."""
    from ..core import robot_rules

    rules = robot_rules.load(_procedure(game), str(file))
    say(rules.summary())
