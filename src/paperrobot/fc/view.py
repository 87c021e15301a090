"""What one side may know, as plain JSON data (for web pages, environments and agents).

FC is a game of open information: positions, facings, speeds, shields, weapons and drones of both
ships; a side's own energy and batteries are its own business.
"""
from __future__ import annotations

from ..core.hexgrid import label


def ship_view(ship, own: bool) -> dict:
    out = {"side": ship.side, "ship": ship.spec.name, "title": ship.spec.title, "hex": label(ship.pos),
           "q": ship.pos.q, "r": ship.pos.r, "facing": "ABCDEF"[ship.facing], "speed": ship.speed_now(),
           "baseline": ship.baseline, "shields": list(ship.shields), "shields_max": list(ship.shield_max),
           "internals": ship.internals, "destroyed": ship.destroyed, "disengaged": ship.disengaged,
           "weapons": [{"id": w.id, "kind": w.kind, "arc": w.arc, "alive": w.alive, "fired": w.fired,
                        "armed": w.arm} for w in ship.weapons],
           "systems": dict(ship.boxes), "drone_racks": [{"alive": r.alive, "ammo": r.ammo, "launched": r.launched}
                                                        for r in ship.racks],
           "add_shots": ship.add_shots}
    if own:
        out.update(energy=round(ship.energy, 3), battery=round(ship.battery, 3), available=round(ship.available(), 3))
    return out


def view(game, side: str) -> dict:
    return {"game": "fc", "side": side, "turn": game.turn, "impulse": game.impulse, "subpulse": game.subpulse,
            "range": game.range(), "map": "floating" if game.board is None else f"{game.board.cols}x{game.board.rows}",
            "ships": {s.side: ship_view(s, s.side == side) for s in game.ships.values()},
            "drones": [{"id": d.id, "owner": d.owner, "target": d.target, "hex": label(d.pos), "q": d.pos.q,
                        "r": d.pos.r, "facing": "ABCDEF"[d.facing], "damage": d.damage, "held_by": d.held_by,
                        "impacting": d.impacting} for d in game.drones if d.alive]}
