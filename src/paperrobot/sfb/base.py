"""The SFB engine's declared fields: what every part of the engine class (geometry.py, requests.py, combat.py,
plasma_play.py, cloning.py, victory.py, energy_phase.py, impulse.py, game.py) may read, with its type.

The parts are one chain of classes, ``Game(ImpulseSteps(EnergyPhase(Victory(Cloning(PlasmaCloakSteps(Combat(Requests(
Geometry(GameBase)))))))))``: mypyc compiles it into one native class (docs/speed.md, "Compiled, second step"). A
part reading a field another part sets, or calling a method of a part after it in the chain, is checked by mypy
through the declarations here. The fields are annotations only; ``Game.__init__`` sets them (``Game.share`` and ``cloning.Cloning.restore`` for a restored engine).
The methods below raise NotImplementedError: the part named beside each overrides it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Generator

from ..core.dice import Dice
from ..core.events import EventLog
from ..core.hexgrid import Board, Hex
from ..core.outcome import Outcome
from ..core.robot_rules import RobotRules
from .data import ScenarioSpec
from .plasma import Plasma
from .procedure import Numbers
from .state import Drone, Ship, Weapon

if TYPE_CHECKING:
    from ..core.contract import Request
    from .game import Game
    from .player import Policy
    from .requests import ShipAsks
    from .robot import Robot

# What a shot may aim at: a ship or a seeking weapon
Target = Ship | Drone | Plasma
# A move's state for the map-edge rule: (q, r, facing, hexes moved straight since the last turn)
EdgeState = tuple[int, int, int, int]


class GameBase:
    """The fields of one battle's engine (set in game.Game.__init__; restored by cloning.Cloning.restore)."""

    # set-up
    scenario: ScenarioSpec
    seed: int
    options: dict[str, Any]
    setup_options: dict[str, Any]  # the options as given (the "setup" event shows them)
    impulses: int
    max_turns: int
    tiebreak: str
    board: Board
    cells: frozenset[Hex]  # every hex of the map
    cols: int  # the map's size (Geometry.on_map: the test ``in cells`` as arithmetic)
    rows: int
    edges: frozenset[Hex]  # the map-edge hexes (SFB.R3.MAP)
    objective: Hex | None
    chart: tuple[tuple[bool, ...], ...]  # movement.move_chart: chart[speed][impulse]
    quarter: int  # E1.5 firing-rate spacing
    drone_speed: int
    drone_warhead: int
    drone_kill: int
    drone_endurance: int
    heavy_penalty: int
    has_tubes: bool
    has_cloaks: bool
    # the dice, the log
    dice: Dice
    log: EventLog
    rec: bool  # the log is on or someone listens: events are built
    # units
    ships: list[Ship]
    by_name: dict[str, Ship]
    drones: list[Drone]
    drone_count: int
    plasmas: list[Plasma]
    plasma_count: int
    # controllers and how requests reach them (requests.py, cloning.unroute)
    _policy: Policy | None  # the heuristic captain, made when first asked (``policy``)
    robots: dict[str, Robot]
    flown: dict[str, Any]
    _asks: dict[str, ShipAsks]
    in_process: set[str]
    standing: dict[str, dict[str, Any]]
    forced_unasked: set[str]
    routed: set[str]
    player_controller: Any
    # where the sequence of play stands
    turn: int
    impulse: int
    phase: str
    resumed: bool
    boundary: Callable[[], None] | None
    seekers_step: bool
    disengage_step: bool
    outcome: Outcome | None
    _viable: dict[int, bytes]  # turn mode -> movement.viable_bits (the viable EdgeStates, by movement.state_index)
    order: list[Ship]
    order_turn: int
    cloak_paid: dict[str, int]
    # the robot's procedure (core/robot_rules.py; None: the published) and its numbers (sfb/procedure.py)
    robot_rules: RobotRules | None
    robot_numbers: Numbers
    robot_rules_record: dict[str, Any] | None  # a variant's record in the setup event (setup.new_engine)

    @property
    def policy(self) -> Policy:
        """The heuristic captain (player.Policy): a side's controller and the suggestions to a person, made when first
        asked; a finished battle lets it go (game.Game.let_go), as it refers back to the engine."""
        policy = self._policy
        if policy is None:
            policy = self._policy = self.new_policy()
        return policy

    # The methods one part calls on a part that comes after it in the chain (Game -> ImpulseSteps -> EnergyPhase ->
    # Victory -> Cloning -> PlasmaCloakSteps -> Combat -> Requests -> Geometry -> GameBase); the part named beside each overrides it. Real methods, not
    # declarations: a compiled class's method table needs them (docs/speed.md "Compiled").
    # plasma_play.py
    def may_act(self, ship: Ship) -> bool:
        raise NotImplementedError
    def sees(self, ship: Ship, w: Weapon, target: Ship) -> bool:
        raise NotImplementedError
    def cloak_roll_drone(self, drone: Drone, target: Ship, damage: int) -> int:
        raise NotImplementedError
    def move_plasmas(self, volleys: dict[tuple[str, int], int]) -> None:
        raise NotImplementedError
    def hit_plasma(self, torp: Plasma, points: int) -> None:
        raise NotImplementedError
    def note_tube_losses(self) -> None:
        raise NotImplementedError
    def tube_view(self, w: Weapon) -> str:
        raise NotImplementedError
    # combat.py
    def shield_hit(self, target: Ship, source: Hex, why: str) -> int:
        raise NotImplementedError
    def resolve_volleys(self, volleys: dict[tuple[str, int], int], step_name: str) -> None:
        raise NotImplementedError
    # victory.py
    def check_end(self) -> None:
        raise NotImplementedError
    def disengage_offered(self) -> bool:
        raise NotImplementedError
    # game.py
    def robot_for(self, ship: Ship) -> Robot:
        raise NotImplementedError
    def new_policy(self) -> Policy:
        raise NotImplementedError
    def sequence(self) -> Generator[Request, Any, Outcome | None]:
        raise NotImplementedError
    def fresh(self, log: EventLog) -> Game:
        raise NotImplementedError
