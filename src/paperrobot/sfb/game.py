"""The SFB Cadet engine: sequence of play and the 7-step impulse procedure (CTH p.48).

Turn: 1 energy allocation (and speed), 2..: impulses 1..N, each with the steps
  1 move ships, 2 move seeking weapons, 3 resolve seeking weapons, 4 launch seeking weapons,
  5 fire direct-fire weapons, 6 resolve direct fire (simultaneous), 7 end of impulse;
then end of turn. Scenario #6 adds the cloak declaration after energy allocation and plasma torpedoes as
seeking weapons (steps 2-6); their hooks live in plasma_play.py.
"""
from __future__ import annotations

import math
from typing import Any

from ..core import hexgrid
from ..core.controller import Decision, Request
from ..core.dice import Dice
from ..core.errors import IllegalAction
from ..core.events import EventLog
from ..core.hexgrid import Board, Hex, shield_facing_direction
from ..core.outcome import Outcome
from . import damage as dmg
from . import plasma_play as pp
from .cloak import effective_range
from .choices import Choice, Option
from .data import ScenarioSpec, heavy_chart, phaser_chart, weapon_tables
from .energy import EnergyAllocation
from .movement import (STEER, STRAIGHT, arc_holds, board_cells, candidates, distance, move_chart, seek_choice,
                       shields_toward, step, viable_states)
from .plasma import Plasma
from .state import Drone, MapItem, Ship, Weapon

ROBOT_SPEED = {16: 12, 8: 8}  # SFB.R1: 12 on 16 impulses; 8 when #4 is played on 8 impulses (seed 002)


class Game:
    """One battle. ``controllers`` maps ship name -> controller (robot, policy, person)."""

    def __init__(self, scenario: ScenarioSpec, ships: list[Ship], dice: Dice, log: EventLog | None = None,
                 options: dict | None = None):
        self.scenario = scenario
        self.options = dict(options or {})
        self.impulses: int = int(self.options.get("impulses", scenario.impulses))
        self.max_turns: int = int(self.options.get("max_turns", scenario.max_turns))
        self.board = Board(*scenario.map)
        self.cells = board_cells(*scenario.map)
        self.dice = dice
        self.log = log if log is not None else EventLog(enabled=False)
        self.rec = self.log.enabled or bool(self.log.listeners)
        self.ships = ships
        self.by_name = {s.name: s for s in ships}
        self.drones: list[Drone] = []
        self.drone_count = 0
        self.plasmas: list = []  # plasma torpedoes in flight (scenario #6 rules, plasma_play.py)
        self.plasma_count = 0
        self.controllers: dict[str, Any] = {}
        self.advisors: dict[str, Any] = {}  # PlayerPolicy per player ship: the defaults offered to a person
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
        self.fast: set[str] = set()  # player ships flown by their own PlayerPolicy: no Request/Choice building
        self.has_tubes = any(w.tube is not None for s in ships for w in s.weapons)  # plasma hooks needed
        self.has_cloaks = any(s.cloak is not None for s in ships)
        self.cloak_paid: dict[str, int] = {}

    # ------------------------------------------------------------------------------ helpers
    @property
    def now(self) -> int:
        """Absolute impulse number (for the firing-rate rule across the turn boundary)."""
        return (self.turn - 1) * self.impulses + self.impulse

    def emit(self, kind: str, side: str = "", **data) -> None:
        if self.rec:
            self.log.emit(kind, self.turn, self.impulse, side, **data)

    def enemies(self, ship: Ship) -> list[Ship]:
        return [s for s in self.ships if s.side != ship.side and s.active]

    def side_ships(self, side: str) -> list[Ship]:
        return [s for s in self.ships if s.side == side]

    def enemy_of(self, ship: Ship) -> Ship | None:
        """The nearest active enemy ship (the robot's 'your ship'); ties by name."""
        foes = [o for o in self.ships if o.side != ship.side and not o.destroyed and not o.gone]
        if len(foes) < 2:
            return foes[0] if foes else None
        return min(foes, key=lambda o: (distance(ship.hex, o.hex), o.name))

    def moves_now(self, ship: Ship) -> bool:
        return ship.speed > 0 and self.chart[min(ship.speed, self.impulses)][self.impulse]

    def viable(self, ship: Ship, steer: str, facing: int, dest: Hex) -> bool:
        """Would this move keep the ship on the map with a way to go on (SFB.R3.MAP)?"""
        tm = ship.tm_table[ship.speed]
        states = self._viable.get(tm)
        if states is None:
            states = self._viable[tm] = viable_states(self.board.cols, self.board.rows, tm)
        straight = min(tm, ship.straight + 1) if steer == STRAIGHT else 1
        return (dest[0], dest[1], facing, straight) in states

    def rate_ok(self, weapon: Weapon) -> bool:
        """E1.5: once a turn, and never within 1/4 turn of its last firing (SFB.R1)."""
        return weapon.fired_turn != self.turn and self.now - weapon.last_fired >= self.quarter

    def geometry(self, firer: Ship, target) -> tuple[Hex, Hex]:
        """Positions to judge arcs and shields by: at range 0, those of the impulse before (D3.42)."""
        if firer.hex == target.hex:
            return firer.prev_hex, target.prev_hex
        return firer.hex, target.hex

    def effective_range(self, ship: Ship, target, rng: int) -> int:
        """The range used on the weapon charts: the true range, or 2 x true + 5 against a cloaked ship
        (SFB.CLOAK, G13.34)."""
        cloak = getattr(target, "cloak", None)
        return effective_range(rng, True) if cloak is not None and cloak.cloaked else rng

    def bears(self, ship: Ship, weapon: Weapon, target, facing: int | None = None) -> bool:
        """Can ``weapon`` be pointed at ``target`` now: arc and the weapon's range limits."""
        rng = distance(ship.hex, target.hex)
        if rng < weapon.rmin or rng > weapon.rmax:
            return False
        if self.has_cloaks and self.effective_range(ship, target, rng) > weapon.rmax:
            return False  # docs/sfb-plasma-cloak.md "Cloak: minimum and maximum ranges"
        origin, aim = self.geometry(ship, target)
        if origin == aim:
            return True
        return arc_holds(origin, ship.facing if facing is None else facing, weapon.arc, aim)

    @staticmethod
    def shootable_by_target(seeker, ship: Ship) -> bool:
        """F2.2: a seeking weapon in its target's hex cannot be fired at by that target (range 0), except (F2.3)
        in the impulse it was launched there: it has not moved yet (seekers move on every impulse)."""
        return seeker.target != ship.name or seeker.hex != ship.hex or seeker.moves == 0

    def can_fire(self, ship: Ship, weapon: Weapon, target) -> bool:
        if not weapon.alive or weapon.kind in ("drone", "plasma") or not self.rate_ok(weapon):
            return False
        if weapon.kind == "phaser":
            if ship.capacitor + 1e-9 < weapon.cost:
                return False
        elif not weapon.ready:
            return False
        if isinstance(target, (Drone, Plasma)) and not self.shootable_by_target(target, ship):
            return False
        if isinstance(target, Plasma) and weapon.kind != "phaser":
            return False  # FP1.6: only phasers hurt plasma
        if ship.cloak is not None and not pp.may_act(self, ship):
            return False  # SFB.CLOAK: cloaked, or impulse 1 after uncloaking
        return self.bears(ship, weapon, target)

    # ------------------------------------------------------------------------------ energy
    def energy_view(self, ship: Ship) -> dict:
        weapons = {}
        for w in ship.weapons:
            if w.kind == "photon" and w.alive:
                weapons[w.key] = {0: "empty: 2 warp starts arming", 1: "half armed: 2 warp completes it",
                                  2: "armed: 1 holds it, 0 ejects it"}[w.arm]
            elif w.kind == "disruptor" and w.alive:
                weapons[w.key] = "2 energises it for this turn"
            elif w.tube is not None and w.alive:
                weapons[w.key] = pp.tube_view(w)
        return {"ship": ship.name, "warp": ship.warp, "impulse": ship.impulse, "apr": ship.apr,
                "power": ship.power, "batteries": ship.charged, "discharged": ship.battery - ship.charged,
                "capacitor": ship.capacitor, "capacity": ship.capacity, "speed": ship.speed,
                "max_speed": self.max_speed(ship), "weapons": weapons,
                "cloak_cost": ship.cloak.cost if ship.cloak is not None else 0}

    def max_speed(self, ship: Ship) -> int:
        return min(self.impulses, ship.speed + 8)

    def heavy_keys(self, ship: Ship) -> list[Weapon]:
        return [w for w in ship.weapons if w.alive and w.kind in ("photon", "disruptor", "plasma")]

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
            pp.check_energy(ship, alloc)  # SFB.PLASMA.ARM lines and the SFB.CLOAK line
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
            pp.apply_energy(self, ship, alloc)
        self.cloak_paid[ship.name] = alloc.cloak
        if self.rec:
            self.emit("energy", ship.side, ship=ship.name, speed=alloc.speed, phasers=alloc.phasers,
                      arm=[list(a) for a in alloc.arm], recharge=alloc.recharge, batteries=ship.charged,
                      capacitor=ship.capacitor, cloak=alloc.cloak)

    # ------------------------------------------------------------------------------ decisions
    def ask(self, ship: Ship, kind: str, view: Any, options: Any) -> Decision:
        controller = self.controllers[ship.name]
        decision = controller.decide(Request(kind, ship.side, view, options))
        if self.rec:
            for reason in decision.reasons:
                self.emit("decision", ship.side, ship=ship.name, request=kind, rule=reason.rule, text=reason.text,
                          rolls=[r.to_json() for r in reason.rolls], action=_jsonable(decision.action))
        return decision

    def ask_keys(self, ship: Ship, kind: str, choice: Choice, refuse) -> tuple[str, ...]:
        """Ask a person's multi-choice; every key must be one of the choice's items, else ``refuse(bad key,
        sorted legal keys)`` is raised (the engine changes nothing before this check)."""
        keys = self.ask(ship, kind, ship, choice).action
        if isinstance(keys, str):
            keys = (keys,)
        legal = {item.key for item in choice.items}
        for key in keys:
            if key not in legal:
                raise refuse(key, sorted(legal))
        return tuple(keys)

    # ------------------------------------------------------------------------------ the turn
    def run(self) -> Outcome:
        while self.outcome is None:
            self.play_turn()
        return self.outcome

    def play_turn(self) -> None:
        self.turn += 1
        self.impulse = 0
        self.start_turn()
        for impulse in range(1, self.impulses + 1):
            self.impulse = impulse
            self.play_impulse()
            if self.outcome is not None:
                return
        self.end_turn()

    def start_turn(self) -> None:
        """Energy allocation (SFB.EA) and speed determination; the robot's fixed speed (SFB.R1, SFB.DMG3)."""
        self.emit("turn")
        for ship in self.ships:
            if not ship.active:
                continue
            controller = self.controllers[ship.name]
            if ship.robot:
                ship.speed = max(0, ROBOT_SPEED[self.impulses] - ship.warp_lost)
                if hasattr(controller, "start_turn"):
                    controller.start_turn(self)
            elif self.impulses == 8:
                self.chief_engineer(ship)  # seed 002's game without energy allocation (docs/sfb.md)
            else:
                default = self.advisors[ship.name].energy_allocation(ship)
                decision = self.ask(ship, "energy", self.energy_view(ship), default)
                self.apply_energy(ship, decision.action)
        if self.has_cloaks:
            self.declare_cloaks()

    def chief_engineer(self, ship: Ship) -> None:
        """SFB.EA on 8 impulses: seed 002's game played without the energy rules, where "your Chief Engineer
        has done this for you" as in scenarios #1-#3. The person picks only a speed (0 to what the engines
        give after the weapons); the engineer arms the weapons as those scenarios do (the player policy's
        allocation: capacitor topped up, disruptors every turn, photons ready two turns after arming or
        firing) and pays for the speed (docs/sfb.md "The 8-impulse game")."""
        advisor = self.advisors[ship.name]
        if ship.name in self.fast:
            alloc = advisor.energy_allocation(ship)
        else:
            top = advisor.energy_allocation(ship, speed=self.impulses).speed
            default = min(top, advisor.energy_allocation(ship).speed)
            keys = tuple(str(v) for v in range(1, top + 1)) + ("0",)  # typed number n picks speed n
            choice = Choice(f"{ship.name}: speed this turn, 0 to {top} (your Chief Engineer allocates the energy)?",
                            tuple(Option(k, f"speed {k}") for k in keys), False, (str(default),))
            answer = self.ask(ship, "speed", ship, choice).action
            if answer not in keys:
                raise IllegalAction(f"'{answer}' is not a speed here; choose 0 to {top}", "SFB.EA")
            alloc = advisor.energy_allocation(ship, speed=int(answer))
        if self.rec:
            arm = ", ".join(f"{k} {v}" for k, v in alloc.arm)
            self.emit("decision", ship.side, ship=ship.name, request="speed", rule="SFB.EA",
                      text=f"8-impulse game, no energy allocation (seed 002): the Chief Engineer pays for speed "
                           f"{alloc.speed}, tops up the phaser capacitor{' and arms ' + arm if arm else ''}",
                      rolls=[], action=alloc.speed)
        self.apply_energy(ship, alloc)

    def declare_cloaks(self) -> None:
        """G13.1 (SFB.CLOAK): after energy allocation each ship with a cloak announces cloaked or not, for the
        whole turn. The robot never cloaks (seed 000: its rules cannot control a cloak)."""
        for ship in self.ships:
            if ship.cloak is None or not ship.active:
                continue
            paid = 0 if ship.robot else self.cloak_paid.get(ship.name, 0)
            want = False
            if paid >= ship.cloak.cost:
                if ship.name in self.fast:
                    want = self.advisors[ship.name].cloak(ship)
                else:
                    advisor = self.advisors[ship.name]
                    choice = Choice(f"{ship.name}: cloak for this turn (energy {paid} paid)?",
                                    (Option("cloak", "cloaked: cannot fire or launch; fire at it uses 2 x range + 5"),
                                     Option("uncloaked", "stay uncloaked")), False,
                                    ("cloak" if advisor.cloak(ship) else "uncloaked",))
                    answer = self.ask(ship, "cloak", ship, choice).action
                    if answer not in ("cloak", "uncloaked"):
                        raise IllegalAction(f"'{answer}' is not an answer here; choose cloak or uncloaked", "SFB.CLOAK")
                    want = answer == "cloak"
            pp.declare_cloak(self, ship, want, paid)

    def end_turn(self) -> None:
        for ship in self.ships:
            for w in ship.weapons:
                if w.kind == "disruptor":
                    w.ready = False  # E3.2: bolts cannot be held
        if self.turn >= self.max_turns:
            self.finish(None, "time")

    def offer_disengagement(self) -> None:
        """#5: a player ship may disengage by announcement at the end of any impulse (CTH #5; docs/sfb.md "Map
        edges and exits"). The robot cannot retreat."""
        if self.scenario.leave_map != "disengage":
            return
        for ship in self.ships:
            if ship.robot or not ship.active or ship.name in self.fast:
                continue  # the player policy fights on
            choice = Choice(f"{ship.name}: disengage now (a draw for you, a tactical victory for the robot)?",
                            (Option("no", "fight on"), Option("yes", "disengage")), False, ("no",))
            answer = self.ask(ship, "disengage", ship, choice).action
            if answer not in ("yes", "no"):
                raise IllegalAction(f"'{answer}' is not an answer here; choose yes or no", "SFB.EA")
            if answer == "yes":
                ship.gone = "disengaged"
                self.emit("left-map", ship.side, ship=ship.name, how="disengaged", edge=[])
                self.check_end()

    def play_impulse(self) -> None:
        self.move_ships()
        if self.outcome is None and (self.drones or self.plasmas):
            self.move_seekers()
        if self.outcome is None:
            self.launch_seekers()
            self.fire_direct()
            if self.drones or self.has_tubes:
                self.end_impulse()
            if self.outcome is None and self.scenario.leave_map == "disengage":
                self.offer_disengagement()

    # ------------------------------------------------------------------------------ step 1
    def move_ships(self) -> None:
        # C1.3: slower units move first; equal speeds: the player side first, so the robot follows it
        # "as a seeking weapon" that moves after its target (docs/sfb.md "Movement order").
        if self.order_turn != self.turn:
            self.order = sorted(self.ships, key=lambda s: (s.speed, s.robot, s.name))
            self.order_turn = self.turn
        impulse, chart = self.impulse, self.chart
        movers = [s for s in self.order if s.speed > 0 and not s.destroyed and not s.gone
                  and chart[s.speed if s.speed < self.impulses else self.impulses][impulse]]
        for ship in movers:
            if not ship.active:
                continue
            can_turn = ship.straight >= ship.turn_mode()
            if not can_turn:
                steer = STRAIGHT  # turn mode not yet satisfied: no choice to make (C3.2)
            elif ship.robot:
                steer = self.ask(ship, "move", ship, None).action
            elif ship.name in self.fast:
                steer = self.advisors[ship.name].move(ship, True)
            else:
                options = self.move_choice(ship, can_turn)
                steer = self.ask(ship, "move", ship, options).action
                if steer not in options.keys():
                    raise IllegalAction(f"'{steer}' is not a legal move now; choose one of "
                                        f"{', '.join(options.keys())}", "SFB.MOVE.COST")
            self.execute_move(ship, steer)
            if self.outcome is not None:
                return

    def move_choice(self, ship: Ship, can_turn: bool) -> Choice:
        items = []
        for steer, facing, dest in candidates(ship.hex, ship.facing, can_turn):
            where = hexgrid.label(dest) if self.board.contains(dest) else "off the map"
            items.append(Option(steer, f"{steer} to {where} facing {hexgrid.facing_letter(facing)}"))
        advisor = self.advisors.get(ship.name)
        default = (advisor.move(ship, can_turn),) if advisor is not None else (STRAIGHT,)
        return Choice(f"{ship.name} moves from {hexgrid.label(ship.hex)} facing "
                      f"{hexgrid.facing_letter(ship.facing)}:", tuple(items), False, default)

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
            pp.moved(self, ship)  # FP1.8: feedback only before either leaves the launch hex
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
    def move_seekers(self) -> None:
        volleys: dict[tuple[str, int], int] = {}
        if self.plasmas:
            pp.move_plasmas(self, volleys)  # SFB.PLASMA.MOVE / .STRENGTH / .FEEDBACK
        impacts: list[tuple[Drone, Ship, int]] = []
        moves = self.chart[self.drone_speed][self.impulse]
        for drone in self.drones:
            if not drone.alive:
                continue
            target = self.by_name[drone.target]
            if not target.active:
                drone.alive = False
                continue
            if drone.hex == target.hex:
                if drone.moves == 0 and drone.back is not None and target.hex == drone.prev_hex:
                    # F2.3: launched in the target's hex and it has not moved off: the weapon moves first and
                    # hits; the shield is judged as if the launcher were one hex to its rear
                    shield = self.shield_hit(target, drone.back, "drone launched in its target's hex")
                else:  # the target entered the weapon's hex: the weapon does not move (F2.1)
                    direction = hexgrid.facing_toward(target.prev_hex, target.hex)
                    shield = shield_facing_direction(target.facing, direction[0]) if direction else 1
                impacts.append((drone, target, shield))
                continue
            if not moves:
                continue
            steer, facing, dest = seek_choice(drone.hex, drone.facing, drone.moves > 0, target.hex)
            drone.prev_hex, drone.hex, drone.facing = drone.hex, dest, facing
            drone.moves += 1
            if dest not in self.cells:
                drone.alive = False
                self.emit("drone-lost", drone.side, drone=drone.label, why="left the map")
                continue
            if self.rec:
                self.emit("drone-moved", drone.side, drone=drone.label, steer=steer, to=hexgrid.label(dest))
            if dest == target.hex:
                impacts.append((drone, target, self.shield_hit(target, drone.prev_hex, "drone")))
        for drone, target, shield in impacts:
            drone.alive = False
            damage = self.drone_warhead
            if target.cloak is not None:
                damage = pp.cloak_roll_drone(self, drone, target, damage)  # SFB.CLOAK: 1-4 miss, 5-6 half
                if not damage:
                    continue
            self.emit("impact", drone.side, drone=drone.label, target=target.name, shield=shield, damage=damage)
            volleys[(target.name, shield)] = volleys.get((target.name, shield), 0) + damage
        if impacts:
            self.drones = [d for d in self.drones if d.alive]
        if volleys:
            self.resolve_volleys(volleys, "seeking")

    def shield_hit(self, target: Ship, source: Hex, why: str) -> int:
        """Shield facing ``source``; on a hexside boundary the cadet die roll decides (D3.41): odd -> the
        first shield clockwise of the pair, even -> the second (docs/sfb.md "Shield boundary")."""
        options = shields_toward(target.hex, target.facing, source)
        if not options:
            return 1
        if len(options) == 1:
            return options[0]
        a, b = options
        if (b - a) % 6 != 1:  # order the pair clockwise (#6 then #1)
            a, b = b, a
        roll = self.dice.d6(f"shield boundary #{a}/#{b} ({why})", target.side)
        return a if roll % 2 else b

    # ------------------------------------------------------------------------------ step 4
    def launch_seekers(self) -> None:
        if self.has_tubes:
            self.launch_plasmas()
        for ship in self.ships:
            if not ship.has_drones or ship.destroyed or ship.gone:
                continue
            if ship.cloak is not None and not pp.may_act(self, ship):
                continue  # SFB.CLOAK: no launch while cloaked or on impulse 1 after uncloaking
            racks = [w for w in ship.weapons if w.kind == "drone" and w.alive and w.ammo > 0 and self.rate_ok(w)]
            target = self.enemy_of(ship)
            if not racks or target is None:
                continue
            if ship.robot:
                decision = self.ask(ship, "launch", ship, None)
                keys = decision.action
            elif ship.name in self.fast:
                keys = self.advisors[ship.name].launch(ship, racks, target)
            else:
                items = tuple(Option(w.key, f"{w.key} ({w.ammo} drones) at {target.name}, range "
                                     f"{distance(ship.hex, target.hex)}") for w in racks)
                advisor = self.advisors[ship.name]
                choice = Choice(f"{ship.name}: launch drones?", items, True, advisor.launch(ship, racks, target))
                keys = self.ask_keys(ship, "launch", choice, lambda bad, legal: IllegalAction(
                    f"cannot launch from '{bad}' now; racks ready: {', '.join(legal)}", "SFB.R5"))
            for key in keys:
                rack = next(w for w in racks if w.key == key)
                self.launch_drone(ship, rack, target)

    def launch_plasmas(self) -> None:
        """SFB.PLASMA.LAUNCH: armed (or held) torpedoes whose target is in the launcher's arc; the robot by
        SFB.R8, the player side by its choice."""
        for ship in self.ships:
            if not ship.active:
                continue
            tubes = pp.launchable(self, ship)
            target = self.enemy_of(ship) if tubes else None
            if target is None:
                continue
            tubes = [w for w in tubes if pp.sees(self, ship, w, target)]
            if not tubes:
                continue
            if ship.robot:
                keys = self.ask(ship, "launch", ship, "plasma").action
            elif ship.name in self.fast:
                keys = self.advisors[ship.name].launch_plasma(ship, tubes, target)
            else:
                rng = distance(ship.hex, target.hex)
                items = tuple(Option(w.key, f"{w.key} at {target.name}, range {rng} (plasma-{w.tube.ptype.name}, "
                                            f"{w.tube.ptype.warhead[0]} at launch, {w.tube.ptype.endurance} hexes)")
                              for w in tubes)
                advisor = self.advisors[ship.name]
                choice = Choice(f"{ship.name}: launch plasma torpedoes?", items, True,
                                advisor.launch_plasma(ship, tubes, target))
                keys = self.ask_keys(ship, "launch", choice, lambda bad, legal: IllegalAction(
                    f"cannot launch '{bad}' now; ready with {target.name} in arc: {', '.join(legal)}",
                    "SFB.PLASMA.LAUNCH"))
            for key in keys:
                pp.launch(self, ship, next(w for w in tubes if w.key == key), target)

    def launch_drone(self, ship: Ship, rack: Weapon, target: Ship) -> Drone:
        rack.ammo -= 1
        ship.has_drones = any(w.kind == "drone" and w.alive and w.ammo for w in ship.weapons)
        rack.last_fired, rack.fired_turn = self.now, self.turn
        self.drone_count += 1
        toward = hexgrid.facing_toward(ship.hex, target.hex)
        facing = toward[0] if toward else ship.facing  # any facing with the target in the drone's FA (FD1.2)
        drone = Drone(f"{ship.name[:1].upper()}D{self.drone_count}", ship.side, ship.name, target.name, ship.hex,
                      facing, ship.hex, self.now + self.drone_endurance * self.impulses)
        if ship.hex == target.hex:
            drone.back = step(ship.hex, (ship.facing + 3) % 6)
        self.drones.append(drone)
        if self.rec:
            self.emit("launched", ship.side, ship=ship.name, rack=rack.key, drone=drone.label, target=target.name,
                      facing=hexgrid.facing_letter(facing), left=rack.ammo)
        return drone

    # ------------------------------------------------------------------------------ steps 5-6
    def fire_direct(self) -> None:
        orders: list[tuple[Ship, Weapon, Any]] = []
        for ship in self.ships:
            if ship.destroyed or ship.gone:
                continue
            if ship.cloak is not None and not pp.may_act(self, ship):
                continue  # SFB.CLOAK: a cloaked ship cannot fire; nor on impulse 1 after uncloaking
            if ship.robot:
                decision = self.ask(ship, "fire", ship, None)
                for key, target_name in decision.action:
                    weapon = next(w for w in ship.weapons if w.key == key)
                    orders.append((ship, weapon, self.target_named(target_name)))
            elif ship.name in self.fast:
                advisor = self.advisors[ship.name]
                if advisor.may_fire(ship):
                    orders.extend(advisor.fast_orders(ship))
            else:
                pairs = self.fire_options(ship)
                if not pairs or not self.worth_asking(ship, pairs):
                    continue
                items = tuple(Option(key, label) for key, label, _, _ in pairs)
                advisor = self.advisors[ship.name]
                default = advisor.fire(ship, pairs)
                choice = Choice(f"{ship.name}: fire which weapons?", items, True, default)
                keys = self.ask(ship, "fire", ship, choice).action
                if isinstance(keys, str):
                    keys = (keys,)
                legal = {key: (w, t) for key, _, w, t in pairs}
                used: set[str] = set()
                for key in keys:
                    if key not in legal:
                        raise IllegalAction(f"'{key}' is not a legal shot now; legal: {', '.join(legal)}", "SFB.EA")
                    weapon, target = legal[key]
                    if weapon.key in used:
                        raise IllegalAction(f"{weapon.key} can fire only once (E1.5)", "SFB.R1")
                    used.add(weapon.key)
                    orders.append((ship, weapon, target))
                spent = sum(w.cost for o_ship, w, _ in orders if o_ship is ship and w.kind == "phaser")
                if spent > ship.capacitor + 1e-9:
                    raise IllegalAction(f"the phaser capacitor holds {ship.capacitor:g}, not enough for these phasers",
                                        "SFB.PHASER.ENERGY")
        if orders:
            self.resolve_fire(orders)

    def worth_asking(self, ship: Ship, pairs) -> bool:
        """Ask a person to fire only when a shot is worth a thought: one (at a ship or a drone) expected to do at
        least 1 point, or the last impulse of the turn (so long shots stay possible once a turn) — asking on
        every impulse from range 26 would bury the game in prompts (docs/sfb.md "When a person is asked")."""
        if self.impulse == self.impulses:
            return True
        return any(self.expected_damage(ship, w, t) >= 1.0 for _, _, w, t in pairs)

    def target_named(self, name: str):
        if name in self.by_name:
            return self.by_name[name]
        for seeker in self.drones:
            if seeker.label == name:
                return seeker
        return next(t for t in self.plasmas if t.label == name)

    def ready_weapons(self, ship: Ship) -> list[Weapon]:
        """Direct-fire weapons of ``ship`` that may fire now: alive, within the firing rate (E1.5), and a phaser
        with capacitor charge for it (H6.1) or an armed heavy weapon."""
        ready = []
        for weapon in ship.weapons:
            if not weapon.alive or weapon.kind in ("drone", "plasma") or not self.rate_ok(weapon):
                continue
            if weapon.kind == "phaser":
                if ship.capacitor + 1e-9 < weapon.cost:
                    continue
            elif not weapon.ready:
                continue
            ready.append(weapon)
        return ready

    def fire_options(self, ship: Ship, labels: bool = True) -> list[tuple[str, str, Weapon, Any]]:
        """(key, label, weapon, target) for every legal shot of a player ship now."""
        ready = self.ready_weapons(ship)
        if not ready or (ship.cloak is not None and not pp.may_act(self, ship)):
            return []
        out = []
        targets: list = self.enemies(ship) + [d for d in self.drones if d.alive and d.side != ship.side]
        targets += [t for t in self.plasmas if t.alive and t.side != ship.side]
        for target in targets:
            if isinstance(target, (Drone, Plasma)) and not self.shootable_by_target(target, ship):
                continue
            for weapon in ready:
                if isinstance(target, Plasma) and weapon.kind != "phaser":
                    continue  # FP1.6: only phasers hurt plasma
                if self.bears(ship, weapon, target):
                    name = target.name if isinstance(target, Ship) else target.label
                    key = f"{weapon.key}>{name}"
                    label = f"{weapon.key} at {name}: {self.odds_text(ship, weapon, target)}" if labels else key
                    out.append((key, label, weapon, target))
        return out

    def odds_text(self, ship: Ship, weapon: Weapon, target) -> str:
        rng = distance(ship.hex, target.hex)
        eff = self.effective_range(ship, target, rng)
        where = f"range {rng}" + (f" (effective {eff}: cloaked)" if eff != rng else "")
        if isinstance(target, Plasma):
            where += f", torpedo strength {target.strength}"
        if weapon.kind == "phaser":
            chart = phaser_chart(weapon.type)
            return f"{where}, damage {'/'.join(str(chart[d][eff]) for d in range(6))} on 1-6"
        hit, dmg_by_range = heavy_chart(weapon.type)
        need = hit[eff] - (self.heavy_penalty if isinstance(target, Drone) else 0)
        return f"{where}, hits on 1-{max(0, need)} ({max(0, need) / 6:.0%}) for {dmg_by_range[rng]}"

    def expected_damage(self, ship: Ship, weapon: Weapon, target) -> float:
        rng = distance(ship.hex, target.hex)
        eff = self.effective_range(ship, target, rng)
        if weapon.kind == "phaser":
            chart = phaser_chart(weapon.type)
            return sum(chart[d][eff] for d in range(6)) / 6
        hit, dmg_by_range = heavy_chart(weapon.type)
        need = hit[eff] - (self.heavy_penalty if isinstance(target, Drone) else 0)
        return max(0, need) / 6 * dmg_by_range[rng]

    def resolve_fire(self, orders: list[tuple[Ship, Weapon, Any]]) -> None:
        """All shots of the step are rolled, then all damage is applied (simultaneous fire, E1.0)."""
        volleys: dict[tuple[str, int], int] = {}
        drone_hits: dict[str, int] = {}
        plasma_hits: dict[str, int] = {}
        boundary: dict[tuple[str, str], int] = {}
        for ship, weapon, target in orders:
            weapon.last_fired, weapon.fired_turn = self.now, self.turn
            if weapon.kind == "phaser":
                if not ship.robot:  # the robot does not allocate energy: its weapons are reloaded (SFB.R6)
                    ship.capacitor -= weapon.cost
            elif weapon.kind == "photon":
                weapon.arm = 0
                weapon.ready = False
            else:
                weapon.ready = False
            rng = distance(ship.hex, target.hex)
            eff = self.effective_range(ship, target, rng)
            is_drone = isinstance(target, Drone)
            is_plasma = isinstance(target, Plasma)
            name = target.label if is_drone or is_plasma else target.name
            roll = self.dice.d6(f"{weapon.key} at {name}, range {rng}", ship.side)
            if weapon.kind == "phaser":
                chart = phaser_chart(weapon.type)[roll - 1]
                points = chart[eff] if eff < len(chart) else 0
            else:
                hit, by_range = heavy_chart(weapon.type)
                modified = roll + (self.heavy_penalty if is_drone else 0)  # FD1.52
                # E3.31: the hit roll uses effective range, damage the true range
                points = by_range[rng] if eff < len(hit) and hit[eff] and modified <= hit[eff] else 0
            if self.rec:
                self.emit("fired", ship.side, ship=ship.name, weapon=weapon.key, target=name, range=rng, roll=roll,
                          damage=points)
            if not points:
                continue
            if is_drone:
                drone_hits[target.label] = drone_hits.get(target.label, 0) + points
                continue
            if is_plasma:
                plasma_hits[target.label] = plasma_hits.get(target.label, 0) + points
                continue
            key = (ship.name, target.name)
            if key not in boundary:
                origin, aim = self.geometry(ship, target)
                if origin == aim:
                    boundary[key] = 1
                else:
                    saved = target.hex
                    target.hex = aim
                    boundary[key] = self.shield_hit(target, origin, f"fire from {ship.name}")
                    target.hex = saved
            shield = boundary[key]
            volleys[(target.name, shield)] = volleys.get((target.name, shield), 0) + points
        for label, points in drone_hits.items():
            drone = next(d for d in self.drones if d.label == label)
            drone.damage += points
            if drone.damage >= self.drone_kill and drone.alive:
                drone.alive = False
                self.emit("drone-destroyed", drone.side, drone=label)
        self.drones = [d for d in self.drones if d.alive]
        if plasma_hits:
            for torp in self.plasmas:
                if torp.label in plasma_hits:
                    pp.hit_plasma(self, torp, plasma_hits[torp.label])  # FP1.6: 2 points take 1 off
            self.plasmas = [t for t in self.plasmas if t.alive]
        self.resolve_volleys(volleys, "direct")

    def resolve_volleys(self, volleys: dict[tuple[str, int], int], step_name: str) -> None:
        """SFB.DMG4: all damage through one shield in one step is one volley."""
        for (name, shield), points in sorted(volleys.items()):
            ship = self.by_name[name]
            if ship.destroyed:
                continue
            absorbed = min(points, ship.shields[shield - 1])
            ship.shields[shield - 1] -= absorbed
            internal = points - absorbed
            hits: list[str] = []
            if internal:
                ship.internal += internal
                if self.scenario.damage == "dmg1":
                    hits = dmg.dmg1_volley(ship, internal, self.turn)
                else:
                    hits = dmg.dac_volley(ship, internal, self.turn, self.dice)
            if self.rec:
                self.emit("damage", ship.side, ship=name, shield=shield, points=points, absorbed=absorbed,
                          internal=internal, hits=hits, step=step_name, rule="SFB.DMG4",
                          damage_rule="SFB.DMG1" if self.scenario.damage == "dmg1" else "DAC")
            if ship.destroyed:
                self.emit("destroyed", ship.side, ship=name)
                for drone in self.drones:  # D4.41: its drones are removed (its plasma flies on, FP4.0)
                    if drone.owner == name:
                        drone.alive = False
        if self.has_tubes:
            pp.note_tube_losses(self)  # SFB.PLASMA.TUBE: a destroyed armed tube's 1/4-turn window
        self.check_end()

    # ------------------------------------------------------------------------------ step 7
    def end_impulse(self) -> None:
        if self.has_tubes:
            pp.end_impulse(self)
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

    def status_lines(self, side: str) -> list[str]:
        lines = []
        for s in self.side_ships(side):
            state = "destroyed" if s.destroyed else (s.gone or f"{hexgrid.label(s.hex)} "
                                                                f"{hexgrid.facing_letter(s.facing)} speed {s.speed}")
            cloak = "" if s.cloak is None else (" CLOAKED" if s.cloak.cloaked else f" (cloak {s.cloak.cost})")
            lines.append(f"{s.name} ({side}): {state}{cloak}; shields {'/'.join(str(x) for x in s.shields)}")
            ready = []
            for w in s.weapons:
                if not w.alive:
                    ready.append(f"{w.key} X")
                elif w.kind == "drone":
                    ready.append(f"{w.key} {w.ammo}")
                elif w.tube is not None and not s.robot:
                    ready.append(f"{w.key} {('armed', 'held')[w.tube.state - 3] if w.tube.armed else w.tube.state}/3")
                elif w.kind == "photon" and not s.robot:
                    ready.append(f"{w.key} {'armed' if w.arm == 2 else ('half' if w.arm == 1 else 'empty')}")
                else:
                    ready.append(w.key)
            if s.robot:  # the robot allocates no energy: show what slows it instead (SFB.DMG3)
                speed = max(0, ROBOT_SPEED[self.impulses] - s.warp_lost)
                lines.append(f"  robot: warp boxes lost {s.warp_lost} (speed {speed} from next turn); hull {s.hull}, "
                             f"excess {s.excess}, internal damage {s.internal}")
            else:
                lines.append(f"  power {s.power} (warp {s.warp}, impulse {s.impulse}, APR {s.apr}), batteries "
                             f"{s.charged}/{s.battery}, capacitor {s.capacitor:g}/{s.capacity:g}; hull {s.hull}, "
                             f"excess {s.excess}, internal damage {s.internal}")
            lines.append("  weapons: " + ", ".join(ready))
        return lines


def _jsonable(action):
    if isinstance(action, EnergyAllocation):
        return {"speed": action.speed, "phasers": action.phasers, "arm": [list(a) for a in action.arm],
                "recharge": action.recharge, "cloak": action.cloak}
    if isinstance(action, (list, tuple)):
        return [_jsonable(a) for a in action]
    return action
