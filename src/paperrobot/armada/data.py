"""Ship, squadron and geometry data: TOML files validated with pydantic, loaded once and cached."""
from __future__ import annotations

import functools
import re
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, field_validator, model_validator

from ..core.data import Strict, load, read_toml, validate
from ..core.errors import DataError, UnknownName

DATA = Path(__file__).parent / "data"
DICE_CODE = re.compile(r"^(\d+[RUK])*$")
TOKENS = ("brace", "redirect", "evade", "scatter", "contain", "salvo")


@lru_cache(maxsize=256)
@functools.lru_cache(maxsize=1024)
def parse_dice(code: str) -> tuple[int, int, int]:
    """'3R3U' -> (red, blue, black)."""
    counts = {"R": 0, "U": 0, "K": 0}
    for number, colour in re.findall(r"(\d+)([RUK])", code):
        counts[colour] += int(number)
    return counts["R"], counts["U"], counts["K"]


MAX_DICE = 20  # dice of one armament; the largest printed battery has 8


def _dice(value: str) -> str:
    if len(value) > 30 or not DICE_CODE.match(value):
        raise ValueError(f"'{value}' is not a dice code like '3R2U1K' (R red, U blue, K black)")
    if sum(parse_dice(value)) > MAX_DICE:
        raise ValueError(f"'{value}' has more than {MAX_DICE} dice")
    return value


# Bounds of every number in the data files: what an Armada card or table can hold, with room for a
# person's own cards, but never a value a game cannot be played with.
Name = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=40)]
Text = Annotated[str, Field(min_length=1, max_length=200)]
Mm = Annotated[float, Field(ge=5, le=5000)]  # a length on the table, in mm: nothing in the game is under 5 mm


def _whole_mm(value: float) -> float:
    if 0 < value < 1:
        raise ValueError("an offset on the table is 0 or at least 1 mm (nothing finer can be measured with the tools)")
    return value


Offset = Annotated[float, Field(ge=0, le=5000), AfterValidator(_whole_mm)]
OnBase = Annotated[float, Field(ge=1, le=300)]  # a point on a ship's base or token, from its front edge (mm; none lies on the edge itself)
BaseMm = Annotated[float, Field(ge=5, le=300)]  # a base's or token's side: the largest base is 129 mm long


class ShipSpec(Strict):
    name: Name
    title: Text
    faction: Literal["imperial", "rebel"]
    size: Literal["small", "medium", "large"]
    hull: int = Field(ge=1, le=40)
    command: int = Field(ge=1, le=6)
    squadron: int = Field(ge=0, le=10)
    engineering: int = Field(ge=0, le=20)
    anti_squadron: str
    front: str
    left: str
    right: str
    rear: str
    shields: list[Annotated[int, Field(ge=0, le=10)]]
    tokens: list[Literal["brace", "redirect", "evade", "scatter", "contain", "salvo"]] = Field(max_length=10)
    speed_chart: list[list[int]] = Field(min_length=1, max_length=4)  # one row per speed, 1 to 4
    points: int = Field(ge=1, le=400)
    points_printed: int = Field(0, ge=0, le=400)

    _d = field_validator("anti_squadron", "front", "left", "right", "rear")(_dice)

    @field_validator("shields")
    @classmethod
    def _four(cls, value: list[int]) -> list[int]:
        if len(value) != 4:
            raise ValueError("give four shield values: front, left, right, rear")
        return value

    @field_validator("speed_chart")
    @classmethod
    def _chart(cls, value: list[list[int]]) -> list[list[int]]:
        for speed, row in enumerate(value, 1):
            if len(row) != speed or any(c not in (0, 1, 2) for c in row):
                raise ValueError(f"speed {speed} needs {speed} yaw values, each 0, 1 or 2")
        return value


class SquadronSpec(Strict):
    name: Name
    title: Text
    faction: Literal["imperial", "rebel"]
    speed: int = Field(ge=1, le=5)  # a range-ruler distance, 1 to 5
    hull: int = Field(ge=1, le=20)
    anti_squadron: str
    battery: str
    keywords: list[Text] = Field([], max_length=10)
    points: int = Field(ge=1, le=134)  # squadrons take at most a third of a 400-point fleet

    _d = field_validator("anti_squadron", "battery")(_dice)


class UnitFile(Strict):
    source: str
    ship: list[ShipSpec] = []
    squadron: list[SquadronSpec] = []


Side = Annotated[float, Field(ge=300, le=5000)]  # a table edge: at least about a foot


class PlayArea(Strict):
    source: str
    provisional: bool
    standard: tuple[Side, Side]
    small: tuple[Side, Side]
    setup_inset: Offset

    @model_validator(mode="after")
    def _fits(self) -> "PlayArea":
        if 2 * self.setup_inset >= self.standard[0]:
            raise ValueError(f"setup_inset {self.setup_inset} leaves no set-up area on a {self.standard[0]} mm table")
        return self


class Ruler(Strict):
    source: str
    provisional: bool
    close: Mm
    medium: Mm
    long: Mm
    distance: tuple[Mm, Mm, Mm, Mm, Mm]

    @model_validator(mode="after")
    def _ascending(self) -> "Ruler":
        if not self.close < self.medium < self.long:
            raise ValueError(f"close < medium < long is required (got {self.close}, {self.medium}, {self.long})")
        if any(a >= b for a, b in zip(self.distance, self.distance[1:])):
            raise ValueError(f"distance bands must be ascending (got {list(self.distance)})")
        return self


class Tool(Strict):
    source: str
    provisional: bool
    click_degrees: float = Field(ge=15, le=30)  # the tool's clicks are 22.5 degrees: a third off is a mistake
    long_segment: Mm
    short_segment: Mm


class SquadronBase(Strict):
    source: str
    provisional: bool
    radius: float = Field(ge=5, le=50)  # the squadron base is 1.18 inch across (15 mm radius)


class SizeClass(Strict):
    source: str
    provisional: bool
    base: tuple[BaseMm, BaseMm]
    token: tuple[BaseMm, BaseMm]
    arc_centre: OnBase
    front_end: OnBase
    rear_end: OnBase
    target_front: OnBase
    target_rear: OnBase
    target_side: tuple[OnBase, OnBase]


class Obstacles(Strict):
    source: str
    provisional: bool
    asteroid_radius: float = Field(ge=5, le=300)
    debris_radius: float = Field(ge=5, le=300)
    station_radius: float = Field(ge=5, le=300)


class Geometry(Strict):
    play_area: PlayArea
    ruler: Ruler
    tool: Tool
    squadron_base: SquadronBase
    sizes: dict[str, SizeClass]
    obstacles: Obstacles

    @field_validator("sizes")
    @classmethod
    def _three_sizes(cls, value: dict) -> dict:
        missing = [k for k in ("small", "medium", "large") if k not in value]
        if missing:
            raise ValueError(f"size classes {', '.join(missing)} are missing (give small, medium and large)")
        return value


_GEOMETRY: list[Geometry] = []  # the table in use: the package's file, or a user's override


def geometry() -> Geometry:
    if not _GEOMETRY:
        _GEOMETRY.append(load(DATA / "geometry.toml", Geometry))
    return _GEOMETRY[0]


def load_geometry(path: str | None = None) -> Geometry:
    """The measurements of one game: a user's file of the same shape as data/geometry.toml, or the package's
    (None or ''). A game's set-up names the file (option ``geometry``), so every engine, in any process,
    measures its own table; nothing process-wide is changed."""
    return _user_geometry(str(path)) if path else geometry()


@lru_cache(maxsize=8)
def _user_geometry(path: str) -> Geometry:
    return load(Path(path), Geometry)


def use_geometry(path: str | Path | None) -> Geometry:
    """Replace the package's default measurements (the assistant and pictures read them) with a user's file;
    None restores the package's file. Games do not read this: they take ``geometry`` in their set-up."""
    table = load(path if path else DATA / "geometry.toml", Geometry)
    _GEOMETRY[:] = [table]
    return table


@lru_cache(maxsize=8)
def catalogue(ships_dir: str | None = None) -> tuple[dict[str, ShipSpec], dict[str, SquadronSpec]]:
    """Every ship and squadron card: the package's files plus ``ships_dir`` (a user's files win)."""
    paths = [DATA / "ships.toml", DATA / "squadrons.toml"]
    if ships_dir:
        folder = Path(ships_dir)
        if not folder.is_dir():
            raise DataError(folder, "", "no such folder (give --ships-dir a folder of .toml ship files)")
        paths += sorted(folder.glob("*.toml"))
    ships: dict[str, ShipSpec] = {}
    squads: dict[str, SquadronSpec] = {}
    for path in paths:
        units = validate(UnitFile, read_toml(path), path)
        for ship in units.ship:
            ships[ship.name] = ship
        for squad in units.squadron:
            squads[squad.name] = squad
    return ships, squads


def ship_spec(name: str, ships_dir: str | None = None) -> ShipSpec:
    ships, _ = catalogue(ships_dir)
    if name not in ships:
        raise UnknownName("Armada ship", name, ships)
    return ships[name]


def squadron_spec(name: str, ships_dir: str | None = None) -> SquadronSpec:
    _, squads = catalogue(ships_dir)
    if name not in squads:
        raise UnknownName("Armada squadron", name, squads)
    return squads[name]


def tables() -> list[tuple[str, str, bool]]:
    """(table, source, provisional) for ``paperrobot data``."""
    g = geometry()
    rows = [("ships.toml", read_toml(DATA / "ships.toml")["source"], False),
            ("squadrons.toml", read_toml(DATA / "squadrons.toml")["source"], False),
            ("play area", g.play_area.source, g.play_area.provisional),
            ("range ruler", g.ruler.source, g.ruler.provisional),
            ("maneuver tool", g.tool.source, g.tool.provisional),
            ("squadron base", g.squadron_base.source, g.squadron_base.provisional),
            ("obstacles", g.obstacles.source, g.obstacles.provisional)]
    rows += [(f"size class {k}", v.source, v.provisional) for k, v in g.sizes.items()]
    return rows
