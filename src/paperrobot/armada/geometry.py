"""Continuous table geometry in millimetres: ship bases, hull zones, firing arcs, ranges, line of sight.

Frame: x runs east along the long edge, y north; the Rebel (player) edge is y = 0, the Imperial edge
y = table depth. A ship's heading ``a`` is in radians (0 = east, pi/2 = north). In a ship's own frame
u runs forward and v to the left. Polygons are lists of (x, y) tuples.
"""
from __future__ import annotations

import math
from .data import SizeClass, geometry

Point = tuple[float, float]
Poly = list[Point]
ZONES = ("front", "left", "right", "rear")
ADJACENT = {"front": ("left", "right"), "rear": ("left", "right"), "left": ("front", "rear"),
            "right": ("front", "rear")}
EPS = 1e-6


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
    __slots__ = ("_base", "centre", "planes", "size", "cs", "_zones", "_arcs", "_targets")

    def __init__(self, base: Poly | None, zones: dict[str, Poly] | None, arcs: dict | None,
                 targets: dict[str, Point] | None, centre: Point, planes: dict | None = None,
                 size: SizeClass | None = None, cs: tuple[float, float] = (1.0, 0.0)):
        self._base = base
        self.centre = centre
        self.planes = planes  # per zone, the arc's two half-planes as clip_to_arc computes them (arc_clip)
        self.size, self.cs = size, cs  # the ship's size class; cos and sin of its heading
        self._zones, self._arcs, self._targets = zones, arcs, targets

    @property
    def base(self) -> Poly:
        base = self._base
        if base is None:
            # to_world(x, y, a, u, v) for every corner, with cos and sin taken once (the same arithmetic)
            (x, y), (c, s) = self.centre, self.cs
            base = self._base = [(x + u * c - v * s, y + u * s + v * c) for u, v in _local(self.size)[:4]]
        return base

    @property
    def zones(self) -> dict[str, Poly]:
        if self._zones is None:
            self._fill()
        return self._zones

    @property
    def arcs(self) -> dict[str, tuple[Point, Point, Point]]:  # apex, ray-point 1, ray-point 2 (wedge between the rays)
        if self._arcs is None:
            self._fill()
        return self._arcs

    @property
    def targets(self) -> dict[str, Point]:
        if self._targets is None:
            self._fill()
        return self._targets

    def _fill(self) -> None:
        local, (c, s) = _local(self.size), self.cs
        x, y = self.centre
        # to_world(x, y, a, u, v) for every point, with cos and sin taken once (the same arithmetic)
        p = [(x + u * c - v * s, y + u * s + v * c) for u, v in local[4:]]
        apex, fl, fr, rl, rr = p[0], p[1], p[2], p[3], p[4]
        self._zones = {
            "front": [p[5], fl, apex, fr, p[6]],
            "left": [fl, rl, apex],
            "right": [fr, apex, rr],
            "rear": [rl, p[7], p[8], rr, apex],
        }
        self._arcs = {"front": (apex, fl, fr), "left": (apex, fl, rl), "right": (apex, fr, rr), "rear": (apex, rl, rr)}
        self._targets = {"front": p[9], "rear": p[10], "left": p[11], "right": p[12]}


_LOCAL: dict[int, tuple] = {}  # id(size) -> (size, its footprint's points in the ship's frame)


def _local(size: SizeClass) -> tuple[tuple[float, float], ...]:
    """The (u, v) of every point of a footprint, in the order footprint() reads them: worked out once per size."""
    hit = _LOCAL.get(id(size))
    if hit is not None and hit[0] is size:
        return hit[1]
    bw, bl = size.base
    tw, tl = size.token
    hw, hl = tw / 2, tl / 2
    sx, sy = size.target_side
    local = ((bl / 2, bw / 2), (-bl / 2, bw / 2), (-bl / 2, -bw / 2), (bl / 2, -bw / 2),  # 0-3 base
             (hl - size.arc_centre, 0.0),  # 4 apex of the arcs
             (hl - size.front_end, hw), (hl - size.front_end, -hw),  # 5-6 fl, fr
             (hl - size.rear_end, hw), (hl - size.rear_end, -hw),  # 7-8 rl, rr
             (hl, hw), (hl, -hw), (-hl, hw), (-hl, -hw),  # 9-12 the token's corners
             (hl - size.target_front, 0.0), (hl - size.target_rear, 0.0), (hl - sy, sx), (hl - sy, -sx))  # 13-16
    _LOCAL[id(size)] = (size, local)
    return local


_PLANES: dict[int, tuple] = {}


def _local_planes(size: SizeClass) -> dict[str, tuple]:
    """_plane's values for each arc in the ship's own frame (for arc_test): worked out once per size."""
    hit = _PLANES.get(id(size))
    if hit is not None and hit[0] is size:
        return hit[1]
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
    _PLANES[id(size)] = (size, planes)
    return planes


_REACH: dict[int, tuple] = {}


def fp_reach(size: SizeClass) -> float:
    """The radius of a disc around a ship's centre that holds its base and hull zones (for arc_test)."""
    hit = _REACH.get(id(size))
    if hit is None or hit[0] is not size:
        hit = _REACH[id(size)] = (size, max(math.hypot(u, v) for u, v in _local(size)[:13]))
    return hit[1]


_ZONE_REACH: dict[int, tuple] = {}


def zone_reach(size: SizeClass) -> float:
    """The radius of a disc around a ship's centre that holds its hull zones (the token's points; the base may reach
    further): the nearest two ships' hull zones can be is their centres' distance less both (for dice bounds)."""
    hit = _ZONE_REACH.get(id(size))
    if hit is None or hit[0] is not size:
        hit = _ZONE_REACH[id(size)] = (size, max(math.hypot(u, v) for u, v in _local(size)[4:13]))
    return hit[1]


def footprint(size: SizeClass, x: float, y: float, a: float) -> Footprint:
    return Footprint(None, None, None, None, (x, y), None, size, (math.cos(a), math.sin(a)))


_UNIT: dict[int, tuple[tuple[float, float], ...]] = {}


def circle(x: float, y: float, r: float, n: int = 12) -> Poly:
    """A squadron base as a polygon circumscribing the circle (so 'any part' tests are not missed)."""
    k = r / math.cos(math.pi / n)
    unit = _UNIT.get(n)
    if unit is None:  # cos and sin of the n directions (the same values each time: computed once)
        unit = _UNIT[n] = tuple((math.cos(2 * math.pi * i / n), math.sin(2 * math.pi * i / n)) for i in range(n))
    return [(x + k * cu, y + k * su) for cu, su in unit]


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _clip(poly: Poly, p: Point, q: Point, keep: Point) -> Poly:
    """Keep the part of ``poly`` on the side of line p-q where ``keep`` lies (the line itself included)."""
    side = 1.0 if _cross(p, q, keep) >= 0 else -1.0
    return _half(poly, p[0], p[1], q[0] - p[0], q[1] - p[1], side)


def _half(poly: Poly, px: float, py: float, ux: float, uy: float, side: float) -> Poly:
    """_clip's work: ``side`` * _cross(p, p + u, v) >= -EPS keeps a vertex v (inlined, same arithmetic: a hot path)."""
    ds = [side * (ux * (vy - py) - uy * (vx - px)) for vx, vy in poly]
    # nothing kept, or everything kept (then the polygon itself, vertex for vertex, as the loop below gives)
    if max(ds) < -EPS:
        return []
    if min(ds) >= -EPS:
        return list(poly)
    out: Poly = []
    n = len(poly)
    for i in range(n):
        j = i + 1 if i + 1 < n else 0
        a, da, db = poly[i], ds[i], ds[j]
        if da >= -EPS:
            out.append(a)
        if (da >= -EPS) != (db >= -EPS):
            b = poly[j]
            t = da / (da - db)
            out.append((a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])))
    return out


def clip_to_arc(poly: Poly, arc: tuple[Point, Point, Point]) -> Poly:
    """The part of ``poly`` inside an arc wedge (arcs are infinite and include their lines)."""
    apex, r1, r2 = arc
    ax, ay = apex
    mx, my = (r1[0] + r2[0]) / 2, (r1[1] + r2[1]) / 2
    # a point well inside the wedge, on its bisector
    ix, iy = ax + (mx - ax) * 10, ay + (my - ay) * 10
    ux, uy = r1[0] - ax, r1[1] - ay
    out = _half(poly, ax, ay, ux, uy, 1.0 if ux * (iy - ay) - uy * (ix - ax) >= 0 else -1.0)
    if out:
        ux, uy = r2[0] - ax, r2[1] - ay
        out = _half(out, ax, ay, ux, uy, 1.0 if ux * (iy - ay) - uy * (ix - ax) >= 0 else -1.0)
    return out


def _plane(fp: Footprint, zone: str) -> tuple:
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
    out = _half(poly, ax, ay, ux, uy, side1)
    if out:
        out = _half(out, ax, ay, vx, vy, side2)
    return out


def arc_test(fp: Footprint, zone: str, cx: float, cy: float, r: float) -> int:
    """Where the disc (cx, cy, r) lies against an arc, two microns clear: -1 wholly outside one of its two half-planes
    (then arc_clip of any polygon inside the disc is empty: each vertex's test value in _half, the ray's length times
    its signed distance from the ray's line, is below -EPS by far more than rounding), 1 wholly inside both (then
    arc_clip keeps such a polygon whole, vertex for vertex), 0 neither (clip it). Measured in the ship's own frame
    (the disc's centre turned into it), so the arc's world points are not needed: the frames differ by rounding
    (1e-10 of these values), far inside the two microns."""
    return arc_tests(fp, (zone,), cx, cy, r)[0]


def arc_tests(fp: Footprint, zones, cx: float, cy: float, r: float) -> list[int]:
    """[arc_test(fp, zone, cx, cy, r) for zone in zones], the disc's centre turned into the ship's frame once."""
    x, y = fp.centre
    c, s = fp.cs
    dx, dy = cx - x, cy - y
    cx, cy = dx * c + dy * s, -dx * s + dy * c
    planes = _local_planes(fp.size)
    out = []
    for zone in zones:
        ax, ay, ux, uy, side1, vx, vy, side2, lu, lv = planes[zone]
        d1 = side1 * (ux * (cy - ay) - uy * (cx - ax))
        if d1 + r * lu < -2e-6 * lu - EPS:
            out.append(-1)
            continue
        d2 = side2 * (vx * (cy - ay) - vy * (cx - ax))
        if d2 + r * lv < -2e-6 * lv - EPS:
            out.append(-1)
            continue
        out.append(1 if d1 - r * lu > 2e-6 * lu and d2 - r * lv > 2e-6 * lv else 0)
    return out


def arc_part(poly: Poly, fp: Footprint, zone: str, seen: int) -> Poly:
    """arc_clip(poly, fp, zone) for a polygon inside a disc whose arc_test gave ``seen`` (the polygon itself when the
    disc is wholly in the arc: read it, never change it)."""
    if seen > 0:
        return poly
    if seen < 0:
        return []
    return arc_clip(poly, fp, zone)


def in_arc(poly: Poly, arc) -> bool:
    return bool(clip_to_arc(poly, arc))


def point_in_arc(p: Point, arc) -> bool:
    apex, r1, r2 = arc
    mid = ((r1[0] + r2[0]) / 2, (r1[1] + r2[1]) / 2)
    inside = (apex[0] + (mid[0] - apex[0]) * 10, apex[1] + (mid[1] - apex[1]) * 10)
    s1 = _cross(apex, r1, inside) * _cross(apex, r1, p)
    s2 = _cross(apex, r2, inside) * _cross(apex, r2, p)
    return s1 >= -EPS and s2 >= -EPS


def segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    d1, d2 = _cross(c, d, a), _cross(c, d, b)
    d3, d4 = _cross(a, b, c), _cross(a, b, d)
    return ((d1 > EPS and d2 < -EPS) or (d1 < -EPS and d2 > EPS)) and \
           ((d3 > EPS and d4 < -EPS) or (d3 < -EPS and d4 > EPS))


def _any_cross(p: Poly, q: Poly) -> bool:
    """Does any edge of p cross any edge of q (segments_cross, inlined with the same arithmetic: a hot path)?"""
    for i in range(len(p)):
        ax, ay = p[i - 1]
        bx, by = p[i]
        ex, ey = bx - ax, by - ay
        for j in range(len(q)):
            cx, cy = q[j - 1]
            dx, dy = q[j]
            fx, fy = dx - cx, dy - cy
            # d1, d2 = _cross(c, d, a), _cross(c, d, b)
            d1 = fx * (ay - cy) - fy * (ax - cx)
            d2 = fx * (by - cy) - fy * (bx - cx)
            if not ((d1 > EPS and d2 < -EPS) or (d1 < -EPS and d2 > EPS)):
                continue
            # d3, d4 = _cross(a, b, c), _cross(a, b, d)
            d3 = ex * (cy - ay) - ey * (cx - ax)
            d4 = ex * (dy - ay) - ey * (dx - ax)
            if (d3 > EPS and d4 < -EPS) or (d3 < -EPS and d4 > EPS):
                return True
    return False


def point_in_poly(p: Point, poly: Poly) -> bool:
    inside = False
    x0, y0 = p
    for i in range(len(poly)):
        ax, ay = poly[i - 1]  # the edges (poly[i - 1], poly[i]): every edge once, in its own direction
        bx, by = poly[i]
        if (ay > y0) != (by > y0):
            x = ax + (y0 - ay) * (bx - ax) / (by - ay)
            if x > x0:
                inside = not inside
    return inside


def _apart(p: Poly, q: Poly) -> bool:
    """True when the bounding boxes do not meet (then the polygons cannot cross or overlap)."""
    px, py = zip(*p)
    qx, qy = zip(*q)
    if max(px) < min(qx) or max(qx) < min(px):
        return True
    return max(py) < min(qy) or max(qy) < min(py)


def _edges_to_points(p: Poly, q: Poly, best: float) -> float:
    """Smallest squared distance from the points of q to the edges of p (inlined: a hot path)."""
    for i in range(len(p)):
        ax, ay = p[i - 1]  # the edges (p[i - 1], p[i]): every edge once, in its own direction
        bx, by = p[i]
        dx, dy = bx - ax, by - ay
        L = dx * dx + dy * dy
        for px, py in q:
            ex, ey = px - ax, py - ay
            t = (ex * dx + ey * dy) / L if L else 0.0
            if t < 0.0:
                t = 0.0
            elif t > 1.0:
                t = 1.0
            fx, fy = ex - t * dx, ey - t * dy
            d = fx * fx + fy * fy
            if d < best:
                best = d
    return best


def poly_distance(p: Poly, q: Poly) -> float:
    """Closest distance between two polygons (0 when they touch or overlap)."""
    if not p or not q:
        return math.inf
    px, py = zip(*p)
    qx, qy = zip(*q)
    # _apart(p, q), on the coordinates taken apart once
    if not (max(px) < min(qx) or max(qx) < min(px) or max(py) < min(qy) or max(qy) < min(py)):
        if _any_cross(p, q):
            return 0.0
        if point_in_poly(p[0], q) or point_in_poly(q[0], p):
            return 0.0
    return math.sqrt(_edges_to_points(q, p, _edges_to_points(p, q, math.inf)))


def overlaps(p: Poly, q: Poly) -> bool:
    """True when the polygons share area (touching edges do not count)."""
    if _apart(p, q):
        return False
    if _any_cross(p, q):
        return True
    n, m = len(p), len(q)
    cp = (sum(x for x, _ in p) / n, sum(y for _, y in p) / n)
    cq = (sum(x for x, _ in q) / m, sum(y for _, y in q) / m)
    return point_in_poly(cp, q) or point_in_poly(cq, p)


def segment_hits_poly(a: Point, b: Point, poly: Poly) -> bool:
    """Does the segment a-b pass through the polygon's interior or cross its edges?"""
    ax, ay = a
    bx, by = b
    xs, ys = zip(*poly)
    # _apart([a, b], poly), without building the segment's lists
    lo, hi = (ax, bx) if ax <= bx else (bx, ax)
    if hi < min(xs) or max(xs) < lo:
        return False
    lo, hi = (ay, by) if ay <= by else (by, ay)
    if hi < min(ys) or max(ys) < lo:
        return False
    ex, ey = bx - ax, by - ay
    for j in range(len(poly)):  # segments_cross(a, b, poly[j - 1], poly[j]), inlined with the same arithmetic
        cx, cy = poly[j - 1]
        dx, dy = poly[j]
        fx, fy = dx - cx, dy - cy
        d1 = fx * (ay - cy) - fy * (ax - cx)
        d2 = fx * (by - cy) - fy * (bx - cx)
        if not ((d1 > EPS and d2 < -EPS) or (d1 < -EPS and d2 > EPS)):
            continue
        d3 = ex * (cy - ay) - ey * (cx - ax)
        d4 = ex * (dy - ay) - ey * (dx - ax)
        if (d3 > EPS and d4 < -EPS) or (d3 < -EPS and d4 > EPS):
            return True
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    return point_in_poly(mid, poly)


def closest_point(p: Point, poly: Poly) -> Point:
    best, out = math.inf, poly[0]
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        dx, dy = b[0] - a[0], b[1] - a[1]
        L = dx * dx + dy * dy
        t = 0.0 if L == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / L))
        c = (a[0] + t * dx, a[1] + t * dy)
        d = math.hypot(c[0] - p[0], c[1] - p[1])
        if d < best:
            best, out = d, c
    return out


def range_band(mm: float, ruler=None) -> str | None:
    """'close', 'medium', 'long' or None (extreme). A line between bands belongs to the closer band.
    ``ruler``: the game's range ruler (default: the package's)."""
    r = ruler or geometry().ruler
    if mm <= r.close:
        return "close"
    if mm <= r.medium:
        return "medium"
    if mm <= r.long:
        return "long"
    return None


def _gap_bounds(zone: Poly, part: Poly, near: float) -> tuple[float, float]:
    """Bounds lo <= poly_distance(zone, part) <= hi, cheaply (a few dot products instead of every edge against
    every vertex). ``near``: the squared distance between some vertex of ``zone`` and some vertex of ``part``.
    hi: the shortest distance between two vertices (points of both polygons) found among ``near`` and the zone's
    vertex nearest the part's centre against each vertex of the part; lo: the gap between the two polygons'
    shadows on the line from that vertex to the part's centre (a projection never lengthens a distance). Both
    are within 1e-9 mm of the exact values: callers widen them by a micron."""
    n = len(part)
    px = py = 0.0
    for x, y in part:
        px += x
        py += y
    px /= n
    py /= n
    best, vx, vy = math.inf, 0.0, 0.0
    for x, y in zone:
        d = (x - px) * (x - px) + (y - py) * (y - py)
        if d < best:
            best, vx, vy = d, x, y
    for x, y in part:
        d = (x - vx) * (x - vx) + (y - vy) * (y - vy)
        if d < near:
            near = d
    length = math.sqrt(best)
    if length == 0.0:
        return -math.inf, math.sqrt(near)
    ux, uy = (px - vx) / length, (py - vy) / length
    lo = min([x * ux + y * uy for x, y in part]) - max([x * ux + y * uy for x, y in zone])
    return lo, math.sqrt(near)


def zone_band(zone: Poly, part: Poly, apex: Point, ruler) -> str | None:
    """range_band(poly_distance(zone, part), ruler), for a hull zone whose vertices include ``apex`` (the apex of
    its arc: every hull zone's does). When a vertex of ``part`` lies within close range of the apex less a micron,
    the distance is close range whatever the rounding, and the polygon distance is not needed; nor is it when the
    cheap bounds of _gap_bounds, a micron wider, fall in one band (the band of the exact distance, which lies
    between them)."""
    ax, ay = apex
    near = min([(vx - ax) * (vx - ax) + (vy - ay) * (vy - ay) for vx, vy in part])
    reach = ruler.close - 1e-6
    if near <= reach * reach:
        return "close"
    lo, hi = _gap_bounds(zone, part, near)
    band = range_band(hi + 1e-6, ruler)
    if band == range_band(lo - 1e-6, ruler):
        return band
    return range_band(poly_distance(zone, part), ruler)


def within(zone: Poly, part: Poly, apex: Point, limit: float) -> bool:
    """poly_distance(zone, part) <= limit, for a hull zone whose vertices include ``apex`` (see zone_band)."""
    ax, ay = apex
    near = min([(vx - ax) * (vx - ax) + (vy - ay) * (vy - ay) for vx, vy in part])
    reach = limit - 1e-6
    if near <= reach * reach:
        return True
    lo, hi = _gap_bounds(zone, part, near)
    if hi <= reach:
        return True
    if lo > limit + 1e-6:
        return False
    return poly_distance(zone, part) <= limit


def poly_within(p: Poly, q: Poly, limit: float) -> bool:
    """poly_distance(p, q) <= limit, measured exactly only where the cheap bounds of _gap_bounds, a micron wider,
    leave it open."""
    lo, hi = _gap_bounds(p, q, math.inf)
    if hi <= limit - 1e-6:
        return True
    if lo > limit + 1e-6:
        return False
    return poly_distance(p, q) <= limit


def distance_band(mm: float) -> int | None:
    """Distance 1..5, or None beyond distance 5."""
    for band, end in enumerate(geometry().ruler.distance, 1):
        if mm <= end:
            return band
    return None


def distance_end(band: int) -> float:
    return geometry().ruler.distance[band - 1]


def maneuver(x: float, y: float, a: float, length: float, speed: int, clicks: tuple[int, ...],
             tool=None) -> tuple[float, float, float]:
    """Where a ship's centre and heading end after a maneuver (clicks per joint, + = to port/left).

    Model (reference/armada.md (b), AlphArmada): the tool starts at the front of the base; each speed
    adds a long segment on the current heading and a short one after the joint's yaw; the ship's
    front ends at the last joint. The tool's sideways offset is ignored (docs/armada.md 'Movement').
    """
    t = tool or geometry().tool
    fx, fy = x + math.cos(a) * length / 2, y + math.sin(a) * length / 2
    h = a
    step = math.radians(t.click_degrees)
    for joint in range(speed):
        fx += math.cos(h) * t.long_segment
        fy += math.sin(h) * t.long_segment
        h += clicks[joint] * step
        fx += math.cos(h) * t.short_segment
        fy += math.sin(h) * t.short_segment
    if speed == 0:
        return x, y, a
    # the front has moved one segment length per speed; the centre sits half a base behind it
    return fx - math.cos(h) * length / 2, fy - math.sin(h) * length / 2, h


def maneuvers(x: float, y: float, a: float, length: float, moves, tool=None) -> list[tuple[float, float, float]]:
    """[maneuver(x, y, a, length, speed, clicks, tool) for speed, clicks in moves], with the same arithmetic: the
    front's place and heading after each joint are worked out once for all courses that share the joints before."""
    t = tool or geometry().tool
    long_s, short_s = t.long_segment, t.short_segment
    step = math.radians(t.click_degrees)
    after: dict[tuple, tuple[float, float, float]] = {(): (x + math.cos(a) * length / 2, y + math.sin(a) * length / 2, a)}
    out = []
    for speed, clicks in moves:
        if speed == 0:
            out.append((x, y, a))
            continue
        done = clicks[:speed]
        state = after.get(done)
        if state is None:
            j = speed - 1
            while clicks[:j] not in after:
                j -= 1
            fx, fy, h = after[clicks[:j]]
            for joint in range(j, speed):
                fx += math.cos(h) * long_s
                fy += math.sin(h) * long_s
                h += clicks[joint] * step
                fx += math.cos(h) * short_s
                fy += math.sin(h) * short_s
                after[clicks[:joint + 1]] = (fx, fy, h)
            state = (fx, fy, h)
        fx, fy, h = state
        out.append((fx - math.cos(h) * length / 2, fy - math.sin(h) * length / 2, h))
    return out


def inside_area(poly: Poly, width: float, depth: float) -> bool:
    return all(-EPS <= px <= width + EPS and -EPS <= py <= depth + EPS for px, py in poly)
