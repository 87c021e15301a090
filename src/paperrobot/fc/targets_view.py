"""What a fire question's picture needs (issue 26), read from the state when a front end asks: the targets each
weapon may fire at now and each weapon's firing arc and range bands, as plain JSON data. The front end draws them
(web/moves.py) and knows no rules; the shots themselves are the fire question's form and presets."""
from __future__ import annotations

from ..core.arcview import arc_sectors
from .shots import legal_shots, parse_shot

REACH = 60  # hexes probed for a weapon's longest range (FC's charts end well inside it)


def chart_bands(game, w) -> list[int]:
    """The upper range of each column of the weapon's chart (FC's charts list them), within its longest range."""
    if w.phaser:
        bands = game._phaser_chart(w.kind).bands
    else:
        bands = getattr(getattr(game.tables, w.kind, None), "bands", ())
    top = max((r for r in range(REACH + 1) if game.weapon_cost(w, "", r) is not None), default=-1)
    return [int(b) for b in bands if b <= top] or ([top] if top >= 0 else [])


def fire_view(game, ship) -> dict:
    """The side's view with ``targets`` (each target with a shot now: ``target`` names its counter, the enemy
    ship's side or a drone's id; ``fill``: weapon -> its standard shot at it, what a click puts in the form) and
    ``arcs`` (each weapon that may fire this impulse: sectors of bearings from the ship's hex, range bands)."""
    out = dict(game.view_fns[ship.side]())
    enemy = game.enemy(ship.side)
    targets: dict[str, dict] = {}
    for key, _ in legal_shots(game, ship):
        wid, tgt, mode = parse_shot(key)
        name = enemy.side if tgt == "ship" else tgt
        entry = targets.setdefault(name, {"target": name, "fill": {}})
        if not mode or wid not in entry["fill"]:  # the standard mode where there is one
            entry["fill"][wid] = key
    out["targets"] = list(targets.values())
    arcs = []
    for w in ship.weapons:
        if not w.alive or w.fired:
            continue
        bands = chart_bands(game, w)
        if bands:
            arcs.append({"weapon": w.id, "q": ship.pos.q, "r": ship.pos.r, "sectors": arc_sectors(ship.facing, w.arc),
                         "arc": w.arc, "min": 0, "max": bands[-1], "bands": bands})
    out["arcs"] = arcs
    out["firing"] = ship.side
    return out


def launch_view(game, ship, names: tuple, legal: tuple) -> dict:
    """The side's view with ``targets`` for a drone launch (FC.6), ``legal`` being the launch's targets ("ship" and
    the drones seeking this ship): the enemy ship (a click puts every ready rack's field, ``names``, on it, as the
    "all" preset does) and each such drone (a counter-drone: the first rack's field). The form checks the rest."""
    out = dict(game.view_fns[ship.side]())
    out["targets"] = [{"target": game.enemy(ship.side).side if t == "ship" else t,
                       "fill": dict.fromkeys(names, "ship") if t == "ship" else {names[0]: t}} for t in legal if names]
    out["firing"] = ship.side
    return out
