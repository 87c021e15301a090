"""FC's shots (FC.5): what one weapon's shot is written as, what it costs, and every shot a ship may take now. Used
by the fire question (fire_requests.py) and by the picture of its targets (targets_view.py)."""
from __future__ import annotations

from typing import Any, Container

from ..core.errors import IllegalAction
from ..core.hexgrid import Hex, distance
from .answers import shot_key
from .forms import EPS
from .lookups import Lookups
from .state import Ship, Weapon


def parse_shot(text: Any) -> tuple[str, str, str]:
    if not isinstance(text, str):
        raise IllegalAction(f"a shot is weapon@target[:mode], not {str(text)[:30]!r}", "FC.GEN.ARC")
    head, _, mode = text.partition(":")
    wid, _, tgt = head.partition("@")
    return wid.strip(), (tgt.strip() or "ship"), mode.strip()


def shot_cost(game: Lookups, ship: Ship, wid: str, tgt: str, mode: str,
              enemy_pos: Hex | None = None) -> tuple[Weapon, float]:
    """(weapon, cost) of one shot, or IllegalAction naming the rule (FC.GEN.ARC, FC.5A)."""
    w = game.weapon_index[ship.side].get(wid)
    if w is None:
        raise IllegalAction(f"{ship.spec.name} has no weapon {wid[:30]!r}", "FC.GEN.ARC")
    if w.fired or not w.alive:
        raise IllegalAction(f"{wid} cannot fire (each weapon fires once per turn)", "FC.GEN.ARC")
    if tgt == "ship":
        if mode not in ("", "as3", "overload") or (mode == "as3" and not w.phaser) or (mode == "overload" and w.phaser):
            raise IllegalAction(f"{mode[:30]!r} is not a fire mode of {wid}", "FC.GEN.ARC")
        pos = enemy_pos or game.enemy(ship.side).pos
        if not game.in_arc(ship, w.arc, pos):
            raise IllegalAction(f"the enemy ship is not in the {w.arc} arc of {wid}", "FC.GEN.ARC")
    else:
        drone = next((d for d in game.drones if d.id == tgt and d.alive), None)
        if drone is None:
            raise IllegalAction(f"there is no drone {tgt[:30]!r}", "FC.4A")
        if not w.phaser:
            raise IllegalAction("only phasers fire at drones", "FC.5A")
        if mode not in ("", "as3"):
            raise IllegalAction(f"{mode[:30]!r} is not a fire mode of {wid} at a drone", "FC.GEN.ARC")
        pos = drone.pos
        if not game.in_arc(ship, w.arc, pos):
            raise IllegalAction(f"drone {tgt} is not in the {w.arc} arc of {wid}", "FC.GEN.ARC")
    rng = distance(ship.pos, pos)
    cost = game.weapon_cost(w, mode, rng)
    if cost is None:
        raise IllegalAction(f"{wid} cannot fire {mode or 'standard'} at range {rng}", "FC.GEN.ARC")
    return w, cost


def legal_shots(game: Lookups, ship: Ship, used: Container[str] = (),
                budget: float | None = None) -> list[tuple[str, str]]:
    """(key, label) of every shot one weapon not in ``used`` may take now within ``budget``."""
    budget = ship.available() if budget is None else budget
    enemy = game.enemy(ship.side)
    drones = [d for d in game.drones if d.alive and d.owner != ship.side]
    out: list[tuple[str, str]] = []
    for w in ship.weapons:
        if not w.alive or w.fired or w.id in used:
            continue
        modes = ("", "as3") if w.kind in ("phaser-1", "phaser-2") else ("",) if w.phaser else ("", "overload")
        targets = [("ship", enemy.pos)] + ([(d.id, d.pos) for d in drones] if w.phaser else [])
        for tgt, pos in targets:
            if not game.in_arc(ship, w.arc, pos):
                continue
            rng = distance(ship.pos, pos)
            for mode in modes:
                cost = game.weapon_cost(w, mode, rng)
                if cost is None or cost > budget + EPS:
                    continue
                what = "the enemy ship" if tgt == "ship" else f"drone {tgt}"
                out.append((shot_key(w.id, tgt, mode), f"{w.id} {mode or 'standard'} at {what} (range {rng}, "
                                                        f"cost {cost:g})"))
    return out
