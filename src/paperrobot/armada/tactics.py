"""Measurements both sides' deciders share: course end points, double arcs, aim points."""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, TypeVar, cast

from ..core.contract import Option
from .data import Ruler, ShipSpec, geometry, parse_dice
from .geometry import (ZONES, Footprint, LocalPlane, Pose, _local_planes, _of, arc_part, arc_tests, footprint,
                       fp_reach, ship_radius, zone_reach)
from .maneuver_tool import maneuvers
from .polygons import EPS, SLACK, Point, inside_area, overlaps
from .ranges import range_band, within, zone_band
from .measure import ship_memo, size_of
from .state import Ship, Squad

if TYPE_CHECKING:
    from .base import GameBase as Table  # the engine (measure.py: typed as its class, read natively compiled)

# math functions as constants (Final): compiled, called without looking them up in the math module each time
_hypot: Final = math.hypot

__all__ = ["ship_radius"]  # re-exported: it lives in geometry (measure uses it, and measure is what tactics reads)

# what course_table knows of a course: end pose, footprint there, on the table, overlapping a ship
CourseFacts = tuple[Pose, Footprint, bool, bool]
Unit = TypeVar("Unit", Ship, Squad)


def _reach(ruler: Ruler, battery: tuple[int, int, int]) -> float | None:
    """The longest measured distance at which ``battery`` gathers a die: pool_at(battery, range_band(d)) is not
    empty exactly when d <= this (red reaches long range, blue medium, black close); None: no dice at all."""
    red, blue, black = battery
    return ruler.long if red else ruler.medium if blue else ruler.close if black else None


_REACHES: Final[dict[tuple[int, int], tuple[ShipSpec, Ruler, list[tuple[str, float]]]]] = {}


def _zone_reach(spec: ShipSpec, ruler: Ruler) -> list[tuple[str, float]]:
    """(zone, _reach of its battery) for each zone of a ship card that gathers dice (once per card and ruler)."""
    hit = _REACHES.get((id(spec), id(ruler)))
    if hit is None or hit[0] is not spec or hit[1] is not ruler:
        if len(_REACHES) > 4096:  # bounded: cards loaded again and again (a ships directory per game)
            _REACHES.clear()
        reach = [(z, _reach(ruler, parse_dice(getattr(spec, z)))) for z in ZONES]
        hit = _REACHES[(id(spec), id(ruler))] = (spec, ruler, [(z, r) for z, r in reach if r is not None])
    return hit[2]


def double_arcs(ship: Ship, fp: Footprint, enemies: Sequence[Ship], ruler: Ruler | None = None,
                first: bool = False) -> list[str]:
    """Enemy ships that ``fp`` (a footprint of ``ship``) has in the arc and range of two or more zones (``first``:
    only the first of them)."""
    out: list[str] = []
    ruler = ruler or geometry().ruler
    reach = _zone_reach(ship.spec, ruler)
    if len(reach) < 2:
        return out
    zones = [z for z, _ in reach]
    far = ruler.long + 140
    far2 = far * far * SLACK
    cx, cy = fp.centre
    for e in enemies:
        dx, dy = e.x - cx, e.y - cy
        if dx * dx + dy * dy > far2 or _hypot(dx, dy) > far:
            continue
        n = 0
        er = fp_reach(size_of(e))
        # the cheap arc tests of every zone first: an enemy no more than one arc could hold is not double-arced
        maybe = [(z, r, seen) for (z, r), seen in zip(reach, arc_tests(fp, zones, e.x, e.y, er)) if seen >= 0]
        if len(maybe) < 2:
            continue
        for z, r, seen in maybe:
            arc = fp.arcs[z]
            part = arc_part(e.fp.base, fp, z, seen)
            if part and within(fp.zones[z], part, arc[0], r):
                n += 1
                if n >= 2:  # two zones are all the answer needs
                    out.append(e.uid)
                    break
        if first and out:
            break
    return out


class _Sieve:
    """A zone's arc planes in the ship's frame (geometry.LocalPlane) and the reach double_arc_sieve allows it, as
    fields (compiled: read as unboxed floats, where a tuple's ten are unboxed at every enemy of every pose)."""
    __slots__ = ("ax", "ay", "ux", "uy", "side1", "vx", "vy", "side2", "lu", "lv", "limit")
    ax: float
    ay: float
    ux: float
    uy: float
    side1: float
    vx: float
    vy: float
    side2: float
    lu: float
    lv: float
    limit: float

    def __init__(self, plane: LocalPlane, limit: float) -> None:
        self.ax, self.ay, self.ux, self.uy, self.side1, self.vx, self.vy, self.side2, self.lu, self.lv = plane
        self.limit = limit


class _Unit:
    """An enemy's centre and disc radius (fp_reach), as fields (compiled: read unboxed)."""
    __slots__ = ("x", "y", "r")
    x: float
    y: float
    r: float

    def __init__(self, x: float, y: float, r: float) -> None:
        self.x, self.y, self.r = x, y, r


def double_arc_sieve(ship: Ship, poses: Sequence[Pose], enemies: Sequence[Ship], ruler: Ruler) -> list[bool]:
    """For each end pose (x, y, heading) of ``ship``, False where double_arcs(ship, footprint at that pose, enemies,
    ruler) is surely empty, True where it has to be measured (a decision judges up to 66 courses, most with no enemy
    in two arcs). double_arcs passes over an enemy more than ``ruler.long`` + 140 from the ship's centre, and one
    that fewer than two of its zones have both in arc (not arc_test's -1: the disc around the enemy's base wholly
    outside one of the arc's half-planes) and within the zone's reach (not when the discs around the hull zones,
    zone_reach, and around the base are further apart). The sieve works these out from the centres alone (no
    footprint), with the same arithmetic as arc_tests, and says False only where each test is settled a thousandth
    of a millimetre past its threshold."""
    reach = _zone_reach(ship.spec, ruler)
    if len(reach) < 2 or not enemies:
        return [False] * len(poses)
    size = size_of(ship)
    planes = _local_planes(size)
    zones = [_Sieve(planes[z], r + 1e-3) for z, r in reach]
    mine = zone_reach(size)
    far = ruler.long + 140 + 1e-3
    far2 = far * far * SLACK
    units = [_Unit(e.x, e.y, fp_reach(size_of(e))) for e in enemies]
    out: list[bool] = []
    for x, y, a in poses:
        c, s = math.cos(a), math.sin(a)
        keep = False
        for u in units:
            dx, dy = u.x - x, u.y - y
            if dx * dx + dy * dy > far2:
                continue
            gap = _hypot(dx, dy)
            if gap > far:
                continue
            er = u.r
            nearest = gap - mine - er
            lx, ly = dx * c + dy * s, -dx * s + dy * c  # the enemy's centre in the ship's frame
            n = 0
            for z in zones:
                lu, lv = z.lu, z.lv
                if nearest > z.limit or z.side1 * (z.ux * (ly - z.ay) - z.uy * (lx - z.ax)) + er * lu < -1e-3 * lu or \
                        z.side2 * (z.vx * (ly - z.ay) - z.vy * (lx - z.ax)) + er * lv < -1e-3 * lv:
                    continue
                n += 1
            if n >= 2:
                keep = True
                break
        out.append(keep)
    return out


def nearest(units: Sequence[Unit], x: float, y: float) -> Unit | None:
    """The unit nearest (x, y); among equals, the least uid (None: no units)."""
    best: Unit | None = None
    best_d, best_uid = math.inf, ""
    for u in units:
        d = _hypot(u.x - x, u.y - y)
        if best is None or d < best_d or (d == best_d and u.uid < best_uid):
            best, best_d, best_uid = u, d, u.uid
    return best


def nearest_ship(ships: Sequence[Ship], x: float, y: float) -> Ship | None:
    """nearest(ships, x, y) for ships (typed: compiled, each ship's x, y and uid read natively, not looked up by name
    as a unit of the type variable is)."""
    best: Ship | None = None
    best_d, best_uid = math.inf, ""
    for u in ships:
        d = _hypot(u.x - x, u.y - y)
        if best is None or d < best_d or (d == best_d and u.uid < best_uid):
            best, best_d, best_uid = u, d, u.uid
    return best


def angle_diff(a: float, b: float) -> float:
    return abs((a - b + math.pi) % (2 * math.pi) - math.pi)


def course_facts(game: Table, ship: Ship, option: Option) -> CourseFacts:
    """(end pose, footprint, on table, overlaps a ship) for a course option (remembered while no ship moves)."""
    return course_table(game, ship, (option,))[0]


def course_table(game: Table, ship: Ship, options: Sequence[Option]) -> list[CourseFacts]:
    """course_facts of every option, measured together: the end poses share their joints (geometry.maneuvers), the
    ships that could be bumped are listed once."""
    memo = ship_memo(game, "course-facts")
    # the memo holds a table per place of a ship, (uid, x, y, heading), of each course's facts by its option's key
    # (a course's key names its speed and clicks: courses._courses): the place's floats are hashed once a call, and
    # the keys are strings made once (courses' options are shared), their hashes kept (typed object: compiled,
    # each fact is then boxed once, not at every use)
    where: object = (ship.uid, ship.x, ship.y, ship.a)
    table: dict[str, object] | None = memo.get(where)
    if table is None:
        table = memo[where] = {}
    out: list[object] = []
    todo: list[tuple[int, str, int, tuple[int, ...]]] = []
    for o in options:
        hit = table.get(o.key)
        if hit is None:
            value: tuple[int, tuple[int, ...], bool] = o.value  # typed: unpacked without an iterator, compiled
            todo.append((len(out), o.key, value[0], value[1]))
        out.append(hit)
    if todo:
        _place(game, ship, todo, out, table)
    return cast(list[CourseFacts], out)  # every course placed: no None is left


def _place(game: Table, ship: Ship, todo: list[tuple[int, str, int, tuple[int, ...]]], out: list[object],
           table: dict[str, object]) -> None:
    """course_table's work for the courses not in the memo: end poses, footprints, table edges, bumps."""
    sx, sy, sa = ship.x, ship.y, ship.a
    size = size_of(ship)
    ends = maneuvers(sx, sy, sa, size.base[1], [(speed, clicks) for _, _, speed, clicks in todo], game.geo.tool)
    reach = ship_radius(size)
    others: list[tuple[Ship, float, float]] = []  # each other ship, the distance (and its square, polygons.SLACK)
    for o in game.live_ships():  # beyond which its base and this one cannot overlap
        if o is not ship:
            near = reach + ship_radius(size_of(o)) + 1.0
            others.append((o, near, near * near * SLACK))
    width, depth = game.width, game.depth
    for (i, key, speed, _), end in zip(todo, ends):
        x, y, a = end
        fp = footprint(size, x, y, a)
        bump = False
        if speed > 0:
            for o, near, near2 in others:
                # bases whose circumscribed circles are 1 mm apart cannot overlap: skip the polygon test
                dx, dy = o.x - x, o.y - y
                if dx * dx + dy * dy <= near2 and _hypot(dx, dy) <= near and overlaps(fp.base, o.fp.base):
                    bump = True
                    break
        facts: object = (end, fp, on_table(fp, reach, width, depth), bump)  # the end pose's own tuple (not rebuilt)
        out[i] = table[key] = facts  # the same tuple


def on_table(fp: Footprint, reach: float, width: float, depth: float) -> bool:
    """inside_area(fp.base, width, depth) for a base whose corners lie within ``reach`` of its centre: a centre that
    far and a micron inside two opposite edges has every corner's coordinate across them inside (to rounding, 1e-12),
    so only the other coordinate of the corners is worked out (as footprint's base has it), or none."""
    x, y = fp.centre
    across = reach + 1e-6 <= x <= width - reach - 1e-6
    if reach + 1e-6 <= y <= depth - reach - 1e-6:
        if across:
            return True
        c, s = fp.cs
        return all(-EPS <= x + u * c - v * s <= width + EPS for u, v in _of(fp.size).corners)
    if across:
        c, s = fp.cs
        return all(-EPS <= y + u * s + v * c <= depth + EPS for u, v in _of(fp.size).corners)
    return inside_area(fp.base, width, depth)


def dice_cap(ship: Ship, fp: Footprint, enemies: Sequence[Ship], ruler: Ruler) -> int:
    """An upper bound on the dice of the two best zones of arc_dice(ship, fp, enemies, ruler) (their values' two
    largest added), from the centres alone (no footprint's zones or arcs worked out): each zone counts, at each enemy
    that arc_dice measures (the same reach and arc tests), its dice at the band of the nearest its hull zone and the
    enemy's base could be (the discs that hold them, zone_reach and ship_radius, a micron nearer: the measured
    distance between the zone and the base's part in the arc is never shorter). 0: arc_dice has no dice."""
    best = [0, 0, 0, 0]  # by ZONES index
    reach = ruler.long + 140
    reach2 = reach * reach * SLACK
    cx, cy = fp.centre
    arms = ship.arms()
    mine = zone_reach(size_of(ship))
    for e in enemies:
        dx, dy = e.x - cx, e.y - cy
        if dx * dx + dy * dy > reach2:
            continue
        gap = _hypot(dx, dy)
        if gap > reach:
            continue
        size = size_of(e)
        band = range_band(gap - mine - ship_radius(size) - 1e-6, ruler)
        for i, seen in enumerate(arc_tests(fp, ZONES, e.x, e.y, fp_reach(size))):
            if seen >= 0:
                n = len(arms.pools[i][band])
                if n > best[i]:
                    best[i] = n
    best.sort()
    return best[2] + best[3]


def arc_dice(ship: Ship, fp: Footprint, enemies: Sequence[Ship], ruler: Ruler | None = None) -> dict[str, int]:
    """For each hull zone of ``fp`` (a footprint of ``ship``), the most dice it could roll at one enemy ship (the
    zones with none left out)."""
    best = [0, 0, 0, 0]  # by ZONES index (no dictionary read twice per zone and enemy)
    ruler = ruler or geometry().ruler
    reach = ruler.long + 140
    reach2 = reach * reach * SLACK
    cx, cy = fp.centre
    arms = ship.arms()
    for e in enemies:
        dx, dy = e.x - cx, e.y - cy
        if dx * dx + dy * dy > reach2 or _hypot(dx, dy) > reach:
            continue
        tests = arc_tests(fp, ZONES, e.x, e.y, fp_reach(size_of(e)))
        for i, seen in enumerate(tests):
            if arms.totals[i] <= best[i]:
                continue  # even at close range this zone cannot beat what it already has
            if seen < 0:
                continue
            z = ZONES[i]
            arc = fp.arcs[z]
            part = arc_part(e.fp.base, fp, z, seen)
            if part:
                n = len(arms.pools[i][zone_band(fp.zones[z], part, arc[0], ruler)])
                if n > best[i]:
                    best[i] = n
    return {ZONES[i]: n for i, n in enumerate(best) if n}
