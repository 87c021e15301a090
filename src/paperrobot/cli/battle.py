"""``paperrobot battle GAME``: one narrated battle, robot against an opponent, for every registered game."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import paperrobot

from ..core.contract import drive_all
from ..core.events import EventLog
from ..core.frontend import frontend_of
from . import setup_flags
from .common import FORCE_HELP, OPPONENT_HELP, check_opponent, check_outputs, say, show_handicap, with_players
from .front import narrate_to_console
from .play import has_pictures, write_log
from .verbs import GameGroup, make, option


def controllers(info, opponent: str) -> dict:
    """The robot on its side, ``opponent`` on every other."""
    return {side: ("robot" if side == info.robot_side else opponent) for side in info.sides}


def build(info):
    hooks = frontend_of(info)
    parameters = setup_flags.params(info, hooks) + [
        option("seed", 1, int, help="Seed for the dice; the same seed gives the same battle."),
        option("opponent", "policy", str, help=OPPONENT_HELP),
        option("log", None, Optional[Path], help="Write the event log (JSON lines) here, for 'paperrobot replay'."),
        option("decisions", False, bool, help="Narrate only the robot's decisions."),
        option("maps", True, bool, "--maps/--no-maps", help="Draw the map at the start and the end (where the game "
                                                            "has a text map)."),
        option("quiet", False, bool, help="Only the result line."),
    ]
    if has_pictures(hooks):
        parameters.append(option("svg", None, Optional[Path], help="Write a picture of the table after each round "
                                                                   "into this folder."))
    parameters.append(option("force", False, bool, help=FORCE_HELP))

    def body(**kwargs):
        run(info, setup_flags.given(kwargs), **kwargs)
    return make(body, parameters, f"Watch one narrated battle of {info.title}: every robot decision with its rule "
                                  f"ID and dice.")


def run(info, values: dict, seed: int, opponent: str, log: Optional[Path], decisions: bool, maps: bool, quiet: bool,
        force: bool, svg: Optional[Path] = None) -> None:
    game = info.name
    check_outputs(force, log=log, svg=svg)
    check_opponent(opponent)
    hooks = frontend_of(info)
    setup = setup_flags.setup_of(info, hooks, values)
    if not quiet:
        show_handicap(game, setup, opponent, hooks)
    events = EventLog()
    pictures = hooks.pictures(svg, setup) if svg else None
    if pictures is not None:
        events.listeners.append(pictures.see)
    if not quiet:
        events.listeners.append(narrate_to_console(info, decisions, hooks.decision_kinds))
    match = paperrobot.new_game(game, seed=seed, log=events, **setup)
    maps = maps and not quiet
    if maps:
        _draw(hooks.battle_title(match.setup, seed), hooks.map_lines(match.engine, whole=True))
    outcome = drive_all(match, with_players(match, controllers(info, opponent)))
    if maps:
        _draw("Final positions", hooks.map_lines(match.engine, whole=True))
    winner = "draw" if outcome.winner is None else f"{outcome.winner} wins"
    say(f"Result: {winner} ({outcome.result}) after {outcome.turns} {hooks.turns}")
    if log:
        write_log(events, log)
    if pictures is not None:
        say(f"Pictures written to {svg}/ ({pictures.count} files)")


def _draw(title: str, lines: list[str]) -> None:
    if not lines:
        return
    say(title)
    for line in lines:
        say(line)


class BattleGroup(GameGroup):
    build = staticmethod(build)
