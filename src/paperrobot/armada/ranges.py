"""Ranges on the table: the range bands (close, medium, long) and distances 1-5 of the rules' rulers, and whether
two polygons lie within a distance, measured exactly only where cheap bounds leave it open (hot paths).
"""
from __future__ import annotations

import math
from typing import Final

from .data import Ruler, geometry
from .polygons import Point, Poly, poly_distance


class _Ends:
    """A ruler's range bands' ends, read from the ruler (a pydantic model: each attribute read is looked up by name)
    once, as floats (compiled: fields read natively)."""

    def __init__(self, ruler: Ruler) -> None:
        self.ruler = ruler
        self.close, self.medium, self.long = ruler.close, ruler.medium, ruler.long


_LAST: Final[list[_Ends]] = []  # the ends of the ruler read last (a game measures with one ruler)


def _ends(ruler: Ruler) -> _Ends:
    if _LAST and _LAST[0].ruler is ruler:
        return _LAST[0]
    ends = _Ends(ruler)
    _LAST[:] = [ends]
    return ends


def range_band(mm: float, ruler: Ruler | None = None) -> str | None:
    """'close', 'medium', 'long' or None (extreme). A line between bands belongs to the closer band.
    ``ruler``: the game's range ruler (default: the package's)."""
    r = _ends(ruler or geometry().ruler)
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
    # min() of the part's projections less max() of the zone's, each in one pass (no list built)
    x, y = part[0]
    low = x * ux + y * uy
    for x, y in part:
        d = x * ux + y * uy
        if d < low:
            low = d
    x, y = zone[0]
    high = x * ux + y * uy
    for x, y in zone:
        d = x * ux + y * uy
        if d > high:
            high = d
    return low - high, math.sqrt(near)


def zone_band(zone: Poly, part: Poly, apex: Point, ruler: Ruler) -> str | None:
    """range_band(poly_distance(zone, part), ruler), for a hull zone whose vertices include ``apex`` (the apex of
    its arc: every hull zone's does). When a vertex of ``part`` lies within close range of the apex less a micron,
    the distance is close range whatever the rounding, and the polygon distance is not needed; nor is it when the
    cheap bounds of _gap_bounds, a micron wider, fall in one band (the band of the exact distance, which lies
    between them)."""
    ax, ay = apex
    near = math.inf  # min() of the squared distances, in one pass
    for vx, vy in part:
        d = (vx - ax) * (vx - ax) + (vy - ay) * (vy - ay)
        if d < near:
            near = d
    reach = _ends(ruler).close - 1e-6
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
