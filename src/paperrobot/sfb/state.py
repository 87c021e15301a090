"""Hot game state: ships, weapons and seeking weapons as small slotted dataclasses."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple

from ..core.hexgrid import Hex, arc_shape
from .data import PHASER_COST, ShipSpec, max_range, min_range

KIND: Final = {"phaser-1": "phaser", "phaser-2": "phaser", "phaser-3": "phaser", "photon": "photon",
        "disruptor": "disruptor", "drone": "drone", "plasma-s": "plasma", "plasma-g": "plasma", "plasma-f": "plasma"}
# A weapon's kind as an int (Weapon.code), for the hot paths' tests: compiled, a Final int is a constant and comparing
# two ints is one instruction, where a kind's name is compared as a string. The seeking kinds are the highest.
PHASER: Final = 1
PHOTON: Final = 2
DISRUPTOR: Final = 3
DRONE: Final = 4  # DRONE and above: seeking weapons, not direct fire
PLASMA: Final = 5
KIND_CODE: Final = {"phaser": PHASER, "photon": PHOTON, "disruptor": DISRUPTOR, "drone": DRONE, "plasma": PLASMA}
# Which box the owner gives up first within a damage category (docs/sfb.md "Owner's box choices").
WEAPON_VALUE: Final = {"phaser-3": 1, "phaser-2": 2, "drone": 3, "phaser-1": 4, "disruptor": 5, "photon": 6,
                "plasma-f": 6, "plasma-g": 6, "plasma-s": 7}


class Sheet:
    """What ``Ship.build`` reads of a ship sheet (a pydantic model, read attribute by attribute through Python's
    generic protocol) and of the weapon tables (interpreted functions), read once per sheet: every battle of a
    simulation builds its ships from the same sheets."""

    def __init__(self, spec: ShipSpec) -> None:
        self.spec = spec
        self.turn_modes = tuple(spec.turn_mode(v) for v in range(33))  # by speed 0..32
        # (key, type, kind, arc, phaser cost, ammo, rmin, rmax) of each weapon, in the sheet's order
        self.weapons: list[tuple[str, str, str, str, float, int, int, int]] = []
        for w in spec.weapons:
            kind = KIND[w.type]
            rmin = rmax = 0
            if kind in ("phaser", "photon", "disruptor"):
                rmin, rmax = min_range(w.type), max_range(w.type)
            self.weapons.append((w.key, w.type, kind, w.arc, PHASER_COST.get(w.type, 0.0), w.ammo, rmin, rmax))
        self.shields: list[int] = list(spec.shields)
        self.boxes = (spec.warp, spec.impulse, spec.apr, spec.battery, spec.hull, spec.bridge, spec.security,
                      spec.transporter, spec.lab, spec.shuttle, spec.excess)


# ship sheet's id -> what Ship.build reads of it; the Sheet keeps the sheet, so its id cannot be another's while here
_SHEETS: Final[dict[int, Sheet]] = {}


def sheet(spec: ShipSpec) -> Sheet:
    found = _SHEETS.get(id(spec))
    if found is not None and found.spec is spec:
        return found
    if len(_SHEETS) >= 256:  # handicapped sheets are new objects every battle
        _SHEETS.clear()
    found = _SHEETS[id(spec)] = Sheet(spec)
    return found


def turn_modes(spec: ShipSpec) -> tuple[int, ...]:
    """The sheet's turn mode at each speed 0..32 (66 calls of the interpreted ``ShipSpec.turn_mode`` a battle)."""
    return sheet(spec).turn_modes


@dataclass(slots=True)
class Weapon:
    key: str  # e.g. "phaser-1#2", "photon-A", "drone-1"
    type: str
    kind: str  # phaser, photon, disruptor, drone, plasma
    arc: str
    cost: float = 0.0  # phaser firing cost from the capacitor
    ammo: int = 0  # drones left in a rack
    alive: bool = True
    ready: bool = False  # energised / armed for this turn
    arm: int = 0  # photon arming: 0 none, 1 first turn paid, 2 armed
    last_fired: int = -1000  # absolute impulse of the last firing or launch
    fired_turn: int = 0
    rmin: int = 0  # range limits: the weapon cannot fire outside rmin..rmax
    rmax: int = 0
    # Worked out from ``kind`` and ``arc`` when the weapon is made (__post_init__; clone and fork copy them), neither
    # ever changes: ``code``, the kind as an int (KIND_CODE, 0 for none of them); ``shape``, the arc's shape
    # (hexgrid.arc_shape), which the arc tests read instead of looking the arc up by its name each time.
    code: int = field(default=0, repr=False, compare=False)
    shape: tuple[int, ...] = field(default=(), repr=False, compare=False)
    tube: Any = None  # a plasma launcher's arming state (scenario #6 rules, plasma_play.py)

    def __post_init__(self) -> None:
        self.code = KIND_CODE.get(self.kind, 0)
        self.shape = arc_shape(self.arc)


@dataclass(slots=True)
class Ship:
    name: str
    side: str
    spec: ShipSpec
    hex: Hex
    facing: int
    robot: bool
    prev_hex: Hex = None  # type: ignore[assignment]
    speed: int = 0
    straight: int = 99  # hexes moved straight since the last turn (C3.43: start satisfied)
    shields: list[int] = field(default_factory=list)
    warp: int = 0
    impulse: int = 0
    apr: int = 0
    battery: int = 0
    charged: int = 0
    hull: int = 0
    bridge: int = 0
    security: int = 0
    transporter: int = 0
    lab: int = 0
    shuttle: int = 0
    excess: int = 0
    # Any, not float: with no live phaser the capacity is the int 0 (an empty sum) and min() keeps it, which the
    # event log records as 0, not 0.0; a float field (compiled: a C double) would change recorded logs.
    capacitor: Any = 0.0
    weapons: list[Weapon] = field(default_factory=list)
    warp_lost: int = 0
    internal: int = 0  # internal damage points taken
    destroyed: bool = False
    gone: str = ""  # "" on the map; "disengaged", "exited", "lost" once off it
    objective: bool = False  # scenario #4: has passed next to the Dakota
    has_drones: bool = False  # a rack with drones left (skips the launch step cheaply)
    tm_table: tuple[int, ...] = ()  # turn mode by speed 0..32, from the SSD
    cloak: Any = None  # the cloaking device's state (scenario #6 rules, cloak.py)
    # What the Cadet robot remembers between decisions (robot.py), kept here as game state:
    primary_done: bool = False  # SFB.R2: the Primary Fire Point of this turn has been taken (or passed)
    tie_side: str | None = None  # SFB.R3: a turn-direction tie decided since the last firing
    focus: str | None = None  # SFB.R.CLOAK4: the torpedo it is running from

    @classmethod
    def build(cls, name: str, side: str, spec: ShipSpec, hex_: Hex, facing: int, robot: bool) -> "Ship":
        made = sheet(spec)  # the sheet's values, read once per sheet (Sheet)
        weapons = []
        for key, type_, kind, arc, cost, ammo, rmin, rmax in made.weapons:
            weapon = Weapon(key, type_, kind, arc, cost, ammo)
            weapon.rmin, weapon.rmax = rmin, rmax  # 0 and 0 but for phasers, photons and disruptors
            weapons.append(weapon)
        warp, impulse, apr, battery, hull, bridge, security, transporter, lab, shuttle, excess = made.boxes
        ship = cls(name, side, spec, hex_, facing, robot, prev_hex=hex_, shields=list(made.shields),
                   warp=warp, impulse=impulse, apr=apr, battery=battery, charged=battery,
                   hull=hull, bridge=bridge, security=security, transporter=transporter,
                   lab=lab, shuttle=shuttle, excess=excess, weapons=weapons)
        ship.has_drones = any(w.kind == "drone" and w.ammo for w in weapons)
        ship.tm_table = made.turn_modes
        return ship

    @property
    def active(self) -> bool:
        return not self.destroyed and not self.gone

    @property
    def capacity(self) -> Any:  # the int 0 with no live phaser (see capacitor)
        return sum(w.cost for w in self.weapons if w.alive and w.code == PHASER)

    @property
    def power(self) -> int:
        return self.warp + self.impulse + self.apr

    def photons_fired(self, turn: int) -> int:
        """Photon torpedoes fired this turn (SFB.R7 counts them)."""
        count = 0
        for w in self.weapons:  # a loop: the robot asks this on most impulses
            if w.code == PHOTON and w.fired_turn == turn:
                count += 1
        return count

    def weapon(self, key: str) -> "Weapon | None":
        for w in self.weapons:
            if w.key == key:
                return w
        return None

    def equip(self, plasma_f: str) -> None:
        """Plasma tubes in their FP1.23 start state and the cloaking device at its sheet cost (scenario #6)."""
        from . import cloak as ck
        from . import plasma as pl, plasma_data
        for w in self.weapons:
            if w.kind == "plasma":
                w.tube = pl.PlasmaTube.start(w.key, plasma_data.plasma_type(w.type, plasma_f))
                w.ready = w.tube.armed
        self.cloak = ck.Cloak(self.spec.cloak_cost) if self.spec.cloak_cost else None

    def turn_mode(self) -> int:
        return self.tm_table[self.speed]

    def boxes(self) -> dict[str, int]:
        return {"hull": self.hull, "warp": self.warp, "impulse": self.impulse, "apr": self.apr,
                "battery": self.battery, "transporter": self.transporter, "lab": self.lab, "shuttle": self.shuttle,
                "security": self.security, "excess": self.excess, "bridge": self.bridge,
                "weapons": sum(1 for w in self.weapons if w.alive)}


@dataclass(slots=True)
class Drone:
    label: str
    side: str
    owner: str
    target: str
    hex: Hex
    facing: int
    prev_hex: Hex
    expires: int  # absolute impulse at which it is removed (3-turn endurance)
    moves: int = 0
    damage: int = 0
    alive: bool = True
    back: Hex | None = None  # launched in its target's hex: the hex behind the launcher (F2.3)


class MapItem(NamedTuple):
    label: str
    hex: Hex
    facing: int
    side: str
    kind: str  # "ship", "drone", "objective"
    name: str
