"""Federation Commander (squadron scale): the rules engine, the Robot Rules (seed 001), a player policy.

Public API for the front ends and simulations (they import nothing else of this package).
"""
from __future__ import annotations

from pathlib import Path

from ..core.dice import Dice
from ..core.errors import PaperRobotError
from ..core.hexgrid import Board
from ..core.events import EventLog
from ..core.outcome import Outcome
from .data import ShipSpec, Tables, load_ships, load_tables, ship
from .game import Game
from .narrate import narrator
from .player import Policy
from .robot import Robot

ROBOT_SHIPS = {"d7": "d7", "kzinti-bc": "kzinti-bc"}
SIDES = ["robot", "player"]

__all__ = ["Game", "Robot", "Policy", "Tables", "ShipSpec", "load_ships", "load_tables", "ship", "narrator",
           "make_game", "play", "parse_board", "SIDES", "ROBOT_SHIPS"]


def make_game(seed: int, robot: str = "d7", opponent_ship: str = "federation-ca", opponent: str = "policy",
              log: EventLog | None = None, ships_dir: str | Path | None = None, tables_dir: str | Path | None = None,
              player_controller=None, dice: Dice | None = None, board: str | None = None) -> Game:
    """A duel: the robot flying ``robot`` (moves last) against ``opponent_ship`` flown by the policy, a second
    robot, or ``player_controller`` (a person)."""
    if robot not in ROBOT_SHIPS:
        from ..core.errors import UnknownName
        raise UnknownName("FC robot ship", robot, ROBOT_SHIPS)
    dice = dice or Dice(seed)
    specs = {"robot": ship(robot, ships_dir), "player": ship(opponent_ship, ships_dir)}
    if player_controller is not None:
        other = player_controller
    elif opponent == "robot":
        other = Robot(dice)
    elif opponent == "policy":
        other = Policy()
    else:
        from ..core.errors import UnknownName
        raise UnknownName("FC opponent", opponent, ["robot", "policy"])
    flown_by = "you" if player_controller is not None else opponent
    setup = {"robot_ship": robot, "opponent_ship": opponent_ship, "opponent": flown_by, "seed": seed,
             "map": board or "floating"}
    return Game(specs, {"robot": Robot(dice), "player": other}, dice, log, load_tables(tables_dir),
                ("player", "robot"), setup, board=parse_board(board))


def parse_board(text: str | None) -> Board | None:
    """``"42x30"`` -> a fixed map of 42 columns and 30 rows; None or "floating" -> no edges."""
    if text is None or text == "floating":
        return None
    cols, sep, rows = str(text).lower().partition("x")
    if not sep or not cols.isdigit() or not rows.isdigit() or int(cols) < 8 or int(rows) < 26:
        raise PaperRobotError(f"'{text}' is not a map size; write COLSxROWS with at least 8 columns and 26 rows "
                              f"(e.g. 42x30), or 'floating'")
    return Board(int(cols), int(rows))


def play(seed: int, robot: str = "d7", opponent_ship: str = "federation-ca", opponent: str = "policy",
         ships_dir: str | None = None, tables_dir: str | None = None, board: str | None = None) -> Outcome:
    """One silent game (picklable through functools.partial) for simulations."""
    return make_game(seed, robot, opponent_ship, opponent, None, ships_dir, tables_dir, board=board).run()
