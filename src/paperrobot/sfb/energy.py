"""Energy allocation (seed 002 lines 1-21): the allocation a player hands in, editing and describing it.

The engine validates an allocation against the ship (``Game.check_energy``) before it changes anything.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from ..core.errors import IllegalAction


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


def _number(field: str, text: str, half: bool = False) -> float | int:
    try:
        value = float(text)
    except ValueError:
        raise IllegalAction(f"'{field}={text}': the value must be a number", "SFB.EA") from None
    if value < 0:
        raise IllegalAction(f"'{field}={text}': energy cannot be negative", "SFB.EA")
    if half:
        if value * 2 != int(value * 2):
            raise IllegalAction(f"'{field}={text}': phaser energy comes in half points", "SFB.PHASER.ENERGY")
        return value
    if value != int(value):
        raise IllegalAction(f"'{field}={text}': use a whole number", "SFB.EA")
    return int(value)


def edit_energy(alloc: EnergyAllocation, text: str) -> EnergyAllocation:
    """Apply edits such as ``"speed=10 photon-A=2 recharge=1"``; unknown fields raise IllegalAction."""
    arm = dict(alloc.arm)
    changes: dict = {}
    for part in text.replace(",", " ").split():
        if "=" not in part:
            raise IllegalAction(f"'{part}': write name=value, e.g. speed=10 (fields: {_fields(alloc)})", "SFB.EA")
        name, value = part.split("=", 1)
        name = name.strip()
        lowered = name.lower()
        if lowered in ("speed", "move", "movement"):
            changes["speed"] = _number(name, value)
        elif lowered in ("phasers", "phaser", "capacitor"):
            changes["phasers"] = float(_number(name, value, half=True))
        elif lowered in ("recharge", "batteries"):
            changes["recharge"] = _number(name, value)
        elif lowered == "cloak":
            changes["cloak"] = _number(name, value)
        else:
            match = next((k for k in arm if k.lower() == lowered), None)
            if match is None:
                raise IllegalAction(f"unknown energy field '{name}'; fields: {_fields(alloc)}", "SFB.EA")
            arm[match] = int(_number(name, value))
    return replace(alloc, arm=tuple(arm.items()), **changes)


def _fields(alloc: EnergyAllocation) -> str:
    return ", ".join(["speed", "phasers", "recharge", "cloak"] + [k for k, _ in alloc.arm])


def describe_energy(alloc: EnergyAllocation, view: dict) -> list[str]:
    """Lines showing the allocation against the power available (field names as edit_energy takes them)."""
    lines = [f"Power: warp {view['warp']} + impulse {view['impulse']} + APR {view['apr']} = {view['power']}; "
             f"batteries {view['batteries']} charged, {view['discharged']} empty",
             f"  speed={alloc.speed}   (last turn {view['speed']}; at most {view['max_speed']} this turn; "
             f"1 energy per hex, at most 1 from impulse, none from APR)",
             f"  phasers={alloc.phasers:g}   (capacitor {view['capacitor']:g} of {view['capacity']:g})"]
    for key, points in alloc.arm:
        lines.append(f"  {key}={points}   ({view['weapons'].get(key, '')})")
    lines.append(f"  recharge={alloc.recharge}")
    if view.get("cloak_cost"):
        lines.append(f"  cloak={alloc.cloak}   (the cloak costs {view['cloak_cost']} a turn; 0 stays uncloaked)")
    total = alloc.total
    over = max(0.0, total - view["power"])
    lines.append(f"  total {total:g} of {view['power']} (+{view['batteries']} in batteries)"
                 + (f"; {over:g} from batteries" if over else ""))
    return lines
