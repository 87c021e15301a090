"""The SFB turn's first phase: energy allocation and speed (SFB.EA), the robot's fixed speed and reloads (SFB.R1,
R6; scenario #6's R8 cadence and R.CLOAK3 evasion), the 8-impulse game's Chief Engineer, and the cloak
declaration (SFB.CLOAK) that follows it.

``EnergyPhase`` is a part of the engine class (game.Game inherits it; base.py lists the chain).
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Final, Generator, cast

from ..core.contract import Request
from ..core.controller import Decision
from ..core.errors import IllegalAction
from . import robot_cloak as rc
from .energy import EnergyAllocation
from .state import Ship
from .victory import Victory

if TYPE_CHECKING:
    from .game import Game


# The robot's speed (procedure.Numbers.robot_speed, an interpreted method) by (id of the numbers, impulses, warp boxes
# lost): the numbers kept with it, so an id is only taken as theirs while they live (a hit checks they are the same).
_ROBOT_SPEEDS: Final[dict[tuple[int, int, int], tuple[Any, int]]] = {}


def robot_speed(numbers: Any, impulses: int, warp_lost: int) -> int:
    """``numbers.robot_speed(impulses, warp_lost)`` (SFB.R1, SFB.DMG3), worked out once per procedure and case."""
    key = (id(numbers), impulses, warp_lost)
    hit = _ROBOT_SPEEDS.get(key)
    if hit is not None and hit[0] is numbers:
        return hit[1]
    speed: int = numbers.robot_speed(impulses, warp_lost)
    if len(_ROBOT_SPEEDS) >= 256:
        _ROBOT_SPEEDS.clear()
    _ROBOT_SPEEDS[key] = (numbers, speed)
    return speed


class EnergyPhase(Victory):
    """Energy allocation and what comes with it, at the start of each turn."""

    def start_turn(self) -> Generator[Request, Any, None]:
        """Energy allocation (SFB.EA) and speed determination; the robot's fixed speed (SFB.R1, SFB.DMG3)."""
        self.emit("turn")
        for ship in self.ships:
            if not ship.active:
                continue
            if ship.robot:
                ship.speed = robot_speed(self.robot_numbers, self.impulses, ship.warp_lost)
                self.robot_turn_start(ship)
            elif self.impulses == 8:
                yield from self.chief_engineer(ship)  # seed 002's game without energy allocation (docs/sfb.md)
            else:
                decision: Decision = yield self.energy_request(ship)
                self.apply_energy(ship, decision.action, checked=True)  # the request's form checked it (check_energy)
        if self.has_cloaks:
            yield from self.declare_cloaks()

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
                w.tube.state = 3 if rc.r8_turn(self.turn, self.robot_numbers) else 0  # plasma.ARMED / plasma.EMPTY
                w.ready = w.tube.armed
        threats = rc.threatened(cast("Game", self), ship)
        if threats:
            ordinary = ship.speed
            best = rc.best_speed(self.impulses, ship.warp_lost, self.robot_numbers)
            ship.speed = rc.safe_speed(cast("Game", self), ship, best)
            if self.rec:
                text = (f"torpedo {threats[0].label} is after it: run at best speed {ship.speed} this turn"
                        + ("" if ship.speed > ordinary else " (no faster speed is safe from the map edge)")
                        + self.robot_numbers.n_evade_speed)
                self.emit("decision", ship.side, ship=ship.name, request="speed", rule="SFB.R.CLOAK3", text=text,
                          rolls=[], action=ship.speed)

    def chief_engineer(self, ship: Ship) -> Generator[Request, Any, None]:
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

    def declare_cloaks(self) -> Generator[Request, Any, None]:
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

    def apply_energy(self, ship: Ship, alloc: EnergyAllocation, checked: bool = False) -> None:
        """Spend ``alloc``; ``checked``: the energy request's answer, which its form checked (EnergyForm.check runs
        check_energy, and nothing changes between the answer's check and this)."""
        if not checked:
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
