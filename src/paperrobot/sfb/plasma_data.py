"""The plasma torpedo types' data file (data/tables/plasma.toml: arming, hold, warhead by distance) read and checked
with pydantic, and flattened into plasma.PlasmaType for the hot path.

Apart from plasma.py, which holds the rules and is compiled with mypyc: pydantic models are not native classes
(docs/speed.md "Compiled").
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, model_validator

from ..core.data import Strict, load
from ..core.errors import UnknownName
from .plasma import PlasmaType

TABLE = Path(__file__).parent / "data" / "tables" / "plasma.toml"
PLASMA_F_OPTIONS = ("seed", "cth")  # scenario option "plasma_f" (docs "Plasma-F: seed or CTH")


class PlasmaTypeSpec(Strict):
    weapon: Literal["plasma-s", "plasma-g", "plasma-f"]
    source: str
    arming: tuple[Annotated[int, Field(ge=1, le=20)], Annotated[int, Field(ge=1, le=20)],
                  Annotated[int, Field(ge=1, le=20)]]
    hold: int = Field(ge=0, le=20)
    starts_armed: bool
    warhead_source: str
    bands: list[tuple[Annotated[int, Field(ge=0, le=100)], Annotated[int, Field(ge=0, le=100)]]] = Field(
        min_length=1, max_length=30)  # distances travelled, up to the torpedo's endurance
    warhead: list[Annotated[int, Field(ge=1, le=200)]] = Field(max_length=30)
    provisional: bool = False

    @model_validator(mode="after")
    def _consistent(self) -> "PlasmaTypeSpec":
        if any(p < 1 for p in self.arming) or self.hold < 0:
            raise ValueError("arming points must be at least 1 and the hold cost cannot be negative")
        if self.arming[1] == self.arming[2]:
            raise ValueError("the third arming payment must differ from the second (the rolling delay pays the "
                             "second amount again)")
        if len(self.bands) != len(self.warhead):
            raise ValueError("one warhead value per distance band is required")
        expected = 0
        for low, high in self.bands:
            if low != expected or high < low:
                raise ValueError(f"distance bands must run on from 0 without gaps (band {low}-{high})")
            expected = high + 1
        if any(w < 1 for w in self.warhead):
            raise ValueError("warhead values must be at least 1")
        return self


class CthVariant(Strict):
    source: str
    hold: int = Field(ge=0, le=20)
    starts_armed: bool


class PlasmaTables(Strict):
    source: str
    types: dict[str, PlasmaTypeSpec]
    cth: dict[str, CthVariant] = {}


@lru_cache(maxsize=None)
def tables() -> PlasmaTables:
    return load(TABLE, PlasmaTables)


@lru_cache(maxsize=None)
def plasma_types(plasma_f: str = "seed") -> dict[str, PlasmaType]:
    """Plasma types keyed by weapon type ("plasma-s", ...). ``plasma_f="cth"`` applies the CTH variant."""
    if plasma_f not in PLASMA_F_OPTIONS:
        raise UnknownName("plasma_f option", plasma_f, PLASMA_F_OPTIONS)
    out: dict[str, PlasmaType] = {}
    for name, spec in tables().types.items():
        hold, starts, source = spec.hold, spec.starts_armed, spec.source
        variant = tables().cth.get(name) if plasma_f == "cth" else None
        if variant is not None:
            hold, starts, source = variant.hold, variant.starts_armed, variant.source
        warhead: list[int] = []
        for (low, high), value in zip(spec.bands, spec.warhead):
            warhead.extend([value] * (high - low + 1))
        out[spec.weapon] = PlasmaType(name, spec.weapon, spec.arming, hold, starts, tuple(warhead), source)
    return out


def plasma_type(weapon_type: str, plasma_f: str = "seed") -> PlasmaType:
    types = plasma_types(plasma_f)
    if weapon_type not in types:
        raise UnknownName("plasma type", weapon_type, types)
    return types[weapon_type]



def plasma_sources() -> list[tuple[str, str]]:
    """(plasma type, arming source; warhead source) of every plasma type, for ``paperrobot data``."""
    return [(name, f"{spec.source}; warhead: {spec.warhead_source}") for name, spec in tables().types.items()]
