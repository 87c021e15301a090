"""What an attack question's picture needs (issue 26), read from the state when a front end asks: each legal
attack's attacking hull zone, target and defending hull zone, and the hull zones (polygons, mm) of the ships
concerned, as plain JSON data. The front end draws them (web/moves.py: target hull zones to click, the range ruler
from a hull zone) and knows no rules; the attacks themselves are the question's options."""
from __future__ import annotations

from .state import Ship, Squad


def attack_view(opts) -> dict:
    """``targets``: per legal attack its key, ``zone`` (attacking), ``target``, ``tzone`` (defending, None for a
    squadron), range band and whether it is a squadron; ``zones``: uid -> hull zone -> polygon (x, y mm) of the
    attacker and every ship it may attack; ``attacker``: its uid."""
    if not opts:
        return {}
    attacker = opts[0].attacker
    ships = [attacker] if isinstance(attacker, Ship) else []
    targets = []
    for o in opts:
        squadron = isinstance(o.target, Squad)
        targets.append({"key": o.key, "zone": o.zone, "target": o.target.uid, "tzone": o.tzone, "band": o.band,
                        "squadron": squadron})
        if not squadron and o.target not in ships:
            ships.append(o.target)
    zones = {s.uid: {zone: [[round(x, 1), round(y, 1)] for x, y in poly] for zone, poly in s.fp.zones.items()}
             for s in ships}
    return {"targets": targets, "zones": zones, "attacker": attacker.uid}
