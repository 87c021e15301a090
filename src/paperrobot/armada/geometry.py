"""Continuous table geometry in millimetres: a ship's frame, its base, hull zones and firing arcs (Footprint), and
whether a polygon or a disc lies in an arc. Polygons and their measures are in polygons.py, range bands in
ranges.py, the manoeuvre tool in maneuver_tool.py.

Frame: x runs east along the long edge, y north; the Rebel (player) edge is y = 0, the Imperial edge
y = table depth. A ship's heading ``a`` is in radians (0 = east, pi/2 = north). In a ship's own frame
u runs forward and v to the left. Polygons are lists of (x, y) tuples.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Final

from .data import SizeClass
from .polygons import EPS, Point, Poly, cross, half_plane

Arc = tuple[Point, Point, Point]  # apex, ray-point 1, ray-point 2 (the wedge between the rays)
# an arc's two half-planes as clip_to_arc computes them: apex x, y; ray 1 x, y and side; ray 2 x, y and side
Plane = tuple[float, float, float, float, float, float, float, float]
# the same in the ship's own frame, with the two rays' lengths (arc_tests)
LocalPlane = tuple[float, float, float, float, float, float, float, float, float, float]
Pose = tuple[float, float, float]  # x, y, heading
# Final (here and below): compiled, module constants read as statics, not looked up in the module dictionary
ZONES: Final[tuple[str, ...]] = ("front", "left", "right", "rear")
ADJACENT: Final[dict[str, tuple[str, str]]] = {"front": ("left", "right"), "rear": ("left", "right"),
                                               "left": ("front", "rear"), "right": ("front", "rear")}


def to_world(x: float, y: float, a: float, u: float, v: float) -> Point:
    c, s = math.cos(a), math.sin(a)
    return (x + u * c - v * s, y + u * s + v * c)


def to_local(x: float, y: float, a: float, p: Point) -> Point:
    dx, dy = p[0] - x, p[1] - y
    c, s = math.cos(a), math.sin(a)
    return (dx * c + dy * s, -dx * s + dy * c)


class Footprint:
    """A ship's geometry at one position: base, hull zones, arc wedges and targeting points (world), each worked out
    when first read (a course is often judged by its centre alone: well inside the table, far from every ship)."""
    __slots__ = ("_base", "centre", "planes", "size", "cs", "_zones", "_arcs", "_targets", "pairs", "pairs_of",
                 "pairs_uid")
    _base: Poly | None
    centre: Point
    planes: dict[str, Plane] | None
    size: SizeClass
    cs: tuple[float, float]
    _zones: dict[str, Poly] | None
    _arcs: dict[str, Arc] | None
    _targets: dict[str, Point] | None
    # measure.pair_memo's cache of what the ship's zones measure of other units from here: the dictionary, the game's
    # memo it was taken from (game._pairs) and the ship it is of
    pairs: dict[Any, Any] | None
    pairs_of: dict[Any, Any] | None
    pairs_uid: str

    def __init__(self, base: Poly | None, zones: dict[str, Poly] | None, arcs: dict[str, Arc] | None,
                 targets: dict[str, Point] | None, centre: Point, planes: dict[str, Plane] | None,
                 size: SizeClass, cs: tuple[float, float]):
        self._base = base
        self.centre = centre
        self.planes = planes  # per zone, the arc's two half-planes as clip_to_arc computes them (arc_clip)
        self.size, self.cs = size, cs  # the ship's size class; cos and sin of its heading
        self._zones, self._arcs, self._targets = zones, arcs, targets
        self.pairs, self.pairs_of, self.pairs_uid = None, None, ""

    @property
    def base(self) -> Poly:
        base = self._base
        if base is None:
            # to_world(x, y, a, u, v) for every corner, with cos and sin taken once (the same arithmetic)
            (x, y), (c, s) = self.centre, self.cs
            base = self._base = [(x + u * c - v * s, y + u * s + v * c) for u, v in _of(self.size).corners]
        return base

    @property
    def zones(self) -> dict[str, Poly]:
        zones = self._zones
        if zones is None:
            zones = self._fill()
        return zones

    @property
    def arcs(self) -> dict[str, Arc]:
        arcs = self._arcs
        if arcs is None:
            self._fill()
            arcs = self._arcs
            assert arcs is not None
        return arcs

    @property
    def targets(self) -> dict[str, Point]:
        targets = self._targets
        if targets is None:
            # to_world of the four targeting points, as _fill works out the others (a course's footprint, measured
            # for its arcs and zones, never reads them)
            local, (c, s) = _local(self.size), self.cs
            x, y = self.centre
            p: list[Any] = [(x + u * c - v * s, y + u * s + v * c) for u, v in local[13:]]
            targets = self._targets = {"front": p[0], "rear": p[1], "left": p[2], "right": p[3]}
        return targets

    def _fill(self) -> dict[str, Poly]:
        """Work out the hull zones and arcs (both at once); returns the zones."""
        local, (c, s) = _local(self.size), self.cs
        x, y = self.centre
        # to_world(x, y, a, u, v) for every point, with cos and sin taken once (the same arithmetic). The points
        # are typed Any here: compiled, a Point read as such is unboxed and boxed anew at every place it is put
        # (the apex is in seven); as Any each point is one tuple, shared by the zones and arcs
        p: list[Any] = [(x + u * c - v * s, y + u * s + v * c) for u, v in local[4:13]]
        apex, fl, fr, rl, rr = p[0], p[1], p[2], p[3], p[4]
        zones: dict[str, Any] = {
            "front": [p[5], fl, apex, fr, p[6]],
            "left": [fl, rl, apex],
            "right": [fr, apex, rr],
            "rear": [rl, p[7], p[8], rr, apex],
        }
        self._zones = zones
        self._arcs = {"front": (apex, fl, fr), "left": (apex, fl, rl), "right": (apex, fr, rr), "rear": (apex, rl, rr)}
        return zones


class _Size:
    """What is worked out once per size class (a game has a few): the (u, v) of every point of a footprint in the
    order footprint() reads them, the radii of the discs around the centre that hold the base and hull zones
    (fp_reach), the hull zones (zone_reach) and the base (ship_radius), and the arcs' planes in the ship's frame
    (made when first read, _local_planes). Found by _of(size): compiled, its fields are read natively."""

    def __init__(self, size: SizeClass) -> None:
        self.size = size
        bw, bl = size.base
        tw, tl = size.token
        hw, hl = tw / 2, tl / 2
        sx, sy = size.target_side
        local: tuple[Point, ...] = ((bl / 2, bw / 2), (-bl / 2, bw / 2), (-bl / 2, -bw / 2), (bl / 2, -bw / 2),  # 0-3
                 (hl - size.arc_centre, 0.0),  # 4 apex of the arcs
                 (hl - size.front_end, hw), (hl - size.front_end, -hw),  # 5-6 fl, fr
                 (hl - size.rear_end, hw), (hl - size.rear_end, -hw),  # 7-8 rl, rr
                 (hl, hw), (hl, -hw), (-hl, hw), (-hl, -hw),  # 9-12 the token's corners
                 (hl - size.target_front, 0.0), (hl - size.target_rear, 0.0), (hl - sy, sx), (hl - sy, -sx))  # 13-16
        self.local = local
        self.corners = local[:4]  # the base's corners (Footprint.base): no slice made at each read
        self.reach = max(math.hypot(u, v) for u, v in local[:13])
        self.zone_reach = max(math.hypot(u, v) for u, v in local[4:13])
        self.radius = math.hypot(size.base[0] / 2, size.base[1] / 2)
        self.planes: dict[str, LocalPlane] | None = None
        self.sides: dict[str, _Side] | None = None  # the same as objects (_sides)


_SIZES: Final[list[_Size]] = []  # every size class seen, by identity


def _of(size: SizeClass) -> _Size:
    """The _Size of a size class, found by identity among the few seen: no id() boxed and hashed at each read (the
    per-size tables were dictionaries keyed by id(size), read several times per course measured)."""
    for known in _SIZES:
        if known.size is size:
            return known
    if len(_SIZES) > 64:  # bounded: size classes loaded again and again (a geometry file per game)
        _SIZES.clear()
    known = _Size(size)
    _SIZES.append(known)
    return known


def _local(size: SizeClass) -> tuple[Point, ...]:
    """The (u, v) of every point of a footprint, in the order footprint() reads them: worked out once per size."""
    return _of(size).local


def _local_planes(size: SizeClass) -> dict[str, LocalPlane]:
    """_plane's values for each arc in the ship's own frame (for arc_test): worked out once per size."""
    known = _of(size)
    planes = known.planes
    if planes is not None:
        return planes
    planes = {}
    for zone, arc in Footprint(None, None, None, None, (0.0, 0.0), None, size, (1.0, 0.0)).arcs.items():
        (ax, ay), r1, r2 = arc
        mx, my = (r1[0] + r2[0]) / 2, (r1[1] + r2[1]) / 2
        ix, iy = ax + (mx - ax) * 10, ay + (my - ay) * 10
        ux, uy = r1[0] - ax, r1[1] - ay
        vx, vy = r2[0] - ax, r2[1] - ay
        planes[zone] = (ax, ay, ux, uy, 1.0 if ux * (iy - ay) - uy * (ix - ax) >= 0 else -1.0,
                        vx, vy, 1.0 if vx * (iy - ay) - vy * (ix - ax) >= 0 else -1.0,
                        math.hypot(ux, uy), math.hypot(vx, vy))
    known.planes = planes
    return planes


def fp_reach(size: SizeClass) -> float:
    """The radius of a disc around a ship's centre that holds its base and hull zones (for arc_test)."""
    return _of(size).reach


def zone_reach(size: SizeClass) -> float:
    """The radius of a disc around a ship's centre that holds its hull zones (the token's points; the base may reach
    further): the nearest two ships' hull zones can be is their centres' distance less both (for dice bounds)."""
    return _of(size).zone_reach


def ship_radius(size: SizeClass) -> float:
    """The radius of the circle around a base (centre to corner): worked out once per size (hashing its base's two
    floats at every call was a measurable cost)."""
    return _of(size).radius


def footprint(size: SizeClass, x: float, y: float, a: float) -> Footprint:
    return Footprint(None, None, None, None, (x, y), None, size, (math.cos(a), math.sin(a)))


def clip_to_arc(poly: Poly, arc: Arc) -> Poly:
    """The part of ``poly`` inside an arc wedge (arcs are infinite and include their lines)."""
    apex, r1, r2 = arc
    ax, ay = apex
    mx, my = (r1[0] + r2[0]) / 2, (r1[1] + r2[1]) / 2
    # a point well inside the wedge, on its bisector
    ix, iy = ax + (mx - ax) * 10, ay + (my - ay) * 10
    ux, uy = r1[0] - ax, r1[1] - ay
    out = half_plane(poly, ax, ay, ux, uy, 1.0 if ux * (iy - ay) - uy * (ix - ax) >= 0 else -1.0)
    if out:
        ux, uy = r2[0] - ax, r2[1] - ay
        out = half_plane(out, ax, ay, ux, uy, 1.0 if ux * (iy - ay) - uy * (ix - ax) >= 0 else -1.0)
    return out


def _plane(fp: Footprint, zone: str) -> Plane:
    """The two half-planes of an arc as clip_to_arc computes them (once per footprint)."""
    planes = fp.planes
    if planes is None:
        planes = fp.planes = {}
    plane = planes.get(zone)
    if plane is None:
        apex, r1, r2 = fp.arcs[zone]
        ax, ay = apex
        mx, my = (r1[0] + r2[0]) / 2, (r1[1] + r2[1]) / 2
        ix, iy = ax + (mx - ax) * 10, ay + (my - ay) * 10
        ux, uy = r1[0] - ax, r1[1] - ay
        vx, vy = r2[0] - ax, r2[1] - ay
        plane = planes[zone] = (ax, ay, ux, uy, 1.0 if ux * (iy - ay) - uy * (ix - ax) >= 0 else -1.0,
                                vx, vy, 1.0 if vx * (iy - ay) - vy * (ix - ax) >= 0 else -1.0)
    return plane


def arc_clip(poly: Poly, fp: Footprint, zone: str) -> Poly:
    """clip_to_arc(poly, fp.arcs[zone]), with the arc's half-planes worked out once per footprint (same arithmetic)."""
    planes = fp.planes
    plane = planes.get(zone) if planes else None
    ax, ay, ux, uy, side1, vx, vy, side2 = plane or _plane(fp, zone)
    out = half_plane(poly, ax, ay, ux, uy, side1)
    if out:
        out = half_plane(out, ax, ay, vx, vy, side2)
    return out


def arc_test(fp: Footprint, zone: str, cx: float, cy: float, r: float) -> int:
    """Where the disc (cx, cy, r) lies against an arc, two microns clear: -1 wholly outside one of its two half-planes
    (then arc_clip of any polygon inside the disc is empty: each vertex's test value in half_plane, the ray's length times
    its signed distance from the ray's line, is below -EPS by far more than rounding), 1 wholly inside both (then
    arc_clip keeps such a polygon whole, vertex for vertex), 0 neither (clip it). Measured in the ship's own frame
    (the disc's centre turned into it), so the arc's world points are not needed: the frames differ by rounding
    (1e-10 of these values), far inside the two microns."""
    x, y = fp.centre
    c, s = fp.cs
    dx, dy = cx - x, cy - y
    return _arc_side(_sides(fp.size)[zone], dx * c + dy * s, -dx * s + dy * c, r)


def arc_tests(fp: Footprint, zones: Sequence[str], cx: float, cy: float, r: float) -> list[int]:
    """[arc_test(fp, zone, cx, cy, r) for zone in zones], the disc's centre turned into the ship's frame once."""
    x, y = fp.centre
    c, s = fp.cs
    dx, dy = cx - x, cy - y
    cx, cy = dx * c + dy * s, -dx * s + dy * c
    sides = _sides(fp.size)
    return [_arc_side(sides[zone], cx, cy, r) for zone in zones]


class _Side:
    """An arc's LocalPlane (_local_planes) as fields: compiled, read as unboxed floats (the tuple's ten floats were
    unboxed at every arc test)."""
    __slots__ = ("ax", "ay", "ux", "uy", "side1", "vx", "vy", "side2", "lu", "lv")
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

    def __init__(self, plane: LocalPlane) -> None:
        self.ax, self.ay, self.ux, self.uy, self.side1, self.vx, self.vy, self.side2, self.lu, self.lv = plane


def _sides(size: SizeClass) -> dict[str, _Side]:
    """_local_planes(size) as _Side objects (made once per size)."""
    known = _of(size)
    sides = known.sides
    if sides is None:
        sides = known.sides = {zone: _Side(plane) for zone, plane in _local_planes(size).items()}
    return sides


def _arc_side(plane: _Side, cx: float, cy: float, r: float) -> int:
    """arc_test of the disc (cx, cy, r), its centre in the ship's frame, against one arc's planes there."""
    ax, ay, ux, uy, side1 = plane.ax, plane.ay, plane.ux, plane.uy, plane.side1
    vx, vy, side2, lu, lv = plane.vx, plane.vy, plane.side2, plane.lu, plane.lv
    d1 = side1 * (ux * (cy - ay) - uy * (cx - ax))
    if d1 + r * lu < -2e-6 * lu - EPS:
        return -1
    d2 = side2 * (vx * (cy - ay) - vy * (cx - ax))
    if d2 + r * lv < -2e-6 * lv - EPS:
        return -1
    return 1 if d1 - r * lu > 2e-6 * lu and d2 - r * lv > 2e-6 * lv else 0


def arc_part(poly: Poly, fp: Footprint, zone: str, seen: int) -> Poly:
    """arc_clip(poly, fp, zone) for a polygon inside a disc whose arc_test gave ``seen`` (the polygon itself when the
    disc is wholly in the arc: read it, never change it)."""
    if seen > 0:
        return poly
    if seen < 0:
        return []
    return arc_clip(poly, fp, zone)


def in_arc(poly: Poly, arc: Arc) -> bool:
    return bool(clip_to_arc(poly, arc))


def point_in_arc(p: Point, arc: Arc) -> bool:
    apex, r1, r2 = arc
    mid = ((r1[0] + r2[0]) / 2, (r1[1] + r2[1]) / 2)
    inside = (apex[0] + (mid[0] - apex[0]) * 10, apex[1] + (mid[1] - apex[1]) * 10)
    s1 = cross(apex, r1, inside) * cross(apex, r1, p)
    s2 = cross(apex, r2, inside) * cross(apex, r2, p)
    return s1 >= -EPS and s2 >= -EPS
