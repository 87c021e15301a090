"""Star Wars: Armada: the table, the rules engine and the "AI system for Imperials" v1.02 (seed 003)."""
from __future__ import annotations

from ..core import registry
from ..core.contract import Match, drive_all
from ..core.events import EventLog
from ..core.outcome import Outcome
from ..core.robot_rules import setup_option as robot_rules_option
from .assist import Assistant
from .data import catalogue, geometry, ship_spec, squadron_spec, tables, use_geometry
from .fleets import load_fleet
from .game import IMPERIAL, REBEL, Game, at_the_table
from .setup import DEFAULT_IMPERIAL, DEFAULT_REBEL, Setup
from .narrate import narrator
from .procedure import PROCEDURE
from .player import Policy
from .robot import Robot
from .svg import picture

NAME = "armada"


def _units() -> list[str]:
    ships, squads = catalogue()
    return list(ships) + list(squads)


def _frontend():
    from .frontend import ArmadaFrontend
    return ArmadaFrontend()


INFO = registry.register(registry.GameInfo(
    NAME, "Star Wars: Armada, the AI system for Imperials v1.02", Game.sides, Game.robot_side,
    options=(
        registry.SetupOption("imperial", "the Imperial fleet, e.g. 'victory-ii,gladiator-i,tie-fighter*4'",
                             DEFAULT_IMPERIAL, "text"),
        registry.SetupOption("rebel", "the Rebel fleet, e.g. 'cr90-a,nebulon-b-escort,x-wing*2'", DEFAULT_REBEL, "text"),
        registry.SetupOption("table", "the play area: standard (3'x6') or small (3'x3')", "standard", "choice",
                             ("standard", "small")),
        registry.SetupOption("evade_close", "RRG 1.5: evade rerolls a die at close range (no: the 2015 rules)",
                             True, "bool"),
        registry.SetupOption("ships_dir", "a folder of your own ship and squadron files ('' for none)", "", "text"),
        registry.SetupOption("geometry", "your own measurements: a copy of data/geometry.toml, edited ('' for the "
                                         "package's)", "", "text"),
        registry.SetupOption("handicap", "fleet points for the Imperial AI as extra squadrons (negative: Rebel "
                             "squadrons for your side)", 0, "int", low=-200, high=200),
        registry.SetupOption("handicap_prices", "your own price table for the handicap (a copy of "
                             "armada/data/handicap.toml, edited; empty: the built-in one)", "", "text"),
        robot_rules_option(PROCEDURE),
    ),
    build=Game.build, narrator=narrator, engine_version=2, ships=_units,
    handicap_unit="fleet points", robot_rules=PROCEDURE, frontend=_frontend,
    at_the_table=at_the_table))  # 2: issue #10 defence and deployment


def new_match(setup: Setup | None = None, seed: int = 1, log: EventLog | None = None) -> Match:
    """A match of this set-up through the registry (the set-up as its options)."""
    return registry.new_match(NAME, seed, log, **(setup or Setup()).to_options())


def new_game(setup: Setup | None = None, seed: int = 1, log: EventLog | None = None) -> Game:
    """A fresh engine (not started): for rule tests that place units by hand and drive parts of the sequence."""
    return new_match(setup, seed, log).engine


def play_options(seed: int, options: dict) -> Outcome:
    """One complete game of these set-up options, Imperial AI against the Rebel policy (simulations: a top-level
    function, picklable with functools.partial; each worker process builds its own match)."""
    return drive_all(registry.new_match(NAME, seed, None, **options), {IMPERIAL: "robot", REBEL: "policy"})


def play_battle(seed: int, setup: Setup | None = None, log: EventLog | None = None) -> Outcome:
    """One complete game, Imperial AI against the Rebel policy (picklable for simulations)."""
    return drive_all(new_match(setup, seed, log), {IMPERIAL: "robot", REBEL: "policy"})


__all__ = ["Game", "Setup", "Robot", "Policy", "new_game", "new_match", "play_battle", "play_options", "catalogue",
           "geometry", "ship_spec", "squadron_spec", "tables", "IMPERIAL", "REBEL", "Assistant", "use_geometry",
           "load_fleet", "narrator", "picture", "INFO"]
