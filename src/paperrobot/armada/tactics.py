"""Measurements both sides' deciders share: course end points, double arcs, aim points."""
from __future__ import annotations

import math

from .data import geometry
from .dice import pool_at
from .geometry import ZONES, clip_to_arc, footprint, inside_area, overlaps, poly_distance, range_band


def end_footprint(game, ship, speed: int, clicks):
    x, y, a = game.end_of(ship, speed, clicks)
    return (x, y, a), footprint(ship.size, x, y, a)


def double_arcs(ship, fp, enemies, ruler=None) -> list[str]:
    """Enemy ships that ``fp`` (a footprint of ``ship``) has in the arc and range of two or more zones."""
    out = []
    ruler = ruler or geometry().ruler
    for e in enemies:
        if math.hypot(e.x - fp.centre[0], e.y - fp.centre[1]) > ruler.long + 140:
            continue
        n = 0
        for z in ZONES:
            part = clip_to_arc(e.fp.base, fp.arcs[z])
            if part and pool_at(ship.battery(z), range_band(poly_distance(fp.zones[z], part), ruler)):
                n += 1
        if n >= 2:
            out.append(e.uid)
    return out


def nearest(units, x: float, y: float):
    return min(units, key=lambda u: (math.hypot(u.x - x, u.y - y), u.uid), default=None)


def angle_diff(a: float, b: float) -> float:
    return abs((a - b + math.pi) % (2 * math.pi) - math.pi)


def course_facts(game, ship, option):
    """(end pose, footprint, on table, overlaps a ship) for a course option."""
    speed, clicks, _ = option.value
    pose, fp = end_footprint(game, ship, speed, clicks)
    on_table = inside_area(fp.base, game.width, game.depth)
    bump = speed > 0 and any(o is not ship and overlaps(fp.base, o.fp.base) for o in game.live_ships())
    return pose, fp, on_table, bump


def arc_dice(ship, fp, enemies, ruler=None) -> dict[str, int]:
    """For each hull zone of ``fp`` (a footprint of ``ship``), the most dice it could roll at one enemy ship."""
    out: dict[str, int] = {}
    ruler = ruler or geometry().ruler
    reach = ruler.long + 140
    for e in enemies:
        if math.hypot(e.x - fp.centre[0], e.y - fp.centre[1]) > reach:
            continue
        for z in ZONES:
            part = clip_to_arc(e.fp.base, fp.arcs[z])
            if part:
                n = len(pool_at(ship.battery(z), range_band(poly_distance(fp.zones[z], part), ruler)))
                if n > out.get(z, 0):
                    out[z] = n
    return out
