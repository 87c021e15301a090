"""Federation Commander (squadron scale): the rules engine, the Robot Rules (seed 001), a player policy.

Public API for the front ends and simulations (they import nothing else of this package): the game is
registered with ``core.registry`` as "fc"; ``paperrobot.new_game("fc", seed=7, robot_ship="d7")`` gives a
match, ``play`` one silent game for simulations.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ..core import handicap as hc
from ..core import registry
from ..core.contract import drive_all
from ..core.dice import Dice
from ..core.errors import PaperRobotError, UnknownName
from ..core.events import EventLog
from ..core.hexgrid import Board
from ..core.outcome import Outcome
from ..core.robot_rules import setup_option as robot_rules_option
from .data import DATA, ShipSpec, Tables, handicap_prices_for, load_ships, load_tables, ship
from .game import Game
from .narrate import narrator
from . import procedure
from .player import Policy
from .robot import Robot

ROBOT_SHIPS = {"d7": "d7", "kzinti-bc": "kzinti-bc"}
SIDES = ["robot", "player"]
ENGINE_VERSION = 1  # bump when a change alters the course of recorded games

__all__ = ["Game", "Robot", "Policy", "Tables", "ShipSpec", "load_ships", "load_tables", "ship", "narrator",
           "build", "play", "parse_board", "SIDES", "ROBOT_SHIPS", "INFO"]


def build(seed: int = 1, log: EventLog | None = None, robot_ship: str = "d7", player_ship: str = "federation-ca",
          map: str = "floating", ships_dir: str | Path | None = "", tables_dir: str | Path | None = "",
          handicap: int = 0, handicap_prices: str | Path | None = "", dice: Dice | None = None,
          robot_rules: str | Path | None = "") -> Game:
    """A duel (the registry's engine factory): the robot flying ``robot_ship`` (it moves last) against
    ``player_ship``. Who flies each side is the match's business (``Match.play(controllers=...)``).
    ``handicap``: points of extra shield boxes for the robot (negative: for the player; core/handicap.py).
    ``robot_rules``: the robot's procedure, "" (published), a variant file's path or its text (core/robot_rules.py)."""
    if robot_ship not in ROBOT_SHIPS:
        raise UnknownName("FC robot ship", robot_ship, ROBOT_SHIPS)
    ships_dir, tables_dir = ships_dir or None, tables_dir or None
    dice = dice or Dice(seed)
    specs = {"robot": ship(robot_ship, ships_dir), "player": ship(player_ship, ships_dir)}
    setup = {"robot_ship": robot_ship, "player_ship": player_ship, "seed": seed, "map": map or "floating"}
    prices = handicap_prices_for(handicap_prices) if handicap or handicap_prices else None
    if handicap:
        side, points = hc.side_and_amount(handicap)
        specs[side] = with_boxes(specs[side], hc.units_for(points, prices.points_per_box))
        setup["handicap"] = handicap  # only when given, so a game without one logs what it always did
    rules = procedure.load(robot_rules)
    if robot_rules and rules.differs():  # only a variant (as the handicap): so the published file logs as ever
        setup["robot_rules"] = robot_rules_record(rules)
    return Game(specs, dice, log, load_tables(tables_dir), ("player", "robot"), setup, board=parse_board(map),
                robot_rules=rules)


def robot_rules_record(rules) -> dict:
    """What the setup event records of a variant: its digest, the first line, and the entries that differ."""
    return {"digest": rules.digest, "summary": rules.summary(),
            "differs": {name: rules.describe(name) for name in rules.differs()}}


def at_the_table(handicap: float, setup: dict) -> str:
    """The registry's ``at_the_table``: FC's handicap points as the shield boxes they buy ("5 shield boxes")."""
    return hc.boxes_at_the_table(handicap, handicap_prices_for(setup.get("handicap_prices") or ""))


def with_boxes(spec: ShipSpec, boxes: int) -> ShipSpec:
    """The ship card with ``boxes`` extra shield boxes spread over its six shields (what a player pencils in)."""
    return replace(spec, shields=hc.spread_boxes(spec.shields, boxes)) if boxes else spec


def parse_board(text: str | None) -> Board | None:
    """``"42x30"`` -> a fixed map of 42 columns and 30 rows; None or "floating" -> no edges."""
    if text is None or text == "floating":
        return None
    cols, sep, rows = str(text).lower().partition("x")
    if not sep or not cols.isdigit() or not rows.isdigit() or int(cols) < 8 or int(rows) < 26:
        raise PaperRobotError(f"'{text}' is not a map size; write COLSxROWS with at least 8 columns and 26 rows "
                              f"(e.g. 42x30), or 'floating'")
    return Board(int(cols), int(rows))


def play(seed: int, opponent: str = "policy", **setup) -> Outcome:
    """One silent game for simulations (picklable through functools.partial): the robot against the player
    policy (``opponent="policy"``) or a second robot (``"robot"``); ``setup`` as the registry's options."""
    if opponent not in ("policy", "robot"):
        raise UnknownName("FC opponent", opponent, ["robot", "policy"])
    match = registry.new_match("fc", seed, **setup)
    return drive_all(match, {"robot": "robot", "player": opponent})


def _assistant():
    from .assist import Assistant
    return Assistant()


def _frontend():
    from .frontend import FcFrontend
    return FcFrontend()


def _ships() -> list[str]:
    return sorted(load_ships())


INFO = registry.register(registry.GameInfo(
    name="fc", title="Federation Commander (squadron scale) against the Robot Rules",
    sides=tuple(SIDES), robot_side="robot",
    options=(
        registry.SetupOption("robot_ship", "the robot's ship (the Robot Rules fly a D7 or a Kzinti BC)", "d7",
                             choices=tuple(ROBOT_SHIPS)),
        registry.SetupOption("player_ship", "the other side's ship (a built-in ship or one of --ships-dir)",
                             "federation-ca", kind="text"),
        registry.SetupOption("map", "floating (no edges) or COLSxROWS, e.g. 42x30: leaving a fixed map disengages",
                             "floating", kind="text"),
        registry.SetupOption("ships_dir", "a folder of your own ship files (empty: the built-in ships)", "",
                             kind="text"),
        registry.SetupOption("tables_dir", "a folder of your own table files (empty: the built-in tables)", "",
                             kind="text"),
        registry.SetupOption("handicap", "points for the robot as extra shield boxes (negative: for your side)", 0,
                             kind="int", low=-300, high=300),
        registry.SetupOption("handicap_prices", "your own price table for the handicap (a copy of "
                             "fc/data/handicap.toml, edited; empty: the built-in one)", "", kind="text"),
        robot_rules_option(procedure.PROCEDURE),
    ),
    build=build, narrator=narrator, engine_version=ENGINE_VERSION, ships=_ships, assistant=_assistant,
    robot_rules=procedure.PROCEDURE, frontend=_frontend, at_the_table=at_the_table))
