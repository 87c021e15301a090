"""How each game's JSON view becomes numbers for an agent (one Encoder per game; docs/envs.md lists the fields).

Units fill fixed slots, the observing side's first, each group sorted by unit id so that a unit keeps its
slot for the whole game; an empty slot is all zeros (its "present" number is 0). Distances are in metres
(Armada) or hexes; angles as cosine and sine.
"""
from __future__ import annotations

import math
from typing import Any

from ..armada.requests import table_view
from .encoders import Encoder, register

# ------------------------------------------------------------------------------------------------ Armada
ARMADA_SHIPS, ARMADA_SQUADS = 5, 8
_SHIP = ("present", "x", "y", "cos heading", "sin heading", "speed", "hull left", "shield front", "shield left",
         "shield right", "shield rear", "defence tokens", "activated", "is the ship asked about")
_SQUAD = ("present", "x", "y", "hull left", "activated")


def _armada_fields() -> tuple[str, ...]:
    names = ["round", "own score", "enemy score", "own side first"]
    for group, count, parts in (("own ship", ARMADA_SHIPS, _SHIP), ("enemy ship", ARMADA_SHIPS, _SHIP),
                                ("own squadron", ARMADA_SQUADS, _SQUAD), ("enemy squadron", ARMADA_SQUADS, _SQUAD)):
        names += [f"{group} {i + 1} {part}" for i in range(count) for part in parts]
    return tuple(names)


def _armada_observe(view: dict, side: str) -> list[float]:
    other = next((s for s in view["score"] if s != side), "")
    out = [view["round"], view["score"].get(side, 0) / 100, view["score"].get(other, 0) / 100,
           1.0 if view["first"] == side else 0.0]
    asked = view.get("ship") or view.get("active")
    ships = sorted((s for s in view["ships"] if not s["destroyed"]), key=lambda s: s["id"])
    squads = sorted((q for q in view["squadrons"] if not q["destroyed"]), key=lambda q: q["id"])
    for mine in (True, False):
        group = [s for s in ships if (s["side"] == side) == mine][:ARMADA_SHIPS]
        for s in group:
            h = math.radians(s["heading"])
            out += [1.0, s["x"] / 1000, s["y"] / 1000, math.cos(h), math.sin(h), s["speed"], s["hull"] - s["damage"],
                    *s["shields"], len(s["tokens"]), float(s["activated"]), float(s["id"] == asked)]
        out += [0.0] * len(_SHIP) * (ARMADA_SHIPS - len(group))
    for mine in (True, False):
        group = [q for q in squads if (q["side"] == side) == mine][:ARMADA_SQUADS]
        for q in group:
            out += [1.0, q["x"] / 1000, q["y"] / 1000, q["hull"], float(q["activated"])]
        out += [0.0] * len(_SQUAD) * (ARMADA_SQUADS - len(group))
    return out


def _armada_agent_view(request: Any) -> Any:
    """An Armada request's view without drawing aids (no measures, course paths, attack polygons): the same
    numbers for _armada_observe and _armada_damage, a fraction of the work (a maneuver draws up to 275 paths)."""
    if request.state is None:
        return request.view
    return table_view(request.state, request.side, request.kind, request.subject, aids=False)


def _armada_damage(view: dict) -> dict[str, tuple[str, float]]:
    """Hull damage only: a ship's damage cards (up to its hull), a squadron's hull points lost. Shields are left
    out: the repair command restores them, so a shield hit is not lasting damage."""
    out = {s["id"]: (s["side"], float(s["hull"] if s["destroyed"] else min(s["damage"], s["hull"])))
           for s in view["ships"]}
    out.update({q["id"]: (q["side"], -float(0 if q["destroyed"] else q["hull"])) for q in view["squadrons"]})
    return out


def _course_parts(key: str) -> tuple[str, ...]:
    """A course "speed:yaw,yaw,..." (one yaw click per joint, as the maneuver tool sets them) as its speed, then
    each joint's yaw: a maneuver lists up to 275 legal courses, chosen as about one decision per joint instead."""
    speed, _, yaws = key.partition(":")
    return (speed, *(y for y in yaws.split(",") if y))


# With the courses split, the largest decision is a squadron's: stay, a move toward each other unit, a shot at
# each unit in range, pass (at most about 50 with the slots' 5 ships and 8 squadrons a side; 15 seen in random
# play). Shaped reward: 0.05 per hull point (ships have hulls of 4-8, squadrons 3-5).
register("armada", Encoder(("style", "focal", "zone", "command", "ai-command", "activate", "maneuver", "attack",
                            "defend", "squadron-pick", "squadron"), _armada_fields(), _armada_observe,
                           max_choices=64, damage=_armada_damage, damage_scale=0.05,
                           end_view=lambda engine, side: engine.view_for(side), split={"maneuver": _course_parts},
                           agent_view=_armada_agent_view))


# ------------------------------------------------------------------------------------------------ SFB
SFB_SHIPS, SFB_SEEKERS = 3, 8  # scenario #4 has up to 3 robot ships; seekers: drones and plasma torpedoes
_SFB_SHIP = ("present", "column", "row", "cos facing", "sin facing", "speed", "shield 1", "shield 2", "shield 3",
             "shield 4", "shield 5", "shield 6", "internal damage", "cloaked")
_SFB_SEEKER = ("present", "column", "row", "own", "targets own side", "plasma strength")


def _sfb_fields() -> tuple[str, ...]:
    names = ["turn", "impulse", "impulses", "power", "batteries", "capacitor"]
    for group, count, parts in (("own ship", SFB_SHIPS, _SFB_SHIP), ("enemy ship", SFB_SHIPS, _SFB_SHIP),
                                ("seeker", SFB_SEEKERS, _SFB_SEEKER)):
        names += [f"{group} {i + 1} {part}" for i in range(count) for part in parts]
    return tuple(names)


def _hex(label: str) -> tuple[float, float]:
    """A printed CCRR hex label as (column, row); off-map labels still parse as numbers."""
    try:
        return float(int(label[:-2])), float(int(label[-2:]))
    except (ValueError, TypeError):
        return 0.0, 0.0


def _sfb_observe(view: dict, side: str) -> list[float]:
    ships = sorted(view["ships"], key=lambda s: s["name"])
    own = [s for s in ships if s["side"] == side]
    out = [view["turn"], view["impulse"], view["impulses"], own[0].get("power", 0) if own else 0,
           own[0].get("batteries", 0) if own else 0, own[0].get("capacitor", 0) if own else 0]
    for mine in (True, False):
        group = [s for s in ships if (s["side"] == side) == mine and not s["destroyed"] and not s["gone"]]
        group = group[:SFB_SHIPS]
        for s in group:
            angle = math.radians(60 * "ABCDEF".index(s["facing"]))
            out += [1.0, *_hex(s["hex"]), math.cos(angle), math.sin(angle), s["speed"], *s["shields"],
                    s["internal"], float(s["cloaked"])]
        out += [0.0] * len(_SFB_SHIP) * (SFB_SHIPS - len(group))
    names = {s["name"] for s in own}
    seekers = sorted(view["seekers"], key=lambda k: k["label"])[:SFB_SEEKERS]
    for k in seekers:
        out += [1.0, *_hex(k["hex"]), float(k["side"] == side), float(k["target"] in names),
                float(k.get("strength", 0))]
    out += [0.0] * len(_SFB_SEEKER) * (SFB_SEEKERS - len(seekers))
    return out


def _sfb_damage(view: dict) -> dict[str, tuple[str, float]]:
    """Shield boxes lost plus internal damage points of every ship: a volley takes the facing shield's boxes first
    and the rest goes inside (SFB.DMG4, SFB.DMG1); the Cadet engine never restores a shield box."""
    return {s["name"]: (s["side"], float(s["internal"] - sum(s["shields"]))) for s in view["ships"]}


# Shaped reward: 0.01 per damage point (the Federation ship of #5 has 70 shield boxes).
register("sfb", Encoder(("energy", "speed", "cloak", "move", "launch", "fire", "disengage"), _sfb_fields(),
                        _sfb_observe, max_choices=64, damage=_sfb_damage, damage_scale=0.01,
                        end_view=lambda engine, side: engine.view(side)))


# ------------------------------------------------------------------------------------------------ FC
FC_DRONES = 8
_FC_SHIP = ("present", "q", "r", "cos facing", "sin facing", "speed", "shield 1", "shield 2", "shield 3", "shield 4",
            "shield 5", "shield 6", "internal damage", "energy", "battery", "weapons working", "weapons fired",
            "drones in racks")
_FC_DRONE = ("present", "dq", "dr", "own", "held", "impacting", "damage")


def _fc_fields() -> tuple[str, ...]:
    names = ["turn", "impulse", "sub-pulse", "range"]
    for group in ("own ship", "enemy ship"):
        names += [f"{group} {part}" for part in _FC_SHIP]
    names += [f"drone {i + 1} {part}" for i in range(FC_DRONES) for part in _FC_DRONE]
    return tuple(names)


def _fc_observe(view: dict, side: str) -> list[float]:
    out = [view["turn"], view["impulse"], view["subpulse"], view["range"]]
    own = view["ships"][side]
    enemy = next(s for k, s in view["ships"].items() if k != side)
    for s in (own, enemy):  # positions relative to the observing ship (the FC map may float)
        f = math.radians(60 * "ABCDEF".index(s["facing"]))
        out += [1.0, s["q"] - own["q"], s["r"] - own["r"], math.cos(f), math.sin(f), s["speed"], *s["shields"],
                s["internals"], s.get("energy", 0.0), s.get("battery", 0.0),
                sum(1 for w in s["weapons"] if w["alive"]), sum(1 for w in s["weapons"] if w["fired"]),
                sum(r["ammo"] for r in s["drone_racks"] if r["alive"])]
    drones = sorted(view["drones"], key=lambda d: d["id"])[:FC_DRONES]
    for d in drones:
        out += [1.0, d["q"] - own["q"], d["r"] - own["r"], float(d["owner"] == side), float(bool(d["held_by"])),
                float(d["impacting"]), d["damage"]]
    out += [0.0] * len(_FC_DRONE) * (FC_DRONES - len(drones))
    return out


def _fc_damage(view: dict) -> dict[str, tuple[str, float]]:
    """Shield boxes lost plus internal damage points of each ship (the internals count never falls); shield
    regeneration (FC.1B) gives boxes back, which counts as negative damage."""
    return {side: (side, float(s["internals"] - sum(s["shields"]))) for side, s in view["ships"].items()}


# A volley lists every legal shot of the weapons not yet used (phasers at the ship or any drone, two modes).
# Shaped reward: 0.005 per damage point (the Federation CA has 150 shield boxes and 86 internal boxes).
register("fc", Encoder(("allocate", "accelerate", "move", "defend", "reinforce", "fire", "launch", "batteries",
                        "repair", "transfer", "dac_phaser", "dac_tractor"), _fc_fields(), _fc_observe,
                       max_choices=320, damage=_fc_damage, damage_scale=0.005,
                       end_view=lambda engine, side: engine.view(side)))
