"""Internal damage: the scenario #4 rule (SFB.DMG1 with the robot's SFB.DMG2/DMG3) and the cadet DAC (#5).

Each function scores one volley of internal points on a ship and returns the boxes hit, in order
(names such as "warp", "hull", "phaser-1#2", "excess", "destroyed").
"""
from __future__ import annotations

from typing import Final, cast

from ..core.dice import Dice
from .data import dac_table
from .state import WEAPON_VALUE, Ship, Weapon

# Owner's order for "any internal box" (docs/sfb.md "Owner's box choices"): boxes that cost the least
# fighting power first; warp and weapons last, which is also what SFB.DMG2 demands of the robot.
# Bridge and security are never destroyed in the cadet game (reference §A8: bridge and security boxes are
# indestructible in #2-#4, and in the cadet DAC of #5-#6).
DMG1_ANY = ("hull", "shuttle", "lab", "transporter", "excess", "battery", "apr", "impulse")
OTHER_ORDER = ("shuttle", "lab", "transporter", "battery", "apr")


def _weapon_to_lose(ship: Ship, turn: int) -> Weapon | None:
    """The live weapon the owner gives up: least valuable first (an empty drone rack is worth 0); among equals
    one that already fired this turn, then the last on the sheet. A loop, not ``min`` with a key lambda: a closure
    is slow compiled (mypyc); a weapon's index is its place on the sheet (the keys are unique)."""
    best: Weapon | None = None
    best_key = 0
    for i, w in enumerate(ship.weapons):
        if not w.alive:
            continue
        # the key (value, fired this turn ? 0 : 1, -i) as one int, compared the same way (i < 4096; compiled, a
        # tuple was built for every weapon)
        value = WEAPON_VALUE[w.type] if not (w.kind == "drone" and w.ammo == 0) else 0
        key = (value * 2 + (0 if w.fired_turn == turn else 1)) * 4096 - i
        if best is None or key < best_key:
            best, best_key = w, key
    return best


def destroy_weapon(ship: Ship, weapon: Weapon) -> str:
    weapon.alive = False
    weapon.ready = False
    if weapon.kind == "phaser":  # H6.3: the capacitor shrinks, the empty part going first
        ship.capacitor = min(ship.capacitor, ship.capacity)
    if weapon.kind == "drone":
        weapon.ammo = 0  # destroying the launcher destroys the drones still in it (FD1)
        ship.has_drones = any(w.kind == "drone" and w.alive and w.ammo for w in ship.weapons)
    return weapon.key


def destroy_box(ship: Ship, box: str) -> str:
    if box == "warp":
        ship.warp -= 1
        if ship.robot:
            ship.warp_lost += 1  # SFB.DMG3: the robot slows by 1 from the next turn
    elif box == "battery":
        ship.battery -= 1  # discharged batteries are destroyed first (B3.0 line 6)
        ship.charged = min(ship.charged, ship.battery)
    elif box == "hull":  # each internal box written as its field (compiled, setattr/getattr by name are generic)
        ship.hull -= 1
    elif box == "excess":
        ship.excess -= 1
    elif box == "impulse":
        ship.impulse -= 1
    elif box == "shuttle":
        ship.shuttle -= 1
    elif box == "lab":
        ship.lab -= 1
    elif box == "transporter":
        ship.transporter -= 1
    elif box == "apr":
        ship.apr -= 1
    else:
        setattr(ship, box, getattr(ship, box) - 1)
    return box


def _left(ship: Ship, box: str) -> int:
    """``getattr(ship, box)``, each internal box read as its field (compiled, a read by name is a generic lookup)."""
    if box == "hull":
        return ship.hull
    if box == "shuttle":
        return ship.shuttle
    if box == "lab":
        return ship.lab
    if box == "transporter":
        return ship.transporter
    if box == "excess":
        return ship.excess
    if box == "battery":
        return ship.battery
    if box == "apr":
        return ship.apr
    if box == "impulse":
        return ship.impulse
    return int(getattr(ship, box))


def _first_left(ship: Ship, boxes: tuple[str, ...]) -> str | None:
    """The first of ``boxes`` the ship still has one of, or None."""
    for box in boxes:
        if _left(ship, box) > 0:
            return box
    return None


def _first_other(ship: Ship) -> str | None:
    """``_first_left(ship, OTHER_ORDER)``, written out (compiled, the module's tuple is a lookup by name at each use)."""
    if ship.shuttle > 0:
        return "shuttle"
    if ship.lab > 0:
        return "lab"
    if ship.transporter > 0:
        return "transporter"
    if ship.battery > 0:
        return "battery"
    if ship.apr > 0:
        return "apr"
    return None


def dmg1_volley(ship: Ship, points: int, turn: int) -> list[str]:
    """SFB.DMG1: 1st point on a weapon, 2nd on a warp box, the rest on any internal box; the bridge
    cannot be destroyed; with only the bridge left, one more point destroys the ship. For the robot the
    rest avoid warp and weapons while other boxes remain, then warp first (SFB.DMG2)."""
    hits: list[str] = []
    for n in range(points):
        if ship.destroyed:
            break
        if n == 0:
            weapon = _weapon_to_lose(ship, turn)
            if weapon is not None:
                hits.append(destroy_weapon(ship, weapon))
                continue
        if n == 1 and ship.warp > 0:
            hits.append(destroy_box(ship, "warp"))
            continue
        box = _first_left(ship, DMG1_ANY)
        if box is None and ship.warp > 0:
            box = "warp"
        if box is not None:
            hits.append(destroy_box(ship, box))
            continue
        weapon = _weapon_to_lose(ship, turn)
        if weapon is not None:
            hits.append(destroy_weapon(ship, weapon))
            continue
        ship.destroyed = True  # nothing but the bridge is left
        hits.append("destroyed")
    return hits


def dac_point(ship: Ship, roll: int, turn: int, rows: list[list[str]] | None = None) -> str:
    """One point on the cadet Damage Allocation Chart: row ``roll``, first column whose category the ship
    still has (D4.21); Excess Damage when none; no Excess box left destroys the ship. ``rows``: the chart's rows
    (data.dac_table().rows), read once per volley by dac_volley; typed lists (compiled, read natively)."""
    for category in (rows if rows is not None else _rows())[roll - 1]:
        if category == "hull" and ship.hull > 0:
            return destroy_box(ship, "hull")
        if category == "engine" and (ship.warp > 0 or ship.impulse > 0):
            return destroy_box(ship, "warp" if ship.warp > 0 else "impulse")
        if category == "other":
            box = _first_other(ship)
            if box is not None:
                return destroy_box(ship, box)
        if category == "weapon":
            weapon = _weapon_to_lose(ship, turn)
            if weapon is not None:
                return destroy_weapon(ship, weapon)
        if category == "excess":
            if ship.excess > 0:
                return destroy_box(ship, "excess")
            ship.destroyed = True
            return "destroyed"
    raise AssertionError("the DAC always ends in Excess Damage")


# The cadet DAC's rows once read (data.dac_table is cached for good: the same object), kept here: compiled, calling
# the lru_cache wrapper at every volley is a generic call.
_ROWS: Final[list[list[list[str]]]] = []


def _rows() -> list[list[str]]:
    """The cadet DAC's rows (a list of lists of categories, as loaded)."""
    if not _ROWS:
        _ROWS.append(cast("list[list[str]]", dac_table().rows))
    return _ROWS[0]


def dac_volley(ship: Ship, points: int, turn: int, dice: Dice) -> list[str]:
    hits: list[str] = []
    rows = _rows()
    for _ in range(points):
        if ship.destroyed:
            break
        hits.append(dac_point(ship, dice.roll(6, "damage allocation", ship.side), turn, rows))  # d6
    return hits
