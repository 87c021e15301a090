"""Star Fleet Battles, Cadet Training Handbook scenarios #4-#6 (plasma and cloak included), with the Cadet robot.

Public API (the command line and the simulator use only these names).
"""
from __future__ import annotations

from pathlib import Path

from ..core import hexgrid
from ..core.controller import Controller
from ..core.dice import Dice
from ..core.errors import PaperRobotError, UnknownName
from ..core.events import EventLog
from ..core.outcome import Outcome
from .choices import Choice, Option, decode_answer, encode_answer
from .data import ShipSpec, load_scenarios, load_ships, scenario, ship_sheet
from .energy import EnergyAllocation, describe_energy, edit_energy
from .game import Game
from .narration import narrator
from .plasma_play import equip
from .player import PlayerPolicy
from .robot import RobotController
from .state import MapItem, Ship

SIDES = ("player", "robot")
OPTIONS = {"impulses": (8, 16), "tiebreak": ("shields", "coin"), "robots": (1, 2, 3), "max_turns": None,
           "plasma_f": ("seed", "cth"), "evade": ("cloak", "plasma")}

__all__ = ["SIDES", "scenario_names", "scenario_title", "load_ships", "ship_sheet", "new_game", "narrator",
           "encode_answer", "decode_answer", "play_battle", "RobotController", "PlayerPolicy", "Option", "Choice",
           "EnergyAllocation", "edit_energy", "describe_energy", "plasma_sources"]


def plasma_sources() -> list[tuple[str, str]]:
    """(plasma type, arming source; warhead source) of every plasma type, for ``paperrobot data``."""
    from .plasma import tables
    return [(name, f"{spec.source}; warhead: {spec.warhead_source}") for name, spec in tables().types.items()]


def scenario_names() -> list[str]:
    return sorted(load_scenarios())


def scenario_title(name: str) -> str:
    return scenario(name).title


def _check_options(options: dict) -> dict:
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


def new_game(scenario: str = "5", *, seed: int, player_ship: str | None = None, robot_ship: str | None = None,
             player: Controller | None = None, opponent: str = "policy", ships_dir=None,
             log: EventLog | None = None, options: dict | None = None) -> Game:
    """Set up a battle; the first event is "setup" with everything needed to rebuild it."""
    from .data import scenario as get_scenario
    sc = get_scenario(str(scenario))
    if opponent not in ("policy", "robot"):
        raise UnknownName("opponent", opponent, ("policy", "robot"))
    opts = _check_options(dict(options or {}))
    ships = load_ships(Path(ships_dir) if ships_dir else None)
    pspec = _ship(ships, player_ship or sc.player.ship)
    rspec = _ship(ships, robot_ship or sc.robot.ship)
    count = int(opts.get("robots", sc.robot.count))
    if count > sc.robot.max_count:
        raise PaperRobotError(f"scenario {sc.name} allows at most {sc.robot.max_count} robot ship(s), not {count}")
    impulses = int(opts.get("impulses", sc.impulses))
    player_robot = player is None and opponent == "robot"
    state: list[Ship] = []
    start = sc.player.start[0]
    pname = pspec.name
    pship = Ship.build(pname, "player", pspec, hexgrid.parse(start.hex), hexgrid.facing_index(start.facing),
                       player_robot)
    pship.speed = sc.previous_speed
    state.append(pship)
    for i in range(count):
        start = sc.robot.start[i]
        named = sc.robot.names and count > 1 and rspec.name == sc.robot.ship  # War, Fire, Death in #4
        base = sc.robot.names[i] if named else (rspec.name if count == 1 else f"{rspec.name}-{i + 1}")
        rname = base if base != pname else base + "-robot"
        rship = Ship.build(rname, "robot", rspec, hexgrid.parse(start.hex), hexgrid.facing_index(start.facing), True)
        rship.speed = sc.previous_speed
        state.append(rship)
    log = log if log is not None else EventLog(enabled=False)
    for ship in state:
        equip(ship, opts.get("plasma_f", "seed"))
    game = Game(sc, state, Dice(seed), log, opts)
    tiebreak = opts.get("tiebreak", "shields")
    for ship in state:
        if ship.side == "robot" or player_robot:
            game.controllers[ship.name] = RobotController(game, ship, tiebreak)
        else:
            game.advisors[ship.name] = PlayerPolicy(game, ship)
            game.controllers[ship.name] = player if player is not None else game.advisors[ship.name]
            if player is None:
                game.fast.add(ship.name)
    if impulses == 8:
        for ship in state:
            ship.speed = min(ship.speed, 8)
    log.emit("setup", 0, 0, "", game="sfb", scenario=sc.name, seed=seed,
             ships={s.name: {"side": s.side, "spec": s.spec.name, "hex": hexgrid.label(s.hex),
                             "facing": hexgrid.facing_letter(s.facing), "robot": s.robot} for s in state},
             options=opts, opponent="person" if player is not None else opponent)
    return game


def play_battle(seed: int, scenario: str = "5", opponent: str = "policy", robot_ship: str | None = None,
                player_ship: str | None = None, options: dict | None = None) -> Outcome:
    """One complete battle with the log disabled (picklable; used by ``simulate``)."""
    return new_game(scenario, seed=seed, player_ship=player_ship, robot_ship=robot_ship, opponent=opponent,
                    options=options).run()
