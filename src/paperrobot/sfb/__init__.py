"""Star Fleet Battles, Cadet Training Handbook scenarios #4-#6 (plasma and cloak included), with the Cadet robot.

Registered with the game contract as "sfb" (``paperrobot.new_game("sfb", seed=..., scenario="5")``). Public API
(the command line, the simulator and the tests use only these names).
"""
from __future__ import annotations

from ..core import registry
from ..core.contract import drive_all
from ..core.events import EventLog
from ..core.outcome import Outcome
from ..core.robot_rules import setup_option as robot_rules_option
from . import procedure
from .data import load_scenarios, load_ships, scenario, ship_sheet
from .plasma_data import plasma_sources
from .energy import EnergyAllocation
from .game import SIDES, Game
from .setup import OPTIONS, build, new_engine
from .narrate import narrator
from .player import Policy
from .robot import Robot
from .state import MapItem, Ship

TITLE = "Star Fleet Battles Cadet"

__all__ = ["SIDES", "TITLE", "scenario_names", "scenario_title", "load_ships", "ship_sheet", "new_game", "narrator",
           "play_battle", "Robot", "Policy", "Game", "EnergyAllocation", "plasma_sources", "MapItem", "Ship"]


def scenario_names() -> list[str]:
    return sorted(load_scenarios())


def scenario_title(name: str) -> str:
    return scenario(name).title


def new_game(scenario: str = "5", *, seed: int, player_ship: str | None = None, robot_ship: str | None = None,
             player=None, opponent: str = "policy", ships_dir=None, log: EventLog | None = None,
             options: dict | None = None) -> Game:
    """An engine set up for tests and tools that reach inside: ``run()`` plays it to the end with ``player``
    (an object with ``decide``, answering in contract terms) or ``opponent`` ("policy" or "robot") on the
    player side. Front ends use ``paperrobot.new_game("sfb", ...)`` (a Match) instead."""
    from ..core.errors import UnknownName
    if opponent not in ("policy", "robot"):
        raise UnknownName("opponent", opponent, ("policy", "robot"))
    game = new_engine(scenario, seed, player_ship, robot_ship, ships_dir, log, options)
    if player is not None:
        game.player_controller = player
    else:
        game.controller("player", opponent)
    return game


def play_battle(seed: int, scenario: str = "5", opponent: str = "policy", robot_ship: str | None = None,
                player_ship: str | None = None, options: dict | None = None) -> Outcome:
    """One complete battle with the log disabled, built through the registry (picklable: ``simulate`` uses it)."""
    setup = dict(options or {})
    setup.update(scenario=str(scenario), player_ship=player_ship or "", robot_ship=robot_ship or "")
    match = registry.new_match("sfb", seed, None, **setup)
    return drive_all(match, {"player": opponent, "robot": "robot"})


def _assistant():
    from .assist import Assistant
    return Assistant()


def _asking():
    from .asking import SfbAsking
    return SfbAsking()


def _frontend():
    from .frontend import SfbFrontend
    return SfbFrontend()


def _ship_names() -> list[str]:
    return sorted(load_ships(None))


def _at_the_table(handicap: float, setup: dict) -> str:
    """SFB's handicap BPV as the shield boxes they buy ("5 shield boxes"): the registry's ``at_the_table``."""
    from ..core import handicap as hc
    from .setup import handicap_prices_for
    return hc.boxes_at_the_table(handicap, handicap_prices_for(setup.get("handicap_prices") or ""))


registry.register(registry.GameInfo(
    "sfb", TITLE, SIDES, "robot",
    options=(
        registry.SetupOption("scenario", "Cadet Training Handbook scenario (#4-#6, its #6 replays, or a free duel)",
                             "5", "choice", scenario_names),
        registry.SetupOption("player_ship", "the player side's ship (empty: the scenario's)", "", "text"),
        registry.SetupOption("robot_ship", "the robot's ship (empty: the scenario's)", "", "text"),
        registry.SetupOption("ships_dir", "a folder of your own ship files (empty: the built-in ships)", "", "text"),
        registry.SetupOption("impulses", "impulses per turn: 16, or 8 for seed 002's quick variant", 16, "choice",
                             OPTIONS["impulses"][::-1]),
        registry.SetupOption("tiebreak", "robot R3 tie-break: 'shields' (seed 000) or 'coin' (CTH)", "shields",
                             "choice", OPTIONS["tiebreak"]),
        registry.SetupOption("robots", "robot ships (scenario #4 allows up to 3; default: the scenario's)", None,
                             "int", low=1, high=3),
        registry.SetupOption("max_turns", "turns before the battle is a draw on time (default: the scenario's)", None,
                             "int", low=1, high=100),
        registry.SetupOption("plasma_f", "plasma-F: 'seed' (hold 0, starts armed) or 'cth' (hold 1, starts empty)",
                             "seed", "choice", OPTIONS["plasma_f"]),
        registry.SetupOption("evade", "robot R.CLOAK2-4 against 'cloak' (a cloaking enemy, seed 000) or any "
                             "'plasma'", "cloak", "choice", OPTIONS["evade"]),
        registry.SetupOption("handicap", "BPV for the robot as extra shield boxes (negative: for your side)", 0,
                             "int", low=-200, high=200),
        registry.SetupOption("handicap_prices", "your own price table for the handicap (a copy of "
                             "sfb/data/handicap.toml, edited; empty: the built-in one)", "", "text"),
        robot_rules_option(procedure.PROCEDURE),
    ),
    build=build, narrator=narrator, engine_version=1, ships=_ship_names, scenarios=scenario_names,
    assistant=_assistant, asking=_asking, handicap_unit="BPV", robot_rules=procedure.PROCEDURE,
    frontend=_frontend, at_the_table=_at_the_table))
