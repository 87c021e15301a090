"""Energy allocation (seed 002 lines 1-21): the allocation a player hands in, and the energy form.

The allocation is asked as a contract Form (fields ``speed``, ``phasers``, one per heavy weapon or plasma tube,
``recharge``, and ``cloak`` on a ship with a cloaking device). ``choices`` gives each field's legal values given
the earlier fields (within the power left and the warp rule), so answering field by field always gives a legal
allocation; ``check`` turns the values into an EnergyAllocation and lets the engine's ``check_energy`` refuse
anything illegal with its rule ID before anything changes.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Final

from typing import TYPE_CHECKING, Any

from ..core.contract import Field, Form, Option
from ..core.errors import IllegalAction
from .state import Ship, Weapon

if TYPE_CHECKING:
    from .game import Game

SPEED_BANDS = (1.0, 0.75, 0.5, 0.25)  # shares of the top speed the suggested weapons leave power for
SPEED_CAP = 10 ** 6  # "as fast as the power allows" for the captain's allocation at a speed
# An energy request's data for a side flown in process by the engine's policy: answer with the EnergyAllocation
# itself (requests.Requests.energy_request); every other energy request is answered with the form's values.
AS_ALLOCATION: Final = "allocation"


@dataclass(frozen=True, slots=True)
class EnergyAllocation:
    """One column of the Cadet Energy Allocation Form.

    speed: movement energy (line 14, 1 per hex); phasers: energy added to the phaser capacitor (line 9);
    arm: energy per heavy weapon (line 10) as (weapon key, points), e.g. ("photon-A", 2);
    recharge: batteries recharged (line 16); plasma tubes are ``arm`` lines too ("plasma-s-A");
    cloak: energy for the cloaking device (line 19: 0 or the ship's cost, SFB.CLOAK).
    """

    speed: int = 0
    phasers: float = 0.0
    arm: tuple[tuple[str, int], ...] = ()
    recharge: int = 0
    cloak: int = 0

    def armed(self, key: str) -> int:
        for name, points in self.arm:
            if name == key:
                return points
        return 0

    @property
    def total(self) -> float:
        return self.speed + self.phasers + sum(p for _, p in self.arm) + self.recharge + self.cloak


_store: Final = object.__setattr__  # how a frozen dataclass sets its fields (its own __init__ does the same)


def allocation(speed: int, phasers: float, arm: tuple[tuple[str, int], ...], recharge: int, cloak: int) -> EnergyAllocation:
    """``EnergyAllocation(speed, phasers, arm, recharge, cloak)``, the same object, made without the dataclass
    __init__: compiled, the class is native but that __init__ is the interpreted one the decorator writes (a
    generic call, then a frame storing each field): a few per simulated turn, a measurable part of the energy step."""
    made = EnergyAllocation.__new__(EnergyAllocation)
    _store(made, "speed", speed)
    _store(made, "phasers", phasers)
    _store(made, "arm", arm)
    _store(made, "recharge", recharge)
    _store(made, "cloak", cloak)
    return made


# The policy's allocations by their values (``shared_allocation``): the same few all battle long, and an allocation is
# immutable, so equal ones may be one object (making one is a generic call and five generic stores)
_SHARED: Final[dict[tuple[int, float, tuple[tuple[str, int], ...], int, int], EnergyAllocation]] = {}


def shared_allocation(speed: int, phasers: float, arm: tuple[tuple[str, int], ...], recharge: int,
                      cloak: int) -> EnergyAllocation:
    """``allocation(...)``, one object for equal values: for allocations worked out by the program (the policy's),
    whose values are ints and a non-negative float, so equal values print the same."""
    key = (speed, phasers, arm, recharge, cloak)
    made = _SHARED.get(key)
    if made is None:
        if len(_SHARED) >= 1024:
            _SHARED.clear()
        made = _SHARED[key] = allocation(speed, phasers, arm, recharge, cloak)
    return made


def energy_values(alloc: EnergyAllocation, cloak: bool) -> dict[str, Any]:
    """The form values of an allocation (what a controller answers)."""
    values: dict[str, Any] = {"speed": alloc.speed, "phasers": alloc.phasers}
    for key, points in alloc.arm:
        values[key] = points
    values["recharge"] = alloc.recharge
    if cloak:
        values["cloak"] = alloc.cloak
    return values


def arm_weapons(ship: Ship) -> list[Weapon]:
    """The allocation's weapon lines, in the form's order: photons and disruptors, then plasma tubes."""
    heavy = [w for w in ship.weapons if w.alive and w.kind in ("photon", "disruptor")]
    return heavy + [w for w in ship.weapons if w.tube is not None and w.alive]


def _number(name: str, value: Any, whole: bool = True, rule: str = "SFB.EA") -> int | float:
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or abs(value) > 1e6:
        raise IllegalAction(f"'{name}={str(value)[:20]}': the value must be a number", "SFB.EA")
    if value < 0:
        raise IllegalAction(f"'{name}={value}': energy cannot be negative", "SFB.EA")
    if whole:
        if value != int(value):
            raise IllegalAction(f"'{name}={value}': use a whole number", rule)
        return int(value)
    if value * 2 != int(value * 2):
        raise IllegalAction(f"'{name}={value}': phaser energy comes in half points", "SFB.PHASER.ENERGY")
    return float(value)


# the form's fields by the weapon lines and the cloak's cost: the same few in every turn of a simulation (Fields
# are immutable by use); building them was a measurable part of each energy question
_FIELDS: Final[dict[tuple[tuple[str, ...], int | None], tuple[Field, ...]]] = {}


def energy_fields(keys: list[str], cloak: int | None) -> tuple[Field, ...]:
    """speed, phasers, one field per weapon line (``keys``), recharge, and cloak when the ship has one."""
    key = (tuple(keys), cloak)
    fields = _FIELDS.get(key)
    if fields is None:
        if len(_FIELDS) >= 256:
            _FIELDS.clear()
        made = [Field("speed", "hexes this turn, 1 energy each"),
                Field("phasers", "energy added to the phaser capacitor, in half points")]
        made += [Field(k, f"energy to arm {k}") for k in keys]
        made.append(Field("recharge", "empty batteries to recharge"))
        if cloak is not None:
            made.append(Field("cloak", f"0, or {cloak} to be able to cloak this turn"))
        fields = _FIELDS[key] = tuple(made)
    return fields


class EnergyRules:
    """What the energy form's fields allow for one ship this turn (``choices``) and its answer read and checked
    (``check``): the form's callables. They are this object's, not the EnergyForm's that holds the form, so the form
    makes no reference cycle and a finished question is freed by reference counting, not the garbage collector."""

    def __init__(self, game: Game, ship: Ship, weapons: list[Weapon], keys: list[str]) -> None:
        self.game, self.ship, self.weapons, self.keys = game, ship, weapons, keys

    def allocation(self, values: dict[str, Any]) -> EnergyAllocation:
        speed = int(_number("speed", values.get("speed"), rule="SFB.MOVE.COST"))
        phasers = _number("phasers", values.get("phasers"), whole=False)
        arm = tuple((key, int(_number(key, values.get(key)))) for key in self.keys)
        recharge = int(_number("recharge", values.get("recharge")))
        cloak = int(_number("cloak", values.get("cloak"), rule="SFB.CLOAK"))
        return allocation(speed, float(phasers), arm, recharge, cloak)

    def check(self, values: dict[str, Any]) -> EnergyAllocation:
        alloc = self.allocation(values)
        self.game.check_energy(self.ship, alloc)
        return alloc

    def choices(self, name: str, earlier: dict[str, Any] | None = None) -> tuple[Any, ...]:
        """Legal values of field ``name`` given the earlier fields: 0 is always among them."""
        game, ship = self.game, self.ship
        known: dict[str, Any] = {}
        for key, value in (earlier or {}).items():
            known[key] = value if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0 else 0
        left = ship.power + ship.charged - sum(known.values())
        speed = known.get("speed", 0)
        photon_warp = sum(2 for w in self.weapons if w.kind == "photon" and known.get(w.key) == 2)
        warp_left = ship.warp - photon_warp - max(0, speed - min(1, ship.impulse, speed))
        whole = math.floor(left + 1e-9)
        if name == "speed":
            top = min(game.impulses, ship.speed + 8, ship.warp + min(1, ship.impulse), whole)
            return tuple(range(0, max(0, top) + 1))
        if name == "phasers":
            room = min(ship.capacity - ship.capacitor, left)
            return tuple(k / 2 for k in range(0, int(max(0.0, room) * 2 + 1e-9) + 1))
        if name == "recharge":
            return tuple(range(0, max(0, min(ship.battery - ship.charged, whole)) + 1))
        if name == "cloak":
            cost = ship.cloak.cost if ship.cloak is not None else 0
            return (0, cost) if cost and cost <= left + 1e-9 else (0,)
        weapon = next((w for w in self.weapons if w.key == name), None)
        if weapon is None:
            return ()
        legal: tuple[int, ...]
        if weapon.kind == "photon":
            legal = (0, 1) if weapon.arm == 2 else (0, 2)
        elif weapon.kind == "disruptor":
            legal = (0, 2)
        else:
            legal = weapon.tube.legal_points()
        out = []
        for points in legal:
            if points > left + 1e-9:
                continue
            if weapon.kind == "photon" and points == 2 and warp_left < 2:
                continue
            out.append(points)
        return tuple(out)


class EnergyForm(EnergyRules):
    """The energy request's form and presets for one ship this turn (built once per request)."""

    def __init__(self, game: Game, ship: Ship) -> None:
        weapons = arm_weapons(ship)
        keys = [w.key for w in weapons]
        super().__init__(game, ship, weapons, keys)
        rules = EnergyRules(game, ship, weapons, keys)
        self.form = Form(energy_fields(keys, ship.cloak.cost if ship.cloak is not None else None),
                         rules.choices, rules.check)

    def presets(self, suggested: EnergyAllocation,
                at_speed: Callable[[int], EnergyAllocation] | None = None) -> tuple[Option, ...]:
        """The captain's suggestion first, then standing still with the same weapons, then nothing at all; with
        ``at_speed`` (the captain's allocation at a given speed) also the same weapons at each speed band
        (docs/search.md "Candidates"): the choices a search weighs besides the suggestion."""
        cloak = self.ship.cloak is not None
        values = energy_values(suggested, cloak)
        out = [Option("suggested", "the suggested allocation", values)]
        still = dict(values, speed=0)
        nothing = {key: (0.0 if key == "phasers" else 0) for key in values}
        for key, label, preset in (("still", "the same, at speed 0", still), ("nothing", "no energy at all", nothing)):
            try:
                self.check(preset)
            except IllegalAction:
                continue
            out.append(Option(key, label, preset))
        if at_speed is not None:
            out += self.speed_bands(suggested.speed, at_speed, cloak)
        return tuple(out)

    def speed_bands(self, suggested: int, at_speed: Callable[[int], EnergyAllocation],
                    cloak: bool) -> list[Option]:
        """The suggested weapons at the top speed they leave power for and at 3/4, 1/2 and 1/4 of it (speeds
        already offered left out): how fast to close or open the range is the energy question's real choice."""
        top = at_speed(SPEED_CAP).speed
        seen, out = {suggested, 0}, []
        for share in SPEED_BANDS:
            speed = int(round(top * share))
            if speed in seen:
                continue
            seen.add(speed)
            values = energy_values(at_speed(speed), cloak)
            try:
                self.check(values)
            except IllegalAction:
                continue
            out.append(Option(f"speed-{speed}", f"the suggested weapons at speed {speed}", values))
        return out
