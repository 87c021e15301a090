"""``paperrobot play GAME``: a person against the robot in the terminal, for every registered game.

The set-up flags are the registry's (cli/setup_flags.py); the loop is cli/terminal.py; what is shown before each
question, the extra words and the pictures are the game's hooks (core/frontend.py), through cli/front.py.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import paperrobot

from ..core.events import EventLog
from ..core.frontend import Frontend, frontend_of
from . import setup_flags
from .common import NO_RECORD_HELP, FORCE_HELP, check_outputs, check_resumed_rules, fail, program, say, show_handicap, typed
from .front import HookFront
from .terminal import TerminalPlay
from .verbs import GameGroup, make, option


def has_pictures(hooks) -> bool:
    return type(hooks).pictures is not Frontend.pictures


def person_side(info) -> str:
    return next((s for s in info.sides if s != info.robot_side), info.sides[0])


def game_over(info, hooks, outcome) -> str:
    if outcome.winner is None:
        who = "a draw"
    elif outcome.winner == person_side(info):
        who = "you win"
    elif outcome.winner == info.robot_side:
        who = "the robot wins"
    else:
        who = f"{outcome.winner} wins"
    return f"Game over: {who} ({outcome.result}) after {outcome.turns} {hooks.turns}."


def write_log(events: EventLog, path: Path) -> None:
    if path.parent and not path.parent.exists():
        fail(f"{path}: the folder {path.parent} does not exist")
    events.write(path)
    say(f"Log written to {path}; narrate it again with '{program()} replay {path}'")


def build(info):
    hooks = frontend_of(info)
    parameters = setup_flags.params(info, hooks) + [
        option("seed", 1, int, help="Seed for the dice."),
        option("save", None, Optional[Path], help="Save file, written after every answer."),
        option("resume", None, Optional[Path], help="Resume a saved game (and keep saving to it)."),
        option("log", None, Optional[Path], help="Write the event log here at the end."),
    ]
    if has_pictures(hooks):
        parameters.append(option("svg", None, Optional[Path], help="Write a picture of the table after each round "
                                                                   "into this folder."))
    parameters += [option("force", False, bool, help=FORCE_HELP),
                   option("no_record", False, bool, "--no-record", help=NO_RECORD_HELP)]

    def body(**kwargs):
        run(info, setup_flags.given(kwargs), **kwargs)
    return make(body, parameters, f"Play {info.title} in the terminal; the game is saved after every answer ('quit' "
                                  f"stops, 'undo' takes back, 'help' lists every word).")


def run(info, values: dict, seed: int, save: Optional[Path], resume: Optional[Path], log: Optional[Path],
        force: bool, no_record: bool, svg: Optional[Path] = None, input_fn=typed) -> None:
    game = info.name
    check_outputs(force, save=save, resume=resume, log=log, svg=svg)
    if save and resume and save != resume:
        fail("give --save or --resume, not both (a resumed game keeps saving to its own file)")
    hooks = frontend_of(info)
    setup = setup_flags.setup_of(info, hooks, values)
    check_resumed_rules(game, resume, setup.get("robot_rules"))
    if not resume:
        show_handicap(game, setup, "policy", hooks, person=True)
        paperrobot.new_game(game, seed=seed, **setup)  # a bad set-up fails before the first question

    class Session(TerminalPlay):
        pictures = None

        def _log(self):  # every log of the match (new, resumed, rebuilt by undo) also draws the pictures
            events = super()._log()
            if svg:
                Session.pictures = hooks.pictures(svg, setup)
                events.listeners.append(Session.pictures.see)
            return events

    session = Session(game, HookFront(info, hooks), lambda events: paperrobot.new_game(game, seed=seed, log=events,
                                                                                       **setup),
                      save_path=save, resume=resume, input_fn=input_fn, record=not no_record)
    for line in hooks.intro(session.match.setup):
        say(line)
    if session.resumed:
        say(f"Resuming {session.save_path}: replaying {len(session.match.answers)} answers.")
    outcome = session.run()
    if Session.pictures is not None and Session.pictures.count:
        say(f"Pictures written to {svg}/ ({Session.pictures.count} files)")
    if outcome is None:
        return
    say(game_over(info, hooks, outcome))
    if log:
        write_log(session.match.log, log)


class PlayGroup(GameGroup):
    build = staticmethod(build)
