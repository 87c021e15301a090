"""The FC engine's declared fields: what every part of the engine class (lookups.py, end_of_turn.py, damage.py,
fire.py, game.py) may read, with its type.

The parts are one chain of plain classes, ``Game(Fire(Damage(EndOfTurn(Lookups(GameBase)))))`` (the order the mixins
had: every method resolves as before), which mypyc compiles into one native class (docs/speed.md, "Compiled, fourth
step"). A part reading a field another part sets, or calling a method of a part after it in the chain, is checked
by mypy through the declarations here. The fields are annotations only; ``Game.__init__`` sets them
(``snapshot.build`` for a restored engine). The methods below raise NotImplementedError: the part named beside
each overrides it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Generator

from ..core.dice import Dice
from ..core.events import EventLog
from ..core.hexgrid import Board, Hex
from .data import RulesTable, Tables
from .state import Drone, Ship, Weapon

if TYPE_CHECKING:
    from ..core.contract import Request

# What the engine's steps are: generators yielding requests, resumed with the parsed answer (a Decision)
Steps = Generator["Request", Any, None]


class GameBase:
    """The fields of one FC duel's engine (set in game.Game.__init__; restored by snapshot.build)."""

    robot_rules: Any  # the robot's procedure (core.robot_rules.RobotRules; None: published)
    tables: Tables
    rules: RulesTable
    dice: Dice
    log: EventLog
    order: tuple[str, str]  # (first mover, last mover)
    board: Board | None  # None: the floating map (no edges)
    ships: dict[str, Ship]
    drones: list[Drone]
    weapon_index: dict[str, dict[str, Weapon]]
    arms: dict[str, dict[str, tuple[Weapon, ...]]]  # side -> kind -> weapons, in the card's order
    arm_slots: dict[str, dict[str, tuple[int, ...]]] | None  # the same as places on the card (snapshot.py)
    forms: dict[Any, Any]  # per-ship forms and name sets of the requests, built once
    in_process: set[str]
    standing: dict[str, dict[str, Any]]
    standing_accel: dict[str, str]
    routed: set[str]
    moves: dict[str, tuple[str, ...]]
    _turn_modes: dict[tuple[str, int], int]
    view_fns: dict[str, Callable[[], dict[str, Any]]]
    enemies: dict[str, Ship]
    costs: dict[Any, float | None]  # weapon_cost's memo: by an int packing kind, arming, mode and range (or a tuple)
    turn: int
    impulse: int
    subpulse: int
    phase: str
    boundary: Callable[[], None] | None
    max_turns: int
    setup: dict[str, Any]
    over: bool
    _drone_count: int
    pending_reasons: list[Any]
    rec: bool  # events are recorded (sequence() turns it off for a silent game)
    start_internal: dict[str, int]

    def emit(self, kind: str, side: str = "", **data: Any) -> None:
        if self.rec:
            self.log.emit(kind, self.turn, self.impulse, side, **data)

    # ------------------------------------------------------------------ parts later in the chain
    def view(self, side: str) -> dict[str, Any]:  # game.py
        raise NotImplementedError

    def apply_volley(self, ship: Ship, damage: int, shield: int, kind: str) -> Steps:  # damage.py
        raise NotImplementedError

    def defensive_fire(self) -> Steps:  # fire.py
        raise NotImplementedError

    def offensive_fire(self) -> Steps:  # fire.py
        raise NotImplementedError

    def launch_step(self) -> Steps:  # fire.py
        raise NotImplementedError
