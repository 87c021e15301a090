"""The SFB Cadet data files: ship sheets, weapon and damage charts, scenarios (TOML, validated on load)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator

from ..core import hexgrid
from ..core.data import Strict, load, load_dir
from ..core.errors import DataError, UnknownName

DATA = Path(__file__).parent / "data"

WEAPON_TYPES = ("phaser-1", "phaser-2", "phaser-3", "photon", "disruptor", "drone", "plasma-s", "plasma-g", "plasma-f")
PHASER_COST = {"phaser-1": 1.0, "phaser-2": 1.0, "phaser-3": 0.5}  # SFB.PHASER.ENERGY (E2.1)
# Rules a weapon type brings into play (scenario #6: plasma.py, docs/sfb-plasma-cloak.md).
LATER_RULES = {"plasma-s": "plasma", "plasma-g": "plasma", "plasma-f": "plasma"}

# Bounds of every number in the data files: what a Cadet ship, chart or scenario can hold, with room for
# a person's own ships, but never a value a game cannot be played with (or that would fill memory).
Boxes = Annotated[int, Field(ge=0, le=100)]  # boxes of one system or one shield
Range = Annotated[int, Field(ge=0, le=100)]  # hexes
Die = Annotated[int, Field(ge=0, le=6)]  # a d6 "hit on this or less"; 0 = cannot hit
Points = Annotated[int, Field(ge=0, le=100)]  # damage points of one hit
Name = Annotated[str, Field(min_length=1, max_length=200)]


class WeaponSpec(Strict):
    id: str = Field(min_length=1, max_length=20)
    type: Literal["phaser-1", "phaser-2", "phaser-3", "photon", "disruptor", "drone", "plasma-s", "plasma-g",
                  "plasma-f"]
    arc: str
    ammo: int = Field(0, ge=0, le=100)

    @field_validator("arc")
    @classmethod
    def _known_arc(cls, value: str) -> str:
        hexgrid.arc_parts(value)  # ValueError -> validation error naming the arc
        return value.upper()

    @property
    def key(self) -> str:
        """The weapon's name in orders and energy fields, e.g. ``phaser-1#2``, ``photon-A``, ``drone-1``."""
        return f"{self.type}#{self.id}" if self.type.startswith("phaser") else f"{self.type}-{self.id}"


class ShipSpec(Strict):
    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=40)
    title: Name
    empire: Name
    source: str = Field(max_length=1000)
    shields: list[Boxes] = Field(min_length=6, max_length=6)
    warp: Boxes
    impulse: Boxes
    apr: Boxes = 0
    battery: Boxes = 0
    hull: Boxes = 0
    bridge: Boxes = 1
    security: Boxes = 0
    transporter: Boxes = 0
    lab: Boxes = 0
    shuttle: Boxes = 0
    excess: Boxes = 3
    damage_control: Boxes = 0
    move_cost: int = Field(1, ge=1, le=10)
    # (highest speed, turn mode), ascending
    turn_modes: list[tuple[Annotated[int, Field(ge=0, le=32)], Annotated[int, Field(ge=0, le=16)]]] = Field(
        min_length=1, max_length=16)
    cloak_cost: int = Field(0, ge=0, le=100)
    needs: list[Literal["plasma", "cloak"]] = Field([], max_length=2)
    weapons: list[WeaponSpec] = Field([], max_length=40)
    provisional: bool = False

    @field_validator("shields")
    @classmethod
    def _shields(cls, value: list[int]) -> list[int]:
        if any(v < 0 for v in value):
            raise ValueError("shield boxes cannot be negative")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> "ShipSpec":
        keys = [w.key for w in self.weapons]
        if len(set(keys)) != len(keys):
            raise ValueError("two weapons share one type and id")
        for weapon in self.weapons:
            need = LATER_RULES.get(weapon.type)
            if need and need not in self.needs:
                raise ValueError(f"weapon {weapon.key} needs the {need} rules: add \"{need}\" to needs")
        if self.turn_modes[-1][0] < 16:
            raise ValueError("turn_modes must cover speeds up to 16")
        if any(a[0] >= b[0] for a, b in zip(self.turn_modes, self.turn_modes[1:])):
            raise ValueError(f"turn_modes must list speeds in ascending order (got {self.turn_modes})")
        if self.warp + self.impulse < 1:
            raise ValueError("warp and impulse are both 0: a ship needs at least one engine box to move")
        return self

    def turn_mode(self, speed: int) -> int:
        for top, mode in self.turn_modes:
            if speed <= top:
                return mode
        return self.turn_modes[-1][1]

    @property
    def power(self) -> int:
        return self.warp + self.impulse + self.apr


class StartSpec(Strict):
    hex: str = Field(max_length=4)
    facing: str = Field(max_length=1)

    @field_validator("hex")
    @classmethod
    def _hex(cls, value: str) -> str:
        hexgrid.parse(value)
        return value

    @field_validator("facing")
    @classmethod
    def _facing(cls, value: str) -> str:
        hexgrid.facing_index(value)
        return value.upper()


class SideSpec(Strict):
    ship: Name
    count: int = Field(1, ge=1, le=6)
    max_count: int = Field(1, ge=1, le=6)
    names: list[Name] = Field([], max_length=6)
    start: list[StartSpec] = Field(min_length=1, max_length=6)


class ScenarioSpec(Strict):
    name: str
    title: str
    source: str
    impulses: Literal[8, 16] = 16
    map: tuple[Annotated[int, Field(ge=4, le=99)], Annotated[int, Field(ge=4, le=99)]]  # columns, rows
    damage: Literal["dac", "dmg1"]
    previous_speed: int = Field(ge=0, le=16)
    max_turns: int = Field(20, ge=1, le=100)
    leave_map: Literal["disengage", "destroyed"]
    exit_edge: Literal["left", "right", "top", "bottom", ""] = ""
    objective: str = ""
    objective_name: str = ""
    player: SideSpec
    robot: SideSpec

    @model_validator(mode="after")
    def _starts_on_the_map(self) -> "ScenarioSpec":
        cols, rows = self.map
        for side in (self.player, self.robot):
            for start in side.start:
                col, row = int(start.hex[:2]), int(start.hex[2:])
                if col > cols or row > rows:
                    raise ValueError(f"start hex {start.hex} is off the {cols}x{rows} map")
        return self


class Bands(Strict):
    source: str
    bands: list[tuple[Range, Range]] = Field(min_length=1, max_length=30)
    damage: list[Annotated[list[Points], Field(max_length=30)]] | list[Points] = Field(max_length=30)
    hit: list[Die] = Field([], max_length=30)

    @model_validator(mode="after")
    def _ordered(self) -> "Bands":
        if any(low > high for low, high in self.bands) or any(
                a[1] >= b[0] for a, b in zip(self.bands, self.bands[1:])):
            raise ValueError(f"bands must be ascending ranges [low, high] that do not overlap (got {self.bands})")
        return self


class DroneSpec(Strict):
    source: str
    warhead: Points
    hits_to_kill: int = Field(ge=1, le=50)
    endurance_turns: int = Field(ge=1, le=20)
    heavy_vs_drone_penalty: Die


class WeaponTables(Strict):
    source: str
    phaser_1: Bands = Field(alias="phaser-1")
    phaser_2: Bands = Field(alias="phaser-2")
    phaser_3: Bands = Field(alias="phaser-3")
    photon: Bands
    disruptor: Bands
    drone: DroneSpec


class DacTable(Strict):
    source: str
    columns: list[Annotated[str, Field(max_length=40)]] = Field(max_length=20)
    rows: list[Annotated[list[Literal["hull", "engine", "other", "weapon", "excess"]], Field(max_length=20)]] = Field(
        min_length=6, max_length=6)


# ----------------------------------------------------------------------------------- loaders

@lru_cache(maxsize=None)
def _builtin_ships() -> dict[str, ShipSpec]:
    return load_dir(DATA / "ships", ShipSpec, lambda s: s.name)


def load_ships(ships_dir: Path | str | None = None) -> dict[str, ShipSpec]:
    """The built-in cadet ships plus the user's files in ``ships_dir`` (same schema)."""
    ships = dict(_builtin_ships())
    if ships_dir is not None:
        for name, spec in load_dir(ships_dir, ShipSpec, lambda s: s.name).items():
            ships[name] = spec
    return ships


@lru_cache(maxsize=None)
def load_scenarios() -> dict[str, ScenarioSpec]:
    return load_dir(DATA / "scenarios", ScenarioSpec, lambda s: s.name)


def scenario(name: str) -> ScenarioSpec:
    scenarios = load_scenarios()
    if str(name) not in scenarios:
        raise UnknownName("scenario", str(name), scenarios)
    return scenarios[str(name)]


@lru_cache(maxsize=None)
def weapon_tables() -> WeaponTables:
    return load(DATA / "tables" / "weapons.toml", WeaponTables)


@lru_cache(maxsize=None)
def dac_table() -> DacTable:
    return load(DATA / "tables" / "dac.toml", DacTable)


def _expand(bands: Bands, values: list, path: str) -> list:
    """Per-range list (index = range) from a banded row; None where the weapon cannot fire."""
    top = bands.bands[-1][1]
    out: list = [None] * (top + 1)
    if len(values) != len(bands.bands):
        raise DataError(DATA / "tables" / "weapons.toml", path, "one value per range band is required")
    for (low, high), value in zip(bands.bands, values):
        for rng in range(low, high + 1):
            out[rng] = value
    return out


@lru_cache(maxsize=None)
def phaser_chart(kind: str) -> tuple[tuple[int, ...], ...]:
    """``chart[die-1][range]`` damage; ranges past the chart give no entry (cannot fire)."""
    tables = weapon_tables()
    bands = {"phaser-1": tables.phaser_1, "phaser-2": tables.phaser_2, "phaser-3": tables.phaser_3}[kind]
    return tuple(tuple(_expand(bands, row, kind)) for row in bands.damage)


@lru_cache(maxsize=None)
def heavy_chart(kind: str) -> tuple[tuple, tuple]:
    """(hit-on-or-under by range, damage by range) for photons and disruptors; None = cannot fire."""
    bands = getattr(weapon_tables(), kind)
    return tuple(_expand(bands, bands.hit, kind + ".hit")), tuple(_expand(bands, bands.damage, kind + ".damage"))


def max_range(kind: str) -> int:
    if kind.startswith("phaser"):
        return len(phaser_chart(kind)[0]) - 1
    return len(heavy_chart(kind)[0]) - 1


def min_range(kind: str) -> int:
    if kind.startswith("phaser"):
        return 0
    hit = heavy_chart(kind)[0]
    return next(i for i, v in enumerate(hit) if v is not None)


def ship_sheet(spec: ShipSpec) -> list[str]:
    """Printable lines of one ship's sheet (SSD summary)."""
    tm = ", ".join(f"{'1' if i == 0 else spec.turn_modes[i - 1][0] + 1}-{top}: TM {mode}"
                   for i, (top, mode) in enumerate(spec.turn_modes))
    lines = [f"{spec.title}  [{spec.name}]", f"  source: {spec.source}",
             f"  shields #1-#6: {' '.join(str(s) for s in spec.shields)}",
             f"  power: warp {spec.warp} + impulse {spec.impulse} + APR {spec.apr} = {spec.power}; "
             f"batteries {spec.battery}",
             f"  hull {spec.hull}, bridge {spec.bridge}, security {spec.security}, transporter {spec.transporter}, "
             f"lab {spec.lab}, shuttle {spec.shuttle}, excess damage {spec.excess}",
             f"  turn modes: {tm}; movement cost {spec.move_cost}"]
    capacity = sum(PHASER_COST.get(w.type, 0) for w in spec.weapons)
    lines.append(f"  phaser capacitor: {capacity:g}")
    for weapon in spec.weapons:
        extra = f", {weapon.ammo} drones" if weapon.type == "drone" else ""
        lines.append(f"  {weapon.key:14s} arc {weapon.arc}{extra}")
    if spec.cloak_cost:
        lines.append(f"  cloak cost {spec.cloak_cost}")
    if spec.needs:
        lines.append(f"  uses the {' and '.join(spec.needs)} rules of scenario #6")
    return lines
