"""Fleet files and fleet lists: which ships and squadrons each side brings (TOML, validated).

A fleet is what a legal Armada fleet may be: at least one ship, at most 400 points (the standard fleet,
RRG "Fleet Building"), and at most a third of that (rounded up) on squadrons.
"""
from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Annotated

from pydantic import Field, field_validator

from ..core.data import Strict, load
from ..core.errors import DataError, PaperRobotError
from .data import catalogue
from .setup import Setup

MAX_FLEET_POINTS = 400  # the standard fleet (RRG 1.5; reference armada.md "Fleet limits")
MAX_SQUADRON_POINTS = math.ceil(MAX_FLEET_POINTS / 3)
MAX_COUNT = 40  # copies of one unit in 'name*N'; far more than 400 points allow
ITEM = re.compile(r"^\s*([a-z0-9][a-z0-9-]*)\s*(?:\*\s*(\S+))?\s*$")

Item = Annotated[str, Field(min_length=1, max_length=60)]


class FleetFile(Strict):
    imperial: list[Item] = Field(min_length=1, max_length=MAX_COUNT)
    rebel: list[Item] = Field(min_length=1, max_length=MAX_COUNT)
    table: str = "standard"
    evade_close: bool = True

    @field_validator("imperial", "rebel")
    @classmethod
    def _items(cls, value: list[str]) -> list[str]:
        expand(value)  # counts: a ValueError names the bad item
        return value


class FleetError(PaperRobotError, ValueError):
    """A fleet list that is not a legal fleet (a ValueError too, so pydantic reports it by field)."""


def expand(items: list[str]) -> list[str]:
    """'tie-fighter*4' -> four entries. A count is a whole number from 1 to MAX_COUNT."""
    out: list[str] = []
    for item in items:
        match = ITEM.match(item)
        if not match:
            raise FleetError(f"'{item.strip()}' is not a ship or squadron name (write e.g. 'victory-ii' or "
                             f"'tie-fighter*4')")
        name, count = match.group(1), match.group(2)
        if count is not None and not (count.isdigit() and 1 <= int(count) <= MAX_COUNT):
            raise FleetError(f"'{item.strip()}': the count after '*' must be a whole number from 1 to {MAX_COUNT}")
        out += [name] * (int(count) if count is not None else 1)
    return out


def check_fleet(names: list[str], ships_dir: str | None = None, side: str = "the fleet") -> list[str]:
    """Refuse a list that is not a legal fleet: unknown names, no ship, too many points."""
    ships, squads = catalogue(ships_dir)
    for name in names:
        if name not in ships and name not in squads:
            raise FleetError(f"unknown ship or squadron '{name}' (see 'paperrobot ships --game armada')")
    if not any(name in ships for name in names):
        raise FleetError(f"{side} has no ship: a fleet needs at least one ship (squadrons alone cannot play)")
    points = sum((ships[n] if n in ships else squads[n]).points for n in names)
    squadron_points = sum(squads[n].points for n in names if n in squads)
    if points > MAX_FLEET_POINTS:
        raise FleetError(f"{side} costs {points} points; a fleet may have at most {MAX_FLEET_POINTS}")
    if squadron_points > MAX_SQUADRON_POINTS:
        raise FleetError(f"{side} spends {squadron_points} points on squadrons; at most {MAX_SQUADRON_POINTS} "
                         f"(a third of {MAX_FLEET_POINTS}) are allowed")
    return names


def fleet_names(text: str, ships_dir: str | None = None) -> list[str]:
    """A fleet typed as 'victory-ii,gladiator-i,tie-fighter*4': checked, one entry per unit."""
    items = [item for item in text.split(",") if item.strip()]
    if not items:
        raise FleetError("the fleet is empty; list ships and squadrons, e.g. 'victory-ii,gladiator-i,tie-fighter*4'")
    return check_fleet(expand(items), ships_dir)


def load_fleet(path: str | Path, ships_dir: str | None = None) -> Setup:
    f = load(path, FleetFile)
    for side in ("imperial", "rebel"):
        try:
            check_fleet(expand(getattr(f, side)), ships_dir, f"the {side} fleet")
        except FleetError as exc:
            raise DataError(path, side, str(exc)) from None
    if f.table not in ("standard", "small"):
        raise DataError(path, "table", "must be 'standard' (3'x6') or 'small' (3'x3')")
    return Setup(expand(f.imperial), expand(f.rebel), f.table, f.evade_close, ships_dir)
