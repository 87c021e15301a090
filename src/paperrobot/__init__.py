"""PaperRobot: published paper-robot rules for solo starship wargames, as software.

The game contract (see docs/contract.md):

    import paperrobot
    paperrobot.games()                                  # ("armada", "fc", "sfb")
    match = paperrobot.new_game("sfb", seed=7, scenario="5")
    steps = match.play()                                # the robot flies its side; yields the rest
    request = next(steps)
    request = steps.send(request.options[0])            # StopIteration.value is the Outcome
"""
from __future__ import annotations

import sys as _sys

# The program itself (not a program importing PaperRobot): Ctrl-C while starting is one line (cli/__init__). First,
# before _native's imports (pathlib, hashlib): a signal that came during them was a traceback. cli/__init__ imports
# only os, sys and the built-in _signal, and holds no compiled module, so _native's choice below is unaffected.
if _sys.argv[:1] and _sys.argv[0].rsplit("/", 1)[-1] in ("paperrobot", "-m"):
    from . import cli as _cli  # noqa: F401

from . import _native  # noqa: F401  (compiled modules or pure Python, decided before any of them is imported)

from importlib import import_module
from typing import Any

from ._version import __version__  # noqa: E402  (the one source)

GAME_PACKAGES = ("armada", "fc", "sfb")  # each registers itself with core.registry when imported
PLAYER_PACKAGES = ("paperrobot.sim.search",)  # each registers named players ("search:N") with core.players when
#                                              imported: the first time a name beyond "robot"/"policy" is looked up


def _provide_players() -> None:  # the root names the layers above core, so core never names sim
    from .core import players
    players.provide(*PLAYER_PACKAGES)


_provide_players()


def _load() -> dict:
    from .core import registry
    for name in GAME_PACKAGES:
        import_module(f"{__name__}.{name}")
    return registry.registered()


def games() -> tuple[str, ...]:
    """The names of the registered games."""
    return tuple(sorted(_load()))


def game_info(name: str):
    """A game's registry entry: title, sides, set-up options, ships, scenarios."""
    _load()
    from .core import registry
    return registry.info(name)


def new_game(name: str, seed: int = 1, log: Any = None, dice: str = "program", **setup: Any):
    """A new match of game ``name``; every set-up option has a default. ``dice="table"`` asks the person for
    every die (a "roll" request), for play with real dice."""
    _load()
    from .core import registry
    return registry.new_match(name, seed, log, dice, **setup)
