"""Candidates for a search (docs/fc.md#candidates): a compact set of meaningful, legal alternatives a form's
presets list after the suggestion (requests.py). Nothing here changes game state; built only when read."""
from __future__ import annotations

from ..core.hexgrid import distance
from .lookups import SPEEDS

EPS = 1e-9  # as requests.EPS (requests.py imports this module, so not imported from there)


def allocation(game, ship, suggested: dict) -> tuple:
    """Candidates for a search (docs/fc.md#candidates): the suggested allocation at each affordable speed band,
    what power does not cover dropped (regeneration last first, then photons, then held drones)."""
    out = []
    for speed in SPEEDS:
        if speed == suggested.get("speed"):
            continue
        values = {"speed": speed, "regen": list(suggested.get("regen", ())), "hold": list(suggested.get("hold", ())),
                  "photons": list(suggested.get("photons", ()))}
        while game.allocation_cost(ship, values) > ship.available() + EPS:
            part = next((k for k in ("regen", "photons", "hold") if values[k]), None)
            if part is None:
                break
            values[part].pop()
        if game.allocation_cost(ship, values) <= ship.available() + EPS:
            out.append((f"speed-{speed}", f"the suggestion at speed {speed}", values))
    return tuple(out)


FIRE_GROUPS = (("all", "every weapon that bears at the enemy ship", lambda w: True),
               ("phasers", "the phasers that bear at the enemy ship, heavy weapons held", lambda w: w.phaser),
               ("heavy", "the heavy weapons that bear at the enemy ship, phasers held", lambda w: not w.phaser))


def fire(game, ship, names: tuple) -> tuple:
    """Candidates for a search (docs/fc.md#candidates): fire now or hold, by weapon group, at the enemy ship;
    standard mode, and overloaded heavy weapons where power allows them all; in card order within the power."""
    enemy_pos = game.enemy(ship.side).pos
    rng = distance(ship.pos, enemy_pos)
    out = []
    for key, label, group in FIRE_GROUPS:
        for mode in ("", "overload"):
            if mode and key == "phasers":
                continue
            budget, shots = ship.available(), []
            for w in ship.weapons:
                if not w.alive or w.fired or not group(w) or not game.in_arc(ship, w.arc, enemy_pos):
                    continue
                cost = game.weapon_cost(w, mode if not w.phaser else "", rng)
                if cost is None and mode:
                    cost, use = game.weapon_cost(w, "", rng), ""
                else:
                    use = mode if not w.phaser else ""
                if cost is not None and cost <= budget + EPS:
                    budget -= cost
                    shots.append(f"{w.id}@ship" + (f":{use}" if use else ""))  # requests.shot_key
            if shots and len(shots) <= len(names):
                volley = dict.fromkeys(names, "none")
                volley.update(zip(names, shots))
                out.append((key + ("-overload" if mode else ""), label + (" (overloaded)" if mode else ""), volley))
    return tuple(out)
