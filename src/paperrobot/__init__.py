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

from importlib import import_module
from typing import Any

__version__ = "0.2.0"

GAME_PACKAGES = ("armada", "fc", "sfb")  # each registers itself with core.registry when imported


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
