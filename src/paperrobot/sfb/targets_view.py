"""What a fire question's picture needs (issue 26), read from the state when a front end asks: the targets each
ready weapon may fire at now and each weapon's firing arc and range bands, as plain JSON data. The front end
draws them (web/moves.py) and knows no rules; the shots themselves are the fire question's form and options."""
from __future__ import annotations

from ..core import hexgrid
from ..core.arcview import arc_sectors
from .data import weapon_tables


def bands(kind: str) -> list[int]:
    """The last range of each band of a weapon type's chart (SFB's charts change at these ranges)."""
    chart = getattr(weapon_tables(), kind.replace("-", "_"), None)
    return [int(high) for _, high in chart.bands] if chart is not None else []


def fire_view(game, ship, pairs=None) -> dict:
    """``targets``: each target with a legal shot (name, hex, and ``fill``: weapon -> target, what a click on it puts
    in the form: every ready weapon that bears on it); ``arcs``: every ready direct-fire weapon's arc as sectors of
    bearings from the ship's hex, its range limits and band ends. ``pairs``: ``game.fire_options(ship, labels=False)``
    when the caller has them."""
    targets: dict[str, dict] = {}
    for _, _, weapon, target in game.fire_options(ship, labels=False) if pairs is None else pairs:
        name = game.name_of(target)
        entry = targets.setdefault(name, {"target": name, "hex": hexgrid.label(target.hex), "fill": {}})
        entry["fill"][weapon.key] = name
    arcs = [{"weapon": w.key, "hex": hexgrid.label(ship.hex), "sectors": arc_sectors(ship.facing, w.arc),
             "arc": w.arc, "min": w.rmin, "max": w.rmax, "bands": [b for b in bands(w.type) if b <= w.rmax]}
            for w in game.ready_weapons(ship)]
    return {"targets": list(targets.values()), "arcs": arcs, "firing": ship.name}
