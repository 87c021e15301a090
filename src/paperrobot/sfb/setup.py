"""Setting up an SFB battle: the set-up options checked, the ships loaded and placed at the scenario's starts,
the handicap pencilled onto the shields, the robot's procedure read; ``build`` is the registry's engine factory.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, cast

from ..core import handicap as hc
from ..core import hexgrid
from ..core.dice import Dice
from ..core.errors import PaperRobotError, UnknownName
from ..core.events import EventLog
from ..core.robot_rules import RobotRules
from . import procedure
from .data import ShipSpec, load_ships, scenario as get_scenario
from .game import Game
from .state import Ship

OPTIONS: dict[str, Any] = {"impulses": (8, 16), "tiebreak": ("shields", "coin"), "robots": (1, 2, 3), "max_turns": None,
           "plasma_f": ("seed", "cth"), "evade": ("cloak", "plasma")}


def build(seed: int = 1, log: EventLog | None = None, scenario: str = "5", player_ship: str = "",
          robot_ship: str = "", ships_dir: str = "", impulses: int = 16, tiebreak: str = "shields",
          robots: int | None = None, max_turns: int | None = None, plasma_f: str = "seed",
          evade: str = "cloak", handicap: int = 0, handicap_prices: str = "",
          robot_rules: str = "") -> Game:
    """The registry's engine factory: every set-up option by name (core.registry checks them first);
    ``robots`` and ``max_turns`` None: the scenario's; ``handicap``: BPV of extra shield boxes for the
    robot's side (negative: the player's; core/handicap.py); ``robot_rules``: the robot's procedure, ""
    (published), a variant file's path or its text (core/robot_rules.py)."""
    options = {"impulses": impulses, "tiebreak": tiebreak, "plasma_f": plasma_f, "evade": evade}
    if robots is not None:
        options["robots"] = robots
    if max_turns is not None:
        options["max_turns"] = max_turns
    return new_engine(str(scenario), seed, player_ship or None, robot_ship or None, ships_dir or None, log,
                      options, handicap, handicap_prices, robot_rules)


def new_engine(scenario: str = "5", seed: int = 1, player_ship: str | None = None, robot_ship: str | None = None,
               ships_dir: str | Path | None = None, log: EventLog | None = None, options: dict[str, Any] | None = None, handicap: int = 0,
               handicap_prices: str = "", robot_rules: str = "") -> Game:
    """Set up a battle from a scenario file: the ships at their starts, equipped; the "setup" event is the
    first of the sequence of play (it names who flies each side)."""
    sc = get_scenario(str(scenario))
    opts = check_options(dict(options or {}))
    ships = load_ships(Path(ships_dir) if ships_dir else None)
    pspec = _ship(ships, player_ship or sc.player.ship)
    rspec = _ship(ships, robot_ship or sc.robot.ship)
    count = int(opts.get("robots", sc.robot.count))
    if count > sc.robot.max_count:
        raise PaperRobotError(f"scenario {sc.name} allows at most {sc.robot.max_count} robot ship(s), not {count}")
    impulses = int(opts.get("impulses", sc.impulses))
    extra = {"player": 0, "robot": 0}  # extra shield boxes of each side (the handicap)
    prices = handicap_prices_for(handicap_prices) if handicap or handicap_prices else None
    if handicap:
        side, points = hc.side_and_amount(handicap)
        assert prices is not None
        extra[side] = hc.units_for(points, prices.points_per_box)
        pspec = with_boxes(pspec, extra["player"])
    state: list[Ship] = []
    start = sc.player.start[0]
    pname = pspec.name
    pship = Ship.build(pname, "player", pspec, hexgrid.parse(start.hex), hexgrid.facing_index(start.facing), False)
    pship.speed = sc.previous_speed
    state.append(pship)
    for i in range(count):
        start = sc.robot.start[i]
        named = sc.robot.names and count > 1 and rspec.name == sc.robot.ship  # War, Fire, Death in #4
        base = sc.robot.names[i] if named else (rspec.name if count == 1 else f"{rspec.name}-{i + 1}")
        rname = base if base != pname else base + "-robot"
        share = extra["robot"] // count + (1 if i < extra["robot"] % count else 0)  # split over the robot ships
        rship = Ship.build(rname, "robot", with_boxes(rspec, share), hexgrid.parse(start.hex), hexgrid.facing_index(start.facing), True)
        rship.speed = sc.previous_speed
        state.append(rship)
    for ship in state:
        ship.equip(opts.get("plasma_f", "seed"))
    rules = procedure.load(robot_rules)
    game = Game(sc, state, Dice(seed), log, opts, seed, rules)
    game.setup_options = opts
    if robot_rules and rules.differs():  # only a variant (as the handicap): so the published file logs as ever
        game.robot_rules_record = robot_rules_record(rules)
    if impulses == 8:
        for ship in state:
            ship.speed = min(ship.speed, 8)
    return game


def robot_rules_record(rules: RobotRules) -> dict[str, Any]:
    """What the setup event records of a variant: its digest, the first line, and the entries that differ."""
    return {"digest": getattr(rules, "digest"), "summary": rules.summary(),
            "differs": {name: rules.describe(name) for name in rules.differs()}}


def handicap_prices_for(path: str | None = "") -> hc.ShieldBoxPrices:
    """SFB's price of a shield box in BPV (data/handicap.toml), or the person's own table."""
    return cast(hc.ShieldBoxPrices, hc.load_prices(Path(__file__).parent / "data" / hc.PRICES, path or None,
                                                  hc.ShieldBoxPrices))


def with_boxes(spec: ShipSpec, boxes: int) -> ShipSpec:
    """The ship sheet with ``boxes`` extra shield boxes spread over its six shields (pencilled onto the SSD)."""
    return spec.model_copy(update={"shields": list(hc.spread_boxes(spec.shields, boxes))}) if boxes else spec


def check_options(options: dict[str, Any]) -> dict[str, Any]:
    clean = {}
    for key, value in options.items():
        if key not in OPTIONS:
            raise UnknownName("option", key, OPTIONS)
        allowed = OPTIONS[key]
        if key == "max_turns":
            if not isinstance(value, int) or value < 1:
                raise PaperRobotError(f"option max_turns must be a whole number of turns, 1 or more, not {value!r}")
        elif value not in allowed:
            raise PaperRobotError(f"option {key} must be one of {', '.join(str(a) for a in allowed)}, not {value!r}")
        clean[key] = value
    return clean


def _ship(ships: dict[str, ShipSpec], name: str) -> ShipSpec:
    if name not in ships:
        raise UnknownName("ship", name, ships)
    return ships[name]
