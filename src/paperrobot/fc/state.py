"""FC game state: plain slotted dataclasses (the hot path of simulations), no pydantic here.

Each class writes its ``__init__`` out (the dataclass keeps a class's own): compiled by mypyc, the ``__init__`` that
``dataclass`` generates stays interpreted Python, and every battle and every fork (snapshot.build) builds a few
dozen of these. tests/fc/test_state_init.py checks that each ``__init__`` takes the fields in order, with their
defaults, so a field added to the class and not to its ``__init__`` fails there."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from ..core.hexgrid import Hex
from .arcs import arc_masks
from .data import ShipSpec

POWER = ("warp", "impulse", "reactor")
PHASERS: Final[tuple[str, ...]] = ("phaser-1", "phaser-2", "phaser-3")
KIND_CODES: Final[dict[str, int]] = {"phaser-1": 1, "phaser-2": 2, "phaser-3": 3, "disruptor": 4, "photon": 5}


@dataclass(slots=True)
class Weapon:
    id: str
    kind: str  # phaser-1/2/3, disruptor, photon
    arc: str
    alive: bool = True
    fired: bool = False  # fired this turn (each weapon once per turn)
    arm: int = 0  # photons: 0 empty, 1 preloaded, 2 armed
    phaser: bool = field(init=False)  # a phaser of any type: read thousands of times a battle, so stored
    masks: tuple[int, ...] | None = field(init=False, repr=False)  # its arc's wedges by facing (arcs.arc_masks)
    code: int = field(init=False, repr=False, compare=False)  # its kind as a number, 0 for another (weapon_cost's key)

    def __init__(self, id: str, kind: str, arc: str, alive: bool = True, fired: bool = False, arm: int = 0) -> None:
        self.id = id
        self.kind = kind
        self.arc = arc
        self.alive = alive
        self.fired = fired
        self.arm = arm
        code = KIND_CODES.get(kind, 0)  # one lookup for both (a fork builds 25 weapons): the phasers are 1-3
        self.phaser = 1 <= code <= 3  # a phaser of any type: read thousands of times a battle, so stored
        self.masks = arc_masks(arc)  # its arc's wedges by facing (arcs.arc_masks)
        self.code = code


@dataclass(slots=True)
class Rack:
    alive: bool = True
    ammo: int = 4
    launched: bool = False  # one launch per rack per turn (4G2)

    def __init__(self, alive: bool = True, ammo: int = 4, launched: bool = False) -> None:
        self.alive = alive
        self.ammo = ammo
        self.launched = launched


@dataclass(slots=True)
class Drone:
    id: str
    owner: str  # side that launched it
    target: str  # a ship side, or a drone id for counter-drones
    pos: Hex
    facing: int
    launched_turn: int
    damage: int = 0  # hit points lost
    alive: bool = True
    impacting: bool = False  # entered its target's hex this impulse (an "impacted weapon")
    approach: int = -1  # compass direction it came from into the target's hex
    held_by: str = ""  # side holding it in a tractor
    released: bool = False  # released from a tractor: hits in the next defensive fire step

    def __init__(self, id: str, owner: str, target: str, pos: Hex, facing: int, launched_turn: int, damage: int = 0,
                 alive: bool = True, impacting: bool = False, approach: int = -1, held_by: str = "",
                 released: bool = False) -> None:
        self.id = id
        self.owner = owner
        self.target = target
        self.pos = pos
        self.facing = facing
        self.launched_turn = launched_turn
        self.damage = damage
        self.alive = alive
        self.impacting = impacting
        self.approach = approach
        self.held_by = held_by
        self.released = released


@dataclass(slots=True)
class Ship:
    side: str
    spec: ShipSpec
    pos: Hex
    facing: int
    shields: list[int]
    boxes: dict[str, int]
    weapons: list[Weapon]
    racks: list[Rack]
    reloads: int
    add_shots: int
    energy: float = 0.0  # tokens left this turn
    battery: float = 0.0  # stored power
    baseline: int = 0  # 0, 8, 16, 24
    stopped: bool = False  # emergency deceleration this turn
    accel: bool = False  # bought an extra move this impulse
    since_turn: int = 99  # hexes moved since the last turn (turn mode)
    slip_ok: bool = True  # sideslip mode satisfied
    het_used: bool = False  # an HET this impulse: the next move must be straight
    prev_pos: Hex | None = None
    tractors_used: int = 0  # this turn
    repair_target: str = ""
    repair_done: int = 0
    internals: int = 0  # damage points that got past the shields
    destroyed: bool = False
    disengaged: bool = False  # left a fixed map
    moves_this_impulse: int = 0
    fired_disruptors: bool = False  # this turn (robot step 3B1/3B2)
    damage_taken_volley: int = 0
    log_name: str = ""

    def __init__(self, side: str, spec: ShipSpec, pos: Hex, facing: int, shields: list[int], boxes: dict[str, int],
                 weapons: list[Weapon], racks: list[Rack], reloads: int, add_shots: int, energy: float = 0.0,
                 battery: float = 0.0, baseline: int = 0, stopped: bool = False, accel: bool = False,
                 since_turn: int = 99, slip_ok: bool = True, het_used: bool = False, prev_pos: Hex | None = None,
                 tractors_used: int = 0, repair_target: str = "", repair_done: int = 0, internals: int = 0,
                 destroyed: bool = False, disengaged: bool = False, moves_this_impulse: int = 0,
                 fired_disruptors: bool = False, damage_taken_volley: int = 0, log_name: str = "") -> None:
        self.side = side
        self.spec = spec
        self.pos = pos
        self.facing = facing
        self.shields = shields
        self.boxes = boxes
        self.weapons = weapons
        self.racks = racks
        self.reloads = reloads
        self.add_shots = add_shots
        self.energy = energy
        self.battery = battery
        self.baseline = baseline
        self.stopped = stopped
        self.accel = accel
        self.since_turn = since_turn
        self.slip_ok = slip_ok
        self.het_used = het_used
        self.prev_pos = prev_pos
        self.tractors_used = tractors_used
        self.repair_target = repair_target
        self.repair_done = repair_done
        self.internals = internals
        self.destroyed = destroyed
        self.disengaged = disengaged
        self.moves_this_impulse = moves_this_impulse
        self.fired_disruptors = fired_disruptors
        self.damage_taken_volley = damage_taken_volley
        self.log_name = log_name

    @property
    def shield_max(self) -> tuple[int, ...]:
        return self.spec.shields

    def box_max(self, system: str) -> int:
        for key, count in self.spec.systems:
            if key == system:
                return count
        return 0

    def power(self) -> int:
        return sum(self.boxes.get(k, 0) for k in POWER)

    def battery_cap(self) -> int:
        return self.boxes.get("battery", 0)

    def available(self) -> float:
        return self.energy + self.battery

    def spend(self, amount: float) -> bool:
        """Pay from this turn's tokens, then batteries; False (and nothing paid) if short."""
        if amount > self.energy + self.battery + 1e-9:
            return False
        use = min(self.energy, amount)
        self.energy -= use
        self.battery -= amount - use
        return True

    def speed_now(self) -> int:
        return 0 if self.stopped else self.baseline + (1 if self.accel else 0)

    def weapons_by_kind(self) -> dict[str, tuple[Weapon, ...]]:
        """Each weapon kind's weapons, in the card's order (the robot and the policy fire kind by kind)."""
        found: dict[str, list[Weapon]] = {}
        for w in self.weapons:
            found.setdefault(w.kind, []).append(w)
        return {kind: tuple(ws) for kind, ws in found.items()}

    def live_weapons(self, kind: str | None = None) -> list[Weapon]:
        return [w for w in self.weapons if w.alive and (kind is None or w.kind == kind)]

    def tractors(self) -> int:
        return self.boxes.get("tractor", 0)

    def ready_racks(self) -> list[Rack]:
        return [r for r in self.racks if r.alive and r.ammo > 0 and not r.launched]

    def drones_left(self) -> int:
        return sum(r.ammo for r in self.racks if r.alive)

    def internal_boxes(self) -> int:
        return (sum(self.boxes.values()) + sum(1 for w in self.weapons if w.alive)
                + sum(1 for r in self.racks if r.alive))


def new_ship(side: str, spec: ShipSpec, pos: Hex, facing: int) -> Ship:
    weapons = [Weapon(w.id, w.kind, w.arc) for w in spec.weapons]
    racks = [Rack(ammo=spec.per_rack) for _ in range(spec.racks)]
    s = Ship(side, spec, pos, facing, list(spec.shields), dict(spec.systems), weapons, racks,
             spec.reloads * spec.racks, spec.add_shots)
    s.battery = float(s.battery_cap())  # batteries start charged (turn-1 bonus, 1E1)
    return s


@dataclass(slots=True)
class Allocation:
    """Energy allocation: baseline speed, shield boxes to regenerate, drones to keep holding, photons."""

    speed: int
    regen: tuple[int, ...] = ()  # shield numbers 1..6, one entry per box
    hold: tuple[str, ...] = ()  # drone ids kept in tractors
    photons: tuple[str, ...] = ()  # photon ids to arm/hold this turn
    reasons: list[Any] = field(default_factory=list)
