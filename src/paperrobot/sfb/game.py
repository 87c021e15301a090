"""The SFB Cadet engine: sequence of play and the 7-step impulse procedure (CTH p.48), on the game contract.

Turn: 1 energy allocation (and speed), 2..: impulses 1..N, each with the steps
  1 move ships, 2 move seeking weapons, 3 resolve seeking weapons, 4 launch seeking weapons,
  5 fire direct-fire weapons, 6 resolve direct fire (simultaneous), 7 end of impulse;
then end of turn. Scenario #6 adds the cloak declaration after energy allocation and plasma torpedoes as
seeking weapons (steps 2-6); those steps are in plasma_play.py.

``Game.sequence()`` is the whole battle as a generator: where the rules ask a side, it yields a Request
(requests.py) and receives the Decision whose ``action`` is the parsed answer. The engine's parts: geometry.py
(ranges, arcs, legal shots), requests.py (options, forms, checks, views, decision events), combat.py (seeking
weapons, fire and damage resolved), plasma_play.py (scenario #6 steps); state.py holds the ships.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from ..core import handicap as hc
from ..core import hexgrid
from ..core.contract import Match, drive_all
from ..core.dice import Dice
from ..core.errors import IllegalAction, PaperRobotError, UnknownName
from ..core.events import EventLog
from ..core.hexgrid import Board, Hex, distance
from ..core.outcome import Outcome
from . import fix as corrections, robot_cloak as rc
from .data import ScenarioSpec, load_ships, scenario as get_scenario, weapon_tables
from .energy import EnergyAllocation
from .combat import Combat
from .geometry import Geometry
from .movement import STEER, STRAIGHT, board_cells, edge_hexes, move_chart, step
from .plasma_play import PlasmaCloakSteps
from .player import Policy
from .requests import Requests
from .robot import Robot
from .state import Drone, MapItem, Ship, Weapon

ROBOT_SPEED = {16: 12, 8: 8}  # SFB.R1: 12 on 16 impulses; 8 when #4 is played on 8 impulses (seed 002)
SIDES = ("player", "robot")
OPTIONS = {"impulses": (8, 16), "tiebreak": ("shields", "coin"), "robots": (1, 2, 3), "max_turns": None,
           "plasma_f": ("seed", "cth"), "evade": ("cloak", "plasma")}


class ByShip:
    """A side's controller: the robot or policy of the ship a request is about."""

    __slots__ = ("game", "kind", "side", "robots")

    def __init__(self, game: "Game", side: str, kind: str):
        self.game, self.side, self.kind = game, side, kind
        self.robots = game.robots

    def decide(self, request):
        if self.kind == "robot":
            robot = self.robots.get(request.subject.name)
            if robot is None:
                robot = self.game.robot_for(request.subject)
            return robot.decide(request)
        return self.game.policy.decide(request)


class Game(Geometry, Requests, Combat, PlasmaCloakSteps):
    """One battle (the engine of the game contract). Sides: "player" and "robot"."""

    sides = SIDES
    robot_side = "robot"
    fix = corrections.apply  # the table assistant's corrections (fix.py)

    def __init__(self, scenario: ScenarioSpec, ships: list[Ship], dice: Dice, log: EventLog | None = None,
                 options: dict | None = None, seed: int = 0):
        self.scenario = scenario
        self.seed = seed
        self.options = dict(options or {})
        self.impulses: int = int(self.options.get("impulses", scenario.impulses))
        self.max_turns: int = int(self.options.get("max_turns", scenario.max_turns))
        self.tiebreak: str = self.options.get("tiebreak", "shields")
        self.board = Board(*scenario.map)
        self.cells = board_cells(*scenario.map)
        self.edges = edge_hexes(*scenario.map)  # the map-edge hexes (SFB.R3.MAP)
        self.dice = dice
        self.log = log if log is not None else EventLog(enabled=False)
        self.rec = self.log.enabled or bool(self.log.listeners)
        self.ships = ships
        self.by_name = {s.name: s for s in ships}
        self.drones: list[Drone] = []
        self.drone_count = 0
        self.plasmas: list = []  # plasma torpedoes in flight (scenario #6 rules, plasma_play.py)
        self.plasma_count = 0
        self.policy = Policy(self)  # the heuristic captain: a side's controller, and the suggestions to a person
        self.robots: dict[str, Robot] = {}  # the Cadet robot's rules, one per robot ship
        self.flown: dict[str, Any] = {"player": "person", "robot": "robot"}  # who flies each side (for the log)
        self._asks: dict[str, Any] = {}
        self.in_process: set[str] = set()  # sides flown by this engine's robot or policy (requests.ShipAsks)
        self.standing: dict[str, dict] = {}  # side -> its controller's standing answers by request kind
        self.forced_unasked: set[str] = set()  # sides whose controller is not asked questions with one answer
        self.turn = 0
        self.impulse = 0
        self.outcome: Outcome | None = None
        self.chart = move_chart(self.impulses)
        self.quarter = self.impulses // 4  # E1.5 firing-rate spacing
        self.drone_speed = self.impulses  # seeking weapons move at the scenario maximum (C1.42)
        self.objective = hexgrid.parse(scenario.objective) if scenario.objective else None
        tables = weapon_tables()
        self.drone_warhead = tables.drone.warhead
        self.drone_kill = tables.drone.hits_to_kill
        self.drone_endurance = tables.drone.endurance_turns
        self.heavy_penalty = tables.drone.heavy_vs_drone_penalty
        self._viable: dict[int, frozenset] = {}
        self.order: list[Ship] = []  # movement order for the current turn (speeds are fixed within a turn)
        self.order_turn = -1
        self.has_tubes = any(w.tube is not None for s in ships for w in s.weapons)  # plasma steps needed
        self.has_cloaks = any(s.cloak is not None for s in ships)
        self.cloak_paid: dict[str, int] = {}
        self.setup_options: dict = self.options  # the options as given (the "setup" event shows them)
        self.player_controller: Any = None  # run(): an in-process controller of the player side

    # ------------------------------------------------------------------------------ the contract
    @classmethod
    def build(cls, seed: int = 1, log: EventLog | None = None, scenario: str = "5", player_ship: str = "",
              robot_ship: str = "", ships_dir: str = "", impulses: int = 16, tiebreak: str = "shields",
              robots: int | None = None, max_turns: int | None = None, plasma_f: str = "seed",
              evade: str = "cloak", handicap: int = 0, handicap_prices: str = "") -> "Game":
        """The registry's engine factory: every set-up option by name (core.registry checks them first);
        ``robots`` and ``max_turns`` None: the scenario's; ``handicap``: BPV of extra shield boxes for the
        robot's side (negative: the player's; core/handicap.py)."""
        options = {"impulses": impulses, "tiebreak": tiebreak, "plasma_f": plasma_f, "evade": evade}
        if robots is not None:
            options["robots"] = robots
        if max_turns is not None:
            options["max_turns"] = max_turns
        return new_engine(str(scenario), seed, player_ship or None, robot_ship or None, ships_dir or None, log,
                          options, handicap, handicap_prices)

    def controller(self, side: str, kind: str):
        """The robot or the policy of ``side``. A side flown by the robot follows the robot ship's rules (no
        energy allocation, fixed speed, reloads: SFB.R1, R6), so this is asked before the battle starts."""
        if side not in SIDES:
            raise PaperRobotError(f"'{side}' is not a side of sfb; the sides are {', '.join(SIDES)}")
        if kind == "robot":
            for ship in self.side_ships(side):
                ship.robot = True
        self.flown[side] = kind
        self.in_process.add(side)
        if kind == "policy":
            self.standing[side] = Policy.standing  # answers it gives whatever the state: not asked
            if not Policy.asked_when_forced:
                self.forced_unasked.add(side)
            return self.policy  # one captain answers for every ship of its side
        ships = self.side_ships(side)
        if len(ships) == 1:
            return self.robot_for(ships[0])  # one robot ship: its robot answers directly
        return ByShip(self, side, kind)

    def robot_for(self, ship: Ship) -> Robot:
        robot = self.robots.get(ship.name)
        if robot is None:
            robot = self.robots[ship.name] = Robot(self, ship, self.tiebreak)
        return robot

    def run(self, controllers: dict | None = None) -> Outcome:
        """Play to the end with in-process controllers (default: the robot, and the player side as set up)
        through the contract's driver: every answer is parsed by its request."""
        chosen = {side: self.flown[side] if self.flown[side] != "person" else "policy" for side in SIDES}
        if self.player_controller is not None:
            chosen["player"] = self.player_controller
        chosen.update(controllers or {})
        return drive_all(Match("sfb", {}, self.seed, lambda **_: self, self.log), chosen)

    def emit_setup(self) -> None:
        self.log.emit("setup", 0, 0, "", game="sfb", scenario=self.scenario.name, seed=self.seed,
                      ships={s.name: {"side": s.side, "spec": s.spec.name, "hex": hexgrid.label(s.hex),
                                      "facing": hexgrid.facing_letter(s.facing), "robot": s.robot}
                             for s in self.ships},
                      options=self.setup_options, opponent=self.flown["player"])

    # ------------------------------------------------------------------------------ helpers
    def emit(self, kind: str, side: str = "", **data) -> None:
        if self.rec:
            self.log.emit(kind, self.turn, self.impulse, side, **data)


    def check_energy(self, ship: Ship, alloc: EnergyAllocation) -> None:
        """Raise IllegalAction if the allocation breaks a rule; changes nothing."""
        if not isinstance(alloc, EnergyAllocation):
            raise IllegalAction("an energy answer must be an energy allocation", "SFB.EA")
        heavy = {w.key: w for w in self.heavy_keys(ship)}
        for key, points in alloc.arm:
            if key not in heavy:
                raise IllegalAction(f"{ship.name} has no working weapon '{key}' to power", "SFB.EA")
            if points < 0:
                raise IllegalAction(f"{key}: energy cannot be negative", "SFB.EA")
            weapon = heavy[key]
            if weapon.kind == "disruptor" and points not in (0, 2):
                raise IllegalAction(f"{key}: a disruptor bolt takes exactly 2 energy (or 0)", "SFB.DISRUPTOR")
            if weapon.kind == "photon":
                if weapon.arm == 2 and points not in (0, 1):
                    raise IllegalAction(f"{key} is armed: allocate 1 to hold it or 0 to eject it", "SFB.PHOTON")
                if weapon.arm < 2 and points not in (0, 2):
                    raise IllegalAction(f"{key}: arming takes 2 warp energy a turn (or 0)", "SFB.PHOTON")
        if self.has_tubes or self.has_cloaks or alloc.cloak:
            self.plasma_check_energy(ship, alloc)  # SFB.PLASMA.ARM lines and the SFB.CLOAK line
        if alloc.speed < 0 or alloc.speed != int(alloc.speed):
            raise IllegalAction("speed must be a whole number of hexes, 0 or more", "SFB.MOVE.COST")
        if alloc.speed > self.impulses:
            raise IllegalAction(f"speed {alloc.speed} is above the scenario's top speed {self.impulses}",
                                "SFB.IMPULSES")
        if alloc.speed > ship.speed + 8:
            raise IllegalAction(f"speed may rise by at most 8 a turn: {ship.speed} -> at most {ship.speed + 8}",
                                "SFB.MOVE.COST")
        if alloc.phasers < 0 or alloc.phasers * 2 != int(alloc.phasers * 2):
            raise IllegalAction("phaser energy comes in half points, 0 or more", "SFB.PHASER.ENERGY")
        if ship.capacitor + alloc.phasers > ship.capacity + 1e-9:
            raise IllegalAction(f"the phaser capacitor holds {ship.capacity:g} and has {ship.capacitor:g}: add at "
                                f"most {ship.capacity - ship.capacitor:g}", "SFB.PHASER.ENERGY")
        if alloc.recharge < 0 or alloc.recharge > ship.battery - ship.charged:
            raise IllegalAction(f"only {ship.battery - ship.charged} batteries are empty to recharge", "SFB.EA")
        photon_warp = sum(p for k, p in alloc.arm if heavy[k].kind == "photon" and p == 2)
        from_impulse = min(1, ship.impulse, alloc.speed)
        warp_move = alloc.speed - from_impulse
        if photon_warp + warp_move > ship.warp:
            raise IllegalAction(f"warp power {ship.warp} cannot pay {warp_move} for movement (1 more may come from "
                                f"impulse, none from APR) and {photon_warp} for photon arming", "SFB.MOVE.COST")
        if alloc.total > ship.power + ship.charged + 1e-9:
            raise IllegalAction(f"allocation {alloc.total:g} exceeds power {ship.power} + {ship.charged} charged "
                                f"batteries", "SFB.EA")

    def apply_energy(self, ship: Ship, alloc: EnergyAllocation) -> None:
        self.check_energy(ship, alloc)
        used = math.ceil(alloc.total - ship.power - 1e-9)
        discharged = max(0, used)
        ship.charged = min(ship.battery, ship.charged - discharged + alloc.recharge)
        ship.capacitor = min(ship.capacity, ship.capacitor + alloc.phasers)
        ship.speed = alloc.speed
        for w in ship.weapons:
            if w.kind == "disruptor":
                w.ready = w.alive and alloc.armed(w.key) == 2
            elif w.kind == "photon" and w.alive:
                points = alloc.armed(w.key)
                if w.arm == 2:
                    w.arm = 2 if points == 1 else 0  # E4.22: hold for 1 or eject
                elif points == 2:
                    w.arm += 1  # E4.21: second consecutive payment completes arming
                else:
                    w.arm = 0  # the first payment is wasted
                w.ready = w.arm == 2
        if self.has_tubes:
            self.plasma_apply_energy(ship, alloc)
        self.cloak_paid[ship.name] = alloc.cloak
        if self.rec:
            self.emit("energy", ship.side, ship=ship.name, speed=alloc.speed, phasers=alloc.phasers,
                      arm=[list(a) for a in alloc.arm], recharge=alloc.recharge, batteries=ship.charged,
                      capacitor=ship.capacitor, cloak=alloc.cloak)


    # ------------------------------------------------------------------------------ the sequence of play
    def sequence(self):
        """The whole battle: the generator of its requests (``play_turns``, returned as it is: every answer passes
        through each generator of the chain, hundreds of times a battle); its return value is the Outcome."""
        self.emit_setup()
        return self.play_turns()

    def play_turn(self):
        """One turn (tests drive a turn at a time)."""
        return self.play_turns(1)

    def play_turns(self, count: int | None = None):
        """Turns until the battle ends (or ``count`` of them): energy allocation, then the impulse procedure
        (CTH p.48) on every impulse: 1 move ships, 2-3 move and resolve seeking weapons, 4 launch them, 5-6
        direct fire, 7 end of impulse; #5 offers disengagement. Returns the Outcome (None if not over)."""
        while self.outcome is None and count != 0:
            count = None if count is None else count - 1
            self.turn += 1
            self.impulse = 0
            yield from self.start_turn()
            seekers_step = self.has_tubes or self.drone_ships()
            end_step = self.has_tubes
            # #5: disengagement is offered only if some ship may be asked (not a robot's, not one whose
            # controller's standing answer is "no"); else the step is not even started (every impulse)
            disengage = self.scenario.leave_map == "disengage" and any(
                not ship.robot and "disengage" not in self.standing.get(ship.side, ()) for ship in self.ships)
            for impulse in range(1, self.impulses + 1):
                self.impulse = impulse
                yield from self.move_ships()
                if self.outcome is None and (self.drones or self.plasmas):
                    self.move_seekers()
                if self.outcome is None:
                    if seekers_step:
                        yield from self.launch_seekers()
                    yield from self.fire_direct()
                    if self.drones or end_step:
                        self.end_impulse()
                    if disengage and self.outcome is None:
                        yield from self.offer_disengagement()
                if self.outcome is not None:
                    break
            else:
                self.end_turn()
        return self.outcome

    def start_turn(self):
        """Energy allocation (SFB.EA) and speed determination; the robot's fixed speed (SFB.R1, SFB.DMG3)."""
        self.emit("turn")
        for ship in self.ships:
            if not ship.active:
                continue
            if ship.robot:
                ship.speed = max(0, ROBOT_SPEED[self.impulses] - ship.warp_lost)
                self.robot_turn_start(ship)
            elif self.impulses == 8:
                yield from self.chief_engineer(ship)  # seed 002's game without energy allocation (docs/sfb.md)
            else:
                decision = yield self.energy_request(ship)
                self.apply_energy(ship, decision.action)
        if self.has_cloaks:
            yield from self.declare_cloaks()

    def drone_ships(self) -> bool:
        for ship in self.ships:
            if ship.has_drones:
                return True
        return False

    def robot_turn_start(self, ship: Ship) -> None:
        """SFB.R6: all weapons except drones reloaded; R2-R5 start again. Scenario #6: SFB.R.PLASMA / SFB.R8
        cadence, and SFB.R.CLOAK3 best speed with a torpedo after it."""
        ship.primary_done = False
        ship.tie_side = None
        for w in ship.weapons:
            if w.alive and w.kind != "drone":
                w.ready = True
                if w.kind == "photon":
                    w.arm = 2
        if not (self.has_tubes or self.has_cloaks):
            return
        for w in ship.weapons:
            if w.tube is not None and w.alive:
                w.tube.state = 3 if rc.r8_turn(self.turn) else 0  # plasma.ARMED / plasma.EMPTY
                w.ready = w.tube.armed
        threats = rc.threatened(self, ship)
        if threats:
            ordinary = ship.speed
            ship.speed = rc.safe_speed(self, ship, rc.best_speed(self.impulses, ship.warp_lost))
            if self.rec:
                text = (f"torpedo {threats[0].label} is after it: run at best speed {ship.speed} this turn"
                        + ("" if ship.speed > ordinary else " (no faster speed is safe from the map edge)"))
                self.emit("decision", ship.side, ship=ship.name, request="speed", rule="SFB.R.CLOAK3", text=text,
                          rolls=[], action=ship.speed)

    def chief_engineer(self, ship: Ship):
        """SFB.EA on 8 impulses: seed 002's game played without the energy rules, where "your Chief Engineer
        has done this for you" as in scenarios #1-#3. The player side picks only a speed (0 to what the engines
        give after the weapons); the engineer arms the weapons as those scenarios do (the policy's allocation:
        capacitor topped up, disruptors every turn, photons ready two turns after arming or firing) and pays for
        the speed (docs/sfb.md "The 8-impulse game")."""
        decision = yield self.speed_request(ship)
        alloc = self.policy.energy_allocation(ship, speed=decision.action)
        if self.rec:
            arm = ", ".join(f"{k} {v}" for k, v in alloc.arm)
            self.emit("decision", ship.side, ship=ship.name, request="speed", rule="SFB.EA",
                      text=f"8-impulse game, no energy allocation (seed 002): the Chief Engineer pays for speed "
                           f"{alloc.speed}, tops up the phaser capacitor{' and arms ' + arm if arm else ''}",
                      rolls=[], action=alloc.speed)
        self.apply_energy(ship, alloc)

    def declare_cloaks(self):
        """G13.1 (SFB.CLOAK): after energy allocation each ship with a cloak announces cloaked or not, for the
        whole turn. The robot never cloaks (seed 000: its rules cannot control a cloak)."""
        for ship in self.ships:
            if ship.cloak is None or not ship.active:
                continue
            paid = 0 if ship.robot else self.cloak_paid.get(ship.name, 0)
            want = False
            if paid >= ship.cloak.cost:
                decision = yield self.cloak_request(ship)
                want = decision.action == "cloak"
            self.declare_cloak(ship, want, paid)

    def end_turn(self) -> None:
        for ship in self.ships:
            for w in ship.weapons:
                if w.kind == "disruptor":
                    w.ready = False  # E3.2: bolts cannot be held
        if self.turn >= self.max_turns:
            self.finish(None, "time")

    def offer_disengagement(self):
        """#5: a player ship may disengage by announcement at the end of any impulse (CTH #5; docs/sfb.md "Map
        edges and exits"). The robot cannot retreat. A side whose controller always answers "no" (the policy's
        standing answer) is not asked: "no" changes nothing."""
        for ship in self.ships:
            if ship.robot or not ship.active or "disengage" in self.standing.get(ship.side, ()):
                continue
            decision = yield self.disengage_request(ship)
            if decision.action == "yes":
                ship.gone = "disengaged"
                self.emit("left-map", ship.side, ship=ship.name, how="disengaged", edge=[])
                self.check_end()

    # ------------------------------------------------------------------------------ step 1
    def move_ships(self):
        # C1.3: slower units move first; equal speeds: the player side first, so the robot follows it
        # "as a seeking weapon" that moves after its target (docs/sfb.md "Movement order").
        if self.order_turn != self.turn:
            self.order = sorted(self.ships, key=lambda s: (s.speed, s.robot, s.name))
            self.order_turn = self.turn
        impulse, chart = self.impulse, self.chart
        movers = [s for s in self.order if s.speed > 0 and not s.destroyed and not s.gone
                  and chart[s.speed if s.speed < self.impulses else self.impulses][impulse]]
        for ship in movers:
            if ship.destroyed or ship.gone:  # Ship.active, inlined; it may have left the map this impulse
                continue
            if ship.straight >= ship.tm_table[ship.speed]:  # Ship.turn_mode(), inlined: every move
                decision = yield self.move_request(ship)
                if decision.memory:
                    self.remember(ship, decision.memory)
                steer = decision.action
            else:
                steer = STRAIGHT  # turn mode not yet satisfied: no choice to make (C3.2)
            self.execute_move(ship, steer)
            if self.outcome is not None:
                return

    def execute_move(self, ship: Ship, steer: str) -> None:
        facing = (ship.facing + STEER[steer]) % 6
        dest = step(ship.hex, facing)
        ship.prev_hex = ship.hex
        ship.facing = facing
        ship.straight = ship.straight + 1 if steer == STRAIGHT else 1
        if dest not in self.cells:
            self.leave_map(ship, dest)
            return
        ship.hex = dest
        if self.plasmas:
            self.plasma_moved(ship)  # FP1.8: feedback only before either leaves the launch hex
        if self.objective is not None and not ship.robot and distance(dest, self.objective) <= 1:
            ship.objective = True
        if self.rec:
            self.emit("moved", ship.side, ship=ship.name, steer=steer, to=hexgrid.label(dest),
                      facing=hexgrid.facing_letter(facing))

    def leave_map(self, ship: Ship, dest: Hex) -> None:
        """Map edges per scenario: #5 leaving is disengaging; #4 only the Fed via 28xx after the Dakota."""
        edges = self.board.edges_crossed(dest)
        sc = self.scenario
        if sc.exit_edge and sc.exit_edge in edges and ship.objective:
            ship.gone = "exited"
            self.emit("left-map", ship.side, ship=ship.name, how="exited", edge=sorted(edges))
            self.finish(ship.side, "objective")
        elif sc.leave_map == "disengage":
            ship.gone = "disengaged"
            self.emit("left-map", ship.side, ship=ship.name, how="disengaged", edge=sorted(edges))
            self.check_end()
        else:
            ship.gone = "lost"
            ship.destroyed = True
            self.emit("left-map", ship.side, ship=ship.name, how="destroyed", edge=sorted(edges))
            self.check_end()

    # ------------------------------------------------------------------------------ steps 2-3
    # (seeking weapons move and strike in combat.Combat.move_seekers)

    # ------------------------------------------------------------------------------ step 4
    def launch_seekers(self):
        if self.has_tubes:
            yield from self.launch_plasmas()
        for ship in self.ships:
            if not ship.has_drones or ship.destroyed or ship.gone:
                continue
            if ship.cloak is not None and not self.may_act(ship):
                continue  # SFB.CLOAK: no launch while cloaked or on impulse 1 after uncloaking
            racks = [w for w in ship.weapons if w.kind == "drone" and w.alive and w.ammo > 0 and self.rate_ok(w)]
            target = self.enemy_of(ship)
            if not racks or target is None:
                continue
            decision = yield self.launch_request(ship, "drones", racks, target)
            if decision.memory:
                self.remember(ship, decision.memory)
            for rack in decision.action:
                self.launch_drone(ship, rack, target)

    def launch_plasmas(self):
        """SFB.PLASMA.LAUNCH: armed (or held) torpedoes whose target is in the launcher's arc; the robot by
        SFB.R8, the player side by its choice."""
        for ship in self.ships:
            if not ship.active:
                continue
            tubes = self.launchable(ship)
            target = self.enemy_of(ship) if tubes else None
            if target is None:
                continue
            tubes = [w for w in tubes if self.sees(ship, w, target)]
            if not tubes:
                continue
            decision = yield self.launch_request(ship, "plasma", tubes, target)
            if decision.memory:
                self.remember(ship, decision.memory)
            for tube in decision.action:
                self.launch_plasma(ship, tube, target)

    # ------------------------------------------------------------------------------ steps 5-6
    ROBOT_MEMORY = frozenset(("primary_done", "tie_side", "focus"))

    def remember(self, ship: Ship, memory: dict) -> None:
        """Store what the robot's rules make it remember (robot.Robot.note) as the ship's state."""
        for name, value in memory.items():
            if name not in self.ROBOT_MEMORY:
                raise ValueError(f"the robot cannot remember '{name}'")
            setattr(ship, name, value)

    def fire_direct(self):
        orders: list[tuple[Ship, Weapon, Any]] = []
        for ship in self.ships:
            if ship.destroyed or ship.gone:
                continue
            if ship.cloak is not None and not self.may_act(ship):
                continue  # SFB.CLOAK: a cloaked ship cannot fire; nor on impulse 1 after uncloaking
            if ship.side in self.forced_unasked and not self.ready_weapons(ship):
                continue  # nothing ready: holding fire is the only answer (a third of a policy's questions)
            decision = yield self.fire_request(ship)
            if decision.memory:
                self.remember(ship, decision.memory)
            if decision.action:
                orders.extend(decision.action)
        if orders:
            self.resolve_fire(orders)

    # ------------------------------------------------------------------------------ step 7
    def end_impulse(self) -> None:
        if self.has_tubes:
            self.tube_end_impulse()
        now = self.now
        for drone in self.drones:
            if drone.alive and now >= drone.expires:
                drone.alive = False
                self.emit("drone-lost", drone.side, drone=drone.label, why="endurance")
        if self.drones:
            self.drones = [d for d in self.drones if d.alive]

    def check_end(self) -> None:
        if self.outcome is not None:
            return
        alive = {"player": False, "robot": False}
        for ship in self.ships:
            if ship.active:
                alive[ship.side] = True
        if alive["player"] and alive["robot"]:
            return
        if not alive["player"] and not alive["robot"]:
            self.finish(None, "destroyed")
            return
        loser = "player" if not alive["player"] else "robot"
        winner = "robot" if loser == "player" else "player"
        if any(s.gone == "disengaged" for s in self.side_ships(loser)):
            self.finish(winner, "disengaged")  # #5: a draw for him, a tactical victory for the other
        else:
            self.finish(winner, "destroyed")

    def finish(self, winner: str | None, result: str) -> None:
        if self.outcome is not None:
            return
        metrics: dict[str, float] = {}
        for side in ("player", "robot"):
            ships = self.side_ships(side)
            metrics[f"{side}_internal"] = float(sum(s.internal for s in ships))
            metrics[f"{side}_shields"] = float(sum(sum(s.shields) for s in ships))
        self.outcome = Outcome(winner, result, self.turn, metrics)
        self.emit("result", "", winner=winner, result=result, turns=self.turn)

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



def new_engine(scenario: str = "5", seed: int = 1, player_ship: str | None = None, robot_ship: str | None = None,
               ships_dir=None, log: EventLog | None = None, options: dict | None = None, handicap: int = 0,
               handicap_prices: str = "") -> Game:
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
    game = Game(sc, state, Dice(seed), log, opts, seed)
    game.setup_options = opts
    if impulses == 8:
        for ship in state:
            ship.speed = min(ship.speed, 8)
    return game


def handicap_prices_for(path: str | None = "") -> hc.ShieldBoxPrices:
    """SFB's price of a shield box in BPV (data/handicap.toml), or the person's own table."""
    return hc.load_prices(Path(__file__).parent / "data" / hc.PRICES, path or None, hc.ShieldBoxPrices)


def with_boxes(spec, boxes: int):
    """The ship sheet with ``boxes`` extra shield boxes spread over its six shields (pencilled onto the SSD)."""
    return spec.model_copy(update={"shields": list(hc.spread_boxes(spec.shields, boxes))}) if boxes else spec


def check_options(options: dict) -> dict:
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


def _ship(ships: dict, name: str):
    if name not in ships:
        raise UnknownName("ship", name, ships)
    return ships[name]
