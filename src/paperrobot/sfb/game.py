"""The SFB Cadet engine: sequence of play and the 7-step impulse procedure (CTH p.48), on the game contract.

Turn: 1 energy allocation (and speed), 2..: impulses 1..N, each with the steps
  1 move ships, 2 move seeking weapons, 3 resolve seeking weapons, 4 launch seeking weapons,
  5 fire direct-fire weapons, 6 resolve direct fire (simultaneous), 7 end of impulse;
then end of turn. Scenario #6 adds the cloak declaration after energy allocation and plasma torpedoes as
seeking weapons (steps 2-6); those steps are in plasma_play.py.

``Game.sequence()`` is the whole battle as a generator: where the rules ask a side, it yields a Request
(requests.py) and receives the Decision whose ``action`` is the parsed answer. The engine is one chain of classes
(base.py), each part in its module: geometry.py (ranges, arcs, legal shots), requests.py (options, forms, checks,
views, decision events), combat.py (seeking weapons, fire and damage resolved), plasma_play.py (scenario #6
steps), cloning.py (snapshots), victory.py (how a battle ends), energy_phase.py (energy allocation, the robot's
turn start, cloaks), impulse.py (the steps of an impulse), and here the engine itself: its fields, its
controllers and the sequence of play. state.py holds the ships; setup.py sets a battle up (new_engine).
"""
from __future__ import annotations

from typing import Any, ClassVar, Generator, cast

from ..core import hexgrid
from ..core.contract import Decision, Engines, Match, Request, drive_all
from ..core.dice import Dice
from ..core.errors import PaperRobotError
from ..core.events import EventLog
from ..core.hexgrid import Board
from ..core.outcome import Outcome
from ..core.robot_rules import RobotRules
from . import fix as corrections, procedure
from .data import ScenarioSpec, weapon_tables
from .impulse import ImpulseSteps
from .movement import board_cells, edge_hexes, move_chart
from .player import Policy
from .robot import Robot
from .state import MapItem, Ship

SIDES = ("player", "robot")


class ByShip:
    """A side's controller: the robot or policy of the ship a request is about."""

    def __init__(self, game: Game, side: str, kind: str) -> None:
        self.game, self.side, self.kind = game, side, kind
        self.robots = game.robots

    def decide(self, request: Request) -> Decision:
        if self.kind == "robot":
            robot = self.robots.get(request.subject.name)
            if robot is None:
                robot = self.game.robot_for(request.subject)
            return robot.decide(request)
        return self.game.policy.decide(request)


class Game(ImpulseSteps):
    """One battle (the engine of the game contract). Sides: "player" and "robot"."""

    sides: ClassVar[tuple[str, ...]] = SIDES
    robot_side: ClassVar[str] = "robot"

    def __init__(self, scenario: ScenarioSpec, ships: list[Ship], dice: Dice, log: EventLog | None = None,
                 options: dict[str, Any] | None = None, seed: int = 0, robot_rules: RobotRules | None = None,
                 like: Game | None = None) -> None:
        if like is not None:  # cloning.restore: what never changes in a battle is shared; restore sets the rest
            self.share(like)
            return
        self.robot_rules = robot_rules  # the robot's procedure (core.robot_rules; None: published), sfb/procedure.py
        self.robot_numbers = procedure.numbers(robot_rules)  # its numbers, read once (shared by clones)
        self.scenario = scenario
        self.seed = seed
        self.options = dict(options or {})
        self.impulses = int(self.options.get("impulses", scenario.impulses))
        self.max_turns = int(self.options.get("max_turns", scenario.max_turns))
        self.tiebreak = self.options.get("tiebreak", "shields")
        self.board = Board(*scenario.map)
        self.cells = board_cells(*scenario.map)
        self.cols, self.rows = self.board.cols, self.board.rows
        self.edges = edge_hexes(*scenario.map)  # the map-edge hexes (SFB.R3.MAP)
        self.dice = dice
        self.log = log if log is not None else EventLog(enabled=False)
        self.rec = self.log.enabled or bool(self.log.listeners)
        self.ships = ships
        self.by_name = {s.name: s for s in ships}
        self.drones = []
        self.drone_count = 0
        self.plasmas = []  # plasma torpedoes in flight (scenario #6 rules, plasma_play.py)
        self.plasma_count = 0
        self._policy = None  # the heuristic captain: a side's controller, and the suggestions to a person (``policy``)
        self.robots = {}  # the Cadet robot's rules, one per robot ship
        self.flown = {"player": "person", "robot": "robot"}  # who flies each side (for the log)
        self._asks = {}
        self.in_process = set()  # sides flown by this engine's robot or policy (requests.ShipAsks)
        self.standing = {}  # side -> its controller's standing answers by request kind
        self.forced_unasked = set()  # sides whose controller is not asked questions with one answer
        self.routed = set()  # sides whose controller() was asked of this engine (cloning.unroute)
        self.turn = 0
        self.impulse = 0
        self.phase = "next"  # where the sequence of play stands (play_turns): "next", "energy", "impulse", "end"
        self.resumed = False  # a restored engine (cloning.py): sequence() does not emit the set-up again
        self.boundary = None  # called at each boundary of the sequence of play when a match keeps snapshots
        self.seekers_step = False  # this turn's impulses have a launch step (a ship with drones or tubes)
        self.disengage_step = False  # this turn's impulses offer disengagement (#5)
        self.outcome = None
        self.chart = move_chart(self.impulses)
        self.quarter = self.impulses // 4  # E1.5 firing-rate spacing
        self.drone_speed = self.impulses  # seeking weapons move at the scenario maximum (C1.42)
        self.objective = hexgrid.parse(scenario.objective) if scenario.objective else None
        tables = weapon_tables()
        self.drone_warhead = tables.drone.warhead
        self.drone_kill = tables.drone.hits_to_kill
        self.drone_endurance = tables.drone.endurance_turns
        self.heavy_penalty = tables.drone.heavy_vs_drone_penalty
        self._viable = {}
        self.order = []  # movement order for the current turn (speeds are fixed within a turn)
        self.order_turn = -1
        self.has_tubes = any(w.tube is not None for s in ships for w in s.weapons)  # plasma steps needed
        self.has_cloaks = any(s.cloak is not None for s in ships)
        self.cloak_paid = {}
        self.setup_options = self.options  # the options as given (the "setup" event shows them)
        self.player_controller = None  # run(): an in-process controller of the player side
        self.robot_rules_record = None  # a variant's record in the setup event (new_engine)

    def share(self, other: Game) -> None:
        """Take ``other``'s fields that never change during a battle (a restored engine shares them: cloning.py)."""
        self.robot_rules, self.robot_numbers = other.robot_rules, other.robot_numbers
        self.scenario, self.seed, self.impulses, self.max_turns = other.scenario, other.seed, other.impulses, other.max_turns
        self.tiebreak, self.board, self.cells, self.edges = other.tiebreak, other.board, other.cells, other.edges
        self.cols, self.rows = other.cols, other.rows
        self.chart, self.quarter, self.drone_speed, self.objective = other.chart, other.quarter, other.drone_speed, other.objective
        self.drone_warhead, self.drone_kill = other.drone_warhead, other.drone_kill
        self.drone_endurance, self.heavy_penalty = other.drone_endurance, other.heavy_penalty
        self._viable, self.has_tubes, self.has_cloaks = other._viable, other.has_tubes, other.has_cloaks
        self.player_controller, self.robot_rules_record = other.player_controller, other.robot_rules_record

    def fresh(self, log: EventLog) -> Game:
        """An engine sharing this one's unchanging fields, the rest to be set (cloning.Cloning.restore)."""
        return Game(self.scenario, [], self.dice, log, like=self)

    def fix(self, changes: dict[str, Any]) -> None:
        """The table assistant's corrections (fix.py)."""
        corrections.apply(self, changes)

    # ------------------------------------------------------------------------------ the contract
    def controller(self, side: str, kind: str) -> Any:
        """The robot or the policy of ``side``. A side flown by the robot follows the robot ship's rules (no
        energy allocation, fixed speed, reloads: SFB.R1, R6), so this is asked before the battle starts."""
        if side not in SIDES:
            raise PaperRobotError(f"'{side}' is not a side of sfb; the sides are {', '.join(SIDES)}")
        if kind == "robot":
            for ship in self.side_ships(side):
                ship.robot = True
        self.flown[side] = kind
        self.in_process.add(side)
        self.routed.add(side)
        if kind == "policy":
            self.standing[side] = Policy.standing  # answers it gives whatever the state: not asked
            if not Policy.asked_when_forced:
                self.forced_unasked.add(side)
        if self.turn:
            self.disengage_step = self.disengage_offered()  # a restored engine routed anew mid-turn
        if kind == "policy":
            return self.policy  # one captain answers for every ship of its side
        ships = self.side_ships(side)
        if len(ships) == 1:
            return self.robot_for(ships[0])  # one robot ship: its robot answers directly
        return ByShip(self, side, kind)

    def new_policy(self) -> Policy:
        return Policy(self)

    def robot_for(self, ship: Ship) -> Robot:
        robot = self.robots.get(ship.name)
        if robot is None:
            robot = self.robots[ship.name] = Robot(self, ship, self.tiebreak)
        return robot

    def run(self, controllers: dict[str, Any] | None = None) -> Outcome:
        """Play to the end with in-process controllers (default: the robot, and the player side as set up)
        through the contract's driver: every answer is parsed by its request."""
        chosen = {side: self.flown[side] if self.flown[side] != "person" else "policy" for side in SIDES}
        if self.player_controller is not None:
            chosen["player"] = self.player_controller
        chosen.update(controllers or {})
        return drive_all(Match("sfb", {}, self.seed, cast(Engines, lambda **_: self), self.log), chosen)

    def emit_setup(self) -> None:
        self.log.emit("setup", 0, 0, "", game="sfb", scenario=self.scenario.name, seed=self.seed,
                      ships={s.name: {"side": s.side, "spec": s.spec.name, "hex": hexgrid.label(s.hex),
                                      "facing": hexgrid.facing_letter(s.facing), "robot": s.robot}
                             for s in self.ships},
                      options=self.setup_options, opponent=self.flown["player"],
                      **({"robot_rules": self.robot_rules_record} if self.robot_rules_record else {}))

    # ------------------------------------------------------------------------------ the sequence of play
    def sequence(self) -> Generator[Request, Any, Outcome | None]:
        """The whole battle: the generator of its requests (``play_turns``, returned as it is: every answer passes
        through each generator of the chain, hundreds of times a battle); its return value is the Outcome. A
        restored engine (cloning.py) resumes at its boundary without the set-up event (the match copied the log)."""
        if not self.resumed:
            self.emit_setup()
        return self.play_turns()

    def play_turn(self) -> Generator[Request, Any, Outcome | None]:
        """One turn (tests drive a turn at a time)."""
        return self.play_turns(1)

    def play_turns(self, count: int | None = None) -> Generator[Request, Any, Outcome | None]:
        """Turns until the battle ends (or ``count`` of them): energy allocation, then the impulse procedure
        (CTH p.48) on every impulse: 1 move ships, 2-3 move and resolve seeking weapons, 4 launch them, 5-6
        direct fire, 7 end of impulse; #5 offers disengagement. Returns the Outcome (None if not over).

        Where the sequence stands is state (``turn``, ``impulse``, ``phase``), so a restored engine starts where its
        snapshot was taken. ``phase``: "next" (a new turn comes next), "energy" (the turn's energy allocation),
        "impulse" (``impulse`` starts), "end" (the end of turn). Each is a boundary: ``self.boundary()`` is called
        there, with the position in state and before any request of that phase (docs/sfb.md "Clone and fork")."""
        impulses = self.impulses
        while not self.over() and count != 0:
            if self.phase == "next":
                self.turn += 1
                self.impulse = 0
                self.phase = "energy"
            if self.phase == "energy":
                if self.boundary is not None:
                    self.boundary()
                yield from self.start_turn()
                self.seekers_step = self.has_tubes or self.drone_ships()
                self.disengage_step = self.disengage_offered()
                self.impulse = 1
                self.phase = "impulse"
            while self.phase == "impulse":
                if self.boundary is not None:
                    self.boundary()
                movers = self.movers()  # worked out once for step 1, whichever way it goes
                if not self.moved_unasked(movers):  # no ship may turn now: step 1 done, nothing asked
                    yield from self.move_ships(movers)
                if self.outcome is None and (self.drones or self.plasmas):
                    self.move_seekers()
                if self.outcome is None:
                    if self.seekers_step:
                        yield from self.launch_seekers()
                    yield from self.fire_direct()
                    if self.drones or self.has_tubes:
                        self.end_impulse()
                    if self.disengage_step and not self.over():
                        yield from self.offer_disengagement()
                if self.outcome is not None:
                    return self.let_go()
                if self.impulse == impulses:
                    self.phase = "end"
                else:
                    self.impulse += 1
            if self.boundary is not None:
                self.boundary()
            self.end_turn()
            self.phase = "next"
            count = None if count is None else count - 1
        return self.let_go()

    def let_go(self) -> Outcome | None:
        """The outcome; a battle that has ended lets go of its captain, its robots and its ships' kept requests
        (requests.ShipAsks): they refer back to this engine, so without them a finished engine (a search's play-out to
        the end) is freed by reference counting at once, not by the garbage collector. Each is made anew if asked."""
        if self.outcome is not None:
            self._policy = None
            self.robots, self._asks = {}, {}
        return self.outcome

    def drone_ships(self) -> bool:
        for ship in self.ships:
            if ship.has_drones:
                return True
        return False

    # ------------------------------------------------------------------------------ display
    def map_items(self) -> list[MapItem]:
        items = [MapItem(s.name, s.hex, s.facing, s.side, "ship", s.name) for s in self.ships if s.active]
        items += [MapItem(d.label, d.hex, d.facing, d.side, "drone", d.label) for d in self.drones if d.alive]
        items += [MapItem(t.label, t.hex, t.facing, t.side, "plasma", f"{t.label} plasma-{t.ptype.name} "
                          f"strength {t.strength}") for t in self.plasmas if t.alive]
        if self.objective is not None:
            items.append(MapItem(self.scenario.objective_name or "objective", self.objective, 0, "", "objective",
                                 self.scenario.objective_name or "objective"))
        return items

