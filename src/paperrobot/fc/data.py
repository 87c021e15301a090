"""FC data files: ship cards and rule tables as TOML, validated with pydantic, each with its source.

Tables marked ``provisional`` hold stand-in numbers (the FC charts could not be confirmed); a user who
owns the rulebook can replace any table with a file of the same name in their own folder (``--tables``).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal, Optional

from pydantic import AfterValidator, Field, field_validator, model_validator

from ..core.data import Strict, load, load_dir
from ..core import handicap as _hc
from ..core.errors import DataError, UnknownName
from .arcs import arc_parts
from .bands import band_index  # noqa: F401 (re-exported)

DATA = Path(__file__).parent / "data"
SYSTEMS = ("warp", "impulse", "reactor", "battery", "fhull", "rhull", "control", "lab", "transporter",
           "tractor", "probe", "shuttle", "cargo", "frame")
DAC_BOXES = SYSTEMS + ("phaser", "torpedo", "drone")
WEAPON_KINDS = ("phaser-1", "phaser-2", "phaser-3", "disruptor", "photon")

# Bounds of every number in the data files: what an FC ship card or chart can hold, with room for a
# person's own ships, but never a value a game cannot be played with (or that would hang it).
Boxes = Annotated[int, Field(ge=0, le=200)]  # boxes of one system or one shield
Range = Annotated[int, Field(ge=0, le=100)]  # hexes
Die = Annotated[int, Field(ge=0, le=6)]  # a d6 "hit on this or less"; 0 = cannot hit
Points = Annotated[int, Field(ge=0, le=100)]  # damage of one hit


def _energy(value: float) -> float:
    if 0 < value < 0.25:
        raise ValueError("an energy cost is 0 or at least 0.25 (a quarter point, the finest step of FC energy)")
    return value


Cost = Annotated[float, Field(ge=0, le=50), AfterValidator(_energy)]  # energy
Name = Annotated[str, Field(min_length=1, max_length=200)]


# ----------------------------------------------------------------------------------- ships

class WeaponModel(Strict):
    kind: Literal["phaser-1", "phaser-2", "phaser-3", "disruptor", "photon"]
    arc: str = Field(max_length=40)
    count: int = Field(1, ge=1, le=20)

    @field_validator("arc")
    @classmethod
    def _arc(cls, value: str) -> str:
        arc_parts(value)  # raises ValueError with the list of known arcs
        return value.upper()


class DronesModel(Strict):
    racks: int = Field(0, ge=0, le=10)
    per_rack: int = Field(4, ge=1, le=12)
    reloads: int = Field(0, ge=0, le=10)
    add_shots: int = Field(0, ge=0, le=12)


class ShipModel(Strict):
    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=40)
    title: Name
    empire: Name
    source: str = Field(max_length=1000)
    provisional: bool = False
    points: int = Field(ge=1, le=1000)
    turn_mode: Literal["AA", "A", "B", "C", "D", "E", "F"]
    move_cost: float = Field(1.0, ge=0.25, le=10)  # FC ships pay 1/3 to 2 a hex; 1/4 is the finest step of energy
    het_cost: Cost = 5.0
    damage_control: Boxes
    shields: list[Boxes] = Field(min_length=6, max_length=6)
    systems: dict[str, Boxes]
    weapons: list[WeaponModel] = Field([], max_length=40)
    drones: DronesModel = DronesModel()

    @field_validator("shields")
    @classmethod
    def _shields(cls, value: list[int]) -> list[int]:
        if any(n < 0 for n in value):
            raise ValueError("shield boxes must be 0 or more")
        return value

    @field_validator("systems")
    @classmethod
    def _systems(cls, value: dict[str, int]) -> dict[str, int]:
        for key, count in value.items():
            if key not in SYSTEMS:
                raise ValueError(f"unknown system '{key}'; use {', '.join(SYSTEMS)}")
            if count < 0:
                raise ValueError(f"{key} must be 0 or more")
        if sum(value.get(k, 0) for k in ("warp", "impulse", "reactor")) < 1:
            raise ValueError("warp, impulse and reactor are all 0: a ship needs power to move")
        return value


@dataclass(frozen=True, slots=True)
class WeaponSpec:
    id: str
    kind: str
    arc: str


@dataclass(frozen=True, slots=True)
class ShipSpec:
    """A ship card as plain data for the hot path."""

    name: str
    title: str
    empire: str
    source: str
    provisional: bool
    points: int
    turn_mode: str
    move_cost: float
    het_cost: float
    damage_control: int
    shields: tuple[int, ...]
    systems: tuple[tuple[str, int], ...]
    weapons: tuple[WeaponSpec, ...]
    racks: int
    per_rack: int
    reloads: int
    add_shots: int

    @classmethod
    def from_model(cls, m: ShipModel) -> "ShipSpec":
        weapons, counter = [], {}
        for w in m.weapons:
            for _ in range(w.count):
                counter[w.kind] = counter.get(w.kind, 0) + 1
                short = {"phaser-1": "ph1", "phaser-2": "ph2", "phaser-3": "ph3"}.get(w.kind, w.kind[:4])
                weapons.append(WeaponSpec(f"{short}-{counter[w.kind]}", w.kind, w.arc))
        return cls(m.name, m.title, m.empire, m.source, m.provisional, m.points, m.turn_mode, m.move_cost,
                   m.het_cost, m.damage_control, tuple(m.shields), tuple(sorted(m.systems.items())),
                   tuple(weapons), m.drones.racks, m.drones.per_rack, m.drones.reloads, m.drones.add_shots)


def load_ships(ships_dir: Path | str | None = None) -> dict[str, ShipSpec]:
    """The built-in ships plus a user's folder (a user file may replace a built-in ship of the same name)."""
    ships = dict(_builtin_ships())
    if ships_dir is not None:
        for name, m in load_dir(ships_dir, ShipModel, key=lambda s: s.name).items():
            ships[name] = ShipSpec.from_model(m)
    return ships


@lru_cache(maxsize=1)
def _builtin_ships() -> dict[str, ShipSpec]:
    return {name: ShipSpec.from_model(m) for name, m in
            load_dir(DATA / "ships", ShipModel, key=lambda s: s.name).items()}


def ship(name: str, ships_dir: Path | str | None = None) -> ShipSpec:
    ships = load_ships(ships_dir)
    if name not in ships:
        raise UnknownName("FC ship", name, ships)
    return ships[name]


# ----------------------------------------------------------------------------------- tables

class _Table(Strict):
    name: str
    source: str
    provisional: bool = False


def _ascending(bands: list[int], what: str = "bands") -> None:
    if any(a >= b for a, b in zip(bands, bands[1:])):
        raise ValueError(f"{what} must be ascending range bounds (got {bands})")


class Chart(Strict):
    bands: list[Range] = Field(min_length=1, max_length=30)
    rows: list[list[Points]] = Field(min_length=6, max_length=6)

    @model_validator(mode="after")
    def _shape(self):
        if any(len(r) != len(self.bands) for r in self.rows):
            raise ValueError("every row needs one number per band")
        _ascending(self.bands)
        return self


class PhasersTable(_Table):
    phaser_1: Chart = Field(alias="phaser-1")
    phaser_2: Chart = Field(alias="phaser-2")
    phaser_3: Chart = Field(alias="phaser-3")


class DisruptorTable(_Table):
    bands: list[Range] = Field(min_length=1, max_length=30)
    hit: list[Die] = Field(max_length=30)
    damage: list[Points] = Field(max_length=30)
    overload_bands: list[Range] = Field(min_length=1, max_length=30)
    overload_hit: list[Die] = Field(max_length=30)
    overload_damage: list[Points] = Field(max_length=30)

    @model_validator(mode="after")
    def _shape(self):
        _ascending(self.bands)
        _ascending(self.overload_bands, "overload_bands")
        if not len(self.bands) == len(self.hit) == len(self.damage):
            raise ValueError("bands, hit and damage need the same length")
        if not len(self.overload_bands) == len(self.overload_hit) == len(self.overload_damage):
            raise ValueError("overload_bands, overload_hit and overload_damage need the same length")
        return self


class PhotonTable(_Table):
    bands: list[Range] = Field(min_length=1, max_length=30)
    hit: list[Die] = Field(max_length=30)
    damage: Points
    overload_damage: Points
    overload_range: Range

    @model_validator(mode="after")
    def _shape(self):
        _ascending(self.bands)
        if len(self.bands) != len(self.hit):
            raise ValueError("bands and hit need the same length")
        return self


class DacTable(_Table):
    tables: list[list[tuple[str, str]]] = Field(min_length=6, max_length=6)

    @field_validator("tables")
    @classmethod
    def _boxes(cls, value):
        for t in value:
            if len(t) != 10:
                raise ValueError("each DAC table has ten entries")
            for pair in t:
                for box in pair:
                    if box not in DAC_BOXES:
                        raise ValueError(f"unknown box '{box}'; use {', '.join(DAC_BOXES)}")
        return value


class TurnModesTable(_Table):
    speeds: list[Annotated[int, Field(ge=0, le=32)]] = Field(min_length=1, max_length=10)
    modes: dict[str, list[Annotated[int, Field(ge=1, le=10)]]] = Field(max_length=10)

    @model_validator(mode="after")
    def _shape(self):
        for letter in ("AA", "A", "B", "C", "D", "E", "F"):
            if letter not in self.modes:
                raise ValueError(f"turn mode '{letter}' is missing")
        if any(len(row) != len(self.speeds) for row in self.modes.values()):
            raise ValueError("every turn mode needs one number per speed")
        return self


class RulesTable(_Table):
    regen_cost: Cost
    tractor_hold_cost: Cost
    tractor_use_cost: Cost
    tractor_range: Annotated[int, Field(ge=0, le=10)]
    accel_cost: Cost
    decel_cost: Cost
    burn_through: Points
    shield_transfer_max: Boxes
    phaser_cost: dict[str, Cost] = Field(max_length=10)
    disruptor_cost: Cost
    disruptor_overload_cost: Cost
    photon_load_cost: Cost
    photon_hold_cost: Cost
    photon_overload_cost: Cost
    drone_warhead: Points
    drone_hits: Annotated[int, Field(ge=1, le=50)]
    drone_endurance_turns: Annotated[int, Field(ge=1, le=20)]
    add_hit: Die
    add_range: Annotated[int, Field(ge=0, le=10)]
    reload_cost: Annotated[int, Field(ge=0, le=50)]
    repair_cost: dict[str, Annotated[int, Field(ge=0, le=50)]] = Field(max_length=10)
    max_turns: int = Field(ge=1, le=100)

    @model_validator(mode="after")
    def _keys(self):
        for kind in ("phaser-1", "phaser-2", "phaser-3"):
            if kind not in self.phaser_cost:
                raise ValueError(f"phaser_cost needs '{kind}'")
        for key in ("weapon", "power", "system", "control", "hull"):
            if key not in self.repair_cost:
                raise ValueError(f"repair_cost needs '{key}'")
        return self


TABLE_MODELS: dict[str, type[_Table]] = {
    "phasers": PhasersTable, "disruptor": DisruptorTable, "photon": PhotonTable, "dac": DacTable,
    "turn_modes": TurnModesTable, "rules": RulesTable,
}


@dataclass(frozen=True, slots=True)
class Tables:
    phasers: PhasersTable
    disruptor: DisruptorTable
    photon: PhotonTable
    dac: DacTable
    turn_modes: TurnModesTable
    rules: RulesTable
    origin: tuple[tuple[str, str], ...]  # table name -> file it came from

    def all(self) -> list[_Table]:
        return [self.phasers, self.disruptor, self.photon, self.dac, self.turn_modes, self.rules]

    def provisional(self) -> list[_Table]:
        return [t for t in self.all() if t.provisional]


@lru_cache(maxsize=8)
def _load_tables(tables_dir: Optional[str]) -> Tables:
    found, origin = {}, []
    for name, model in TABLE_MODELS.items():
        path = DATA / "tables" / f"{name}.toml"
        if tables_dir is not None:
            mine = Path(tables_dir) / f"{name}.toml"
            if mine.exists():
                path = mine
        table = load(path, model)
        if table.name != name:
            raise DataError(path, "name", f"this file must be the '{name}' table (got '{table.name}')")
        found[name] = table
        origin.append((name, str(path)))
    return Tables(**found, origin=tuple(origin))


def load_tables(tables_dir: Path | str | None = None) -> Tables:
    """The built-in tables; a file ``<name>.toml`` in ``tables_dir`` replaces the built-in one."""
    if tables_dir is not None and not Path(tables_dir).is_dir():
        raise DataError(tables_dir, "", "no such folder (give --tables a folder of table files)")
    return _load_tables(None if tables_dir is None else str(tables_dir))


def handicap_prices_for(path: str | Path | None = "") -> _hc.ShieldBoxPrices:
    """FC's price of a shield box (data/handicap.toml), or the person's own table."""
    return _hc.load_prices(DATA / _hc.PRICES, path or None, _hc.ShieldBoxPrices)
