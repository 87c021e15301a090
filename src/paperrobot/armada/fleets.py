"""Fleet files: which ships and squadrons each side brings (TOML, validated)."""
from __future__ import annotations

from pathlib import Path

from ..core.data import Strict, load
from ..core.errors import DataError
from .data import catalogue
from .game import Setup


class FleetFile(Strict):
    imperial: list[str]
    rebel: list[str]
    table: str = "standard"
    evade_close: bool = True


def expand(items: list[str]) -> list[str]:
    """'tie-fighter*4' -> four entries."""
    out = []
    for item in items:
        name, _, count = item.strip().partition("*")
        out += [name.strip()] * (int(count) if count.strip().isdigit() else 1)
    return out


def load_fleet(path: str | Path, ships_dir: str | None = None) -> Setup:
    f = load(path, FleetFile)
    ships, squads = catalogue(ships_dir)
    for side in ("imperial", "rebel"):
        for name in expand(getattr(f, side)):
            if name not in ships and name not in squads:
                raise DataError(path, side, f"unknown ship or squadron '{name}' (see 'paperrobot ships --game armada')")
    if f.table not in ("standard", "small"):
        raise DataError(path, "table", "must be 'standard' (3'x6') or 'small' (3'x3')")
    return Setup(expand(f.imperial), expand(f.rebel), f.table, f.evade_close, ships_dir)
