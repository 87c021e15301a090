"""Polygons on the table, in millimetres: the point and polygon types, squadron bases as polygons, and the plain
measures between polygons and segments (crossing, containment, overlap, distance, the closest point). Polygons
are lists of (x, y) tuples. Several tests are inlined with the same arithmetic as the plain ones: hot paths.
"""
from __future__ import annotations

import math
from typing import Final

# math functions as constants (Final): compiled, called without looking them up in the math module each time
_hypot: Final = math.hypot

Point = tuple[float, float]
Poly = list[Point]
EPS: Final = 1e-6  # Final: compiled, a constant (not a module dictionary lookup in every inner loop)
# dx² + dy² > limit² x SLACK puts hypot(dx, dy) above the limit whatever the rounding (each is within a few units of
# 1e-16 of its value): callers skip the exact distance (math.hypot's call is a measurable cost) for offsets plainly
# beyond a limit, and compare it as before otherwise (NaN aside: no coordinate is NaN)
SLACK: Final = 1.000000004

_UNIT: Final[dict[int, tuple[tuple[float, float], ...]]] = {}


def circle(x: float, y: float, r: float, n: int = 12) -> Poly:
    """A squadron base as a polygon circumscribing the circle (so 'any part' tests are not missed)."""
    k = r / math.cos(math.pi / n)
    unit = _UNIT.get(n)
    if unit is None:  # cos and sin of the n directions (the same values each time: computed once)
        unit = _UNIT[n] = tuple((math.cos(2 * math.pi * i / n), math.sin(2 * math.pi * i / n)) for i in range(n))
    return [(x + k * cu, y + k * su) for cu, su in unit]


def cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def half_plane(poly: Poly, px: float, py: float, ux: float, uy: float, side: float) -> Poly:
    """The part of ``poly`` on one side of the line through (px, py) along (ux, uy), the line included: ``side`` *
    cross(p, p + u, v) >= -EPS keeps a vertex v (inlined, same arithmetic: a hot path)."""
    # nothing kept, or everything kept (then the polygon itself, vertex for vertex, as the loop below gives): the
    # greatest and least test values found in one pass, with no list built (most calls end here)
    hi, lo = -math.inf, math.inf
    for vx, vy in poly:
        d = side * (ux * (vy - py) - uy * (vx - px))
        if d > hi:
            hi = d
        if d < lo:
            lo = d
    if hi < -EPS:
        return []
    if lo >= -EPS:
        return list(poly)
    ds = [side * (ux * (vy - py) - uy * (vx - px)) for vx, vy in poly]
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


def segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    d1, d2 = cross(c, d, a), cross(c, d, b)
    d3, d4 = cross(a, b, c), cross(a, b, d)
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
            # d1, d2 = cross(c, d, a), cross(c, d, b)
            d1 = fx * (ay - cy) - fy * (ax - cx)
            d2 = fx * (by - cy) - fy * (bx - cx)
            if not ((d1 > EPS and d2 < -EPS) or (d1 < -EPS and d2 > EPS)):
                continue
            # d3, d4 = cross(a, b, c), cross(a, b, d)
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


def _box(p: Poly) -> tuple[float, float, float, float]:
    """(min x, max x, min y, max y) of a polygon's vertices: the values min() and max() of its coordinates give, in
    one pass with no list built (compiled, the four floats come back unboxed; a hot path)."""
    xlo, ylo = p[0]
    xhi, yhi = xlo, ylo
    for x, y in p:
        if x < xlo:
            xlo = x
        elif x > xhi:
            xhi = x
        if y < ylo:
            ylo = y
        elif y > yhi:
            yhi = y
    return xlo, xhi, ylo, yhi


def _apart(p: Poly, q: Poly) -> bool:
    """True when the bounding boxes do not meet (then the polygons cannot cross or overlap)."""
    pxlo, pxhi, pylo, pyhi = _box(p)
    qxlo, qxhi, qylo, qyhi = _box(q)
    if pxhi < qxlo or qxhi < pxlo:
        return True
    return pyhi < qylo or qyhi < pylo


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
    if not _apart(p, q):
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
    xlo, xhi, ylo, yhi = _box(poly)
    # _apart([a, b], poly), without building the segment's lists
    lo, hi = (ax, bx) if ax <= bx else (bx, ax)
    if hi < xlo or xhi < lo:
        return False
    lo, hi = (ay, by) if ay <= by else (by, ay)
    if hi < ylo or yhi < lo:
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


def near_disc(ax: float, ay: float, ex: float, ey: float, length: float, cx: float, cy: float, r: float) -> bool:
    """Whether the segment from (ax, ay) along (ex, ey) (``length``: its squared length) passes within a micron of
    the disc (cx, cy, r)."""
    t = ((cx - ax) * ex + (cy - ay) * ey) / length if length else 0.0
    t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
    dx, dy = ax + t * ex - cx, ay + t * ey - cy
    reach = r + 1e-6
    return dx * dx + dy * dy <= reach * reach


def closest_point(p: Point, poly: Poly) -> Point:
    best, out = math.inf, poly[0]
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        dx, dy = b[0] - a[0], b[1] - a[1]
        L = dx * dx + dy * dy
        t = 0.0 if L == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / L))
        c = (a[0] + t * dx, a[1] + t * dy)
        d = _hypot(c[0] - p[0], c[1] - p[1])
        if d < best:
            best, out = d, c
    return out


def inside_area(poly: Poly, width: float, depth: float) -> bool:
    return all(-EPS <= px <= width + EPS and -EPS <= py <= depth + EPS for px, py in poly)
