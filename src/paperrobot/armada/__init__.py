"""Star Wars: Armada: the table, the rules engine and the "AI system for Imperials" v1.02 (seed 003)."""
from __future__ import annotations

from ..core.dice import Dice
from ..core.events import EventLog
from ..core.outcome import Outcome
from .assist import Assistant
from .data import catalogue, geometry, ship_spec, squadron_spec, tables, use_geometry
from .fleets import load_fleet
from .narrate import narrator
from .svg import picture
from .game import IMPERIAL, REBEL, Game, Option, Setup
from .player import RebelPolicy
from .robot import ImperialAI


def new_game(setup: Setup, seed: int, rebel=None, log: EventLog | None = None) -> Game:
    dice = Dice(seed)
    return Game(setup, ImperialAI(dice), rebel or RebelPolicy(), dice, log)


def play_battle(seed: int, setup: Setup | None = None, log: EventLog | None = None) -> Outcome:
    """One complete game, Imperial AI against the Rebel policy (picklable for simulations)."""
    return new_game(setup or Setup(), seed, log=log).run()


__all__ = ["Game", "Setup", "Option", "ImperialAI", "RebelPolicy", "new_game", "play_battle", "catalogue",
           "geometry", "ship_spec", "squadron_spec", "tables", "IMPERIAL", "REBEL", "Assistant", "use_geometry",
           "load_fleet", "narrator", "picture"]
