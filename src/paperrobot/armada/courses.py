"""Measuring where units may go, for the engine: a ship's legal courses at its activation (speed and yaw per its
card's chart, navigate's extra), where a course ends, a squadron's moves (toward each unit, or stay; engaged
squadrons pinned), and the friendly squadrons a ship can command (in_squad_range). Functions of the engine
(``game``, a measure.Table) as in measure.py, made methods of Game by table.Measures; they read the units, never
change them.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import product
from typing import TYPE_CHECKING, Final

from ..core.contract import Option
from ..core.words import signed
from .data import ShipSpec
from .geometry import Pose, ship_radius
from .maneuver_tool import maneuver
from .measure import engaged_with, size_of
from .ranges import poly_within
from .polygons import SLACK, Poly, circle, overlaps
from .state import Ship, Squad

if TYPE_CHECKING:
    from .base import GameBase as Table  # the engine (measure.py: typed as its class, read natively compiled)

# math functions as constants (Final): compiled, called without looking them up in the math module each time
_hypot: Final = math.hypot

# (id of a ship card, speed, speed change, dial's extra click) -> (card, options)
_COURSES: Final[dict[tuple[int, int, int, bool], tuple[ShipSpec, tuple[Option, ...]]]] = {}


def courses(game: Table, ship: Ship, dial: str | None = None) -> list[Option]:
    """Every legal course at this activation (speeds reachable with navigate, yaw per chart).
    ``dial``: the courses as if the ship's dial were this command (the AI's look-ahead, ARM.CMD.NAV)."""
    dial_now = ship.dial if dial is None else dial
    nav = "navigate" not in ship.used and (dial_now == "navigate" or "navigate" in ship.cmd_tokens)
    change = 2 if (nav and dial_now == "navigate" and "navigate" in ship.cmd_tokens) else 1 if nav else 0
    extra = dial_now == "navigate" and "navigate" not in ship.used
    # the list depends on the ship's card, speed and these two alone: made once (the options are never changed)
    key = (id(ship.spec), ship.speed, change, extra)
    hit = _COURSES.get(key)
    if hit is None or hit[0] is not ship.spec:
        if len(_COURSES) > 4096:  # bounded: cards loaded again and again (a ships directory per game)
            _COURSES.clear()
        hit = _COURSES[key] = (ship.spec, _courses(ship, change, extra))
    return list(hit[1])


def _courses(ship: Ship, change: int, dial: bool) -> tuple[Option, ...]:
    speeds = [v for v in range(ship.speed - change, ship.speed + change + 1) if 0 <= v <= ship.max_speed()]
    out, seen = [], set()
    for v in speeds:
        chart = ship.spec.speed_chart[v - 1] if v else []
        # the navigate dial may also raise one joint's yaw by one ("-" -> "I" -> "II")
        charts = [(chart, False)] + ([(chart[:j] + [chart[j] + 1] + chart[j + 1:], True)
                                      for j in range(len(chart)) if chart[j] < 2] if dial else [])
        for row, extra in charts:
            for clicks in product(*[range(-y, y + 1) for y in row]):
                key = f"{v}:" + ",".join(str(c) for c in clicks)
                if key in seen:
                    continue
                seen.add(key)
                needs = v != ship.speed or (extra and any(abs(c) > y for c, y in zip(clicks, chart)))
                out.append(Option(key, f"{key}  speed {v}, yaw {signed(clicks)}" + ("  (spends navigate)" if needs else ""),
                                  (v, tuple(clicks), needs)))
    return tuple(out)


def end_of(game: Table, ship: Ship, speed: int, clicks: Sequence[int]) -> Pose:
    return maneuver(ship.x, ship.y, ship.a, size_of(ship).base[1], speed, clicks, game.geo.tool)


def squad_moves(game: Table, q: Squad) -> list[Option]:
    """Move options: toward each enemy (to contact), toward each friendly ship, or stay."""
    out = [Option("stay", "stay")]
    reach = game.geo.ruler.distance[q.spec.speed - 1] if q.spec.speed else 0.0
    r = game.geo.squadron_base.radius
    # the ships, then the other squadrons (each kind in its own loop: compiled, its fields are read natively)
    for s in game.live_ships():
        out.append(_move_to(q, s.uid, s.side, s.x, s.y, max(size_of(s).base) / 2 + r + 3, reach))
    for o in game.live_squads():
        if o is not q:
            out.append(_move_to(q, o.uid, o.side, o.x, o.y, r + r + 3, reach))
    return out


_MOVE_TEXT: Final[dict[str, tuple[str, str, str]]] = {}  # uid -> a move's key, and its label toward an enemy, a friend


def _move_to(q: Squad, uid: str, side: str, ux: float, uy: float, stop: float, reach: float) -> Option:
    """The option moving ``q`` toward the unit ``uid`` at (ux, uy), up to ``stop`` from its centre."""
    dx, dy = ux - q.x, uy - q.y
    dist = _hypot(dx, dy) or 1.0
    step = max(0.0, min(reach, dist - stop))
    x, y = q.x + dx / dist * step, q.y + dy / dist * step
    text = _MOVE_TEXT.get(uid)
    if text is None:
        if len(_MOVE_TEXT) > 4096:  # bounded: units named by a person's own fleets
            _MOVE_TEXT.clear()
        text = _MOVE_TEXT[uid] = (f"move:{uid}", f"move toward {uid}", f"move to {uid}")
    return Option(text[0], text[1] if side != q.side else text[2], (x, y))


def _crowded(game: Table, q: Squad, x: float, y: float) -> bool:
    """Another squadron's centre nearer than two radii, or a ship's base overlapping (a ship's centre within 120 mm).
    Offsets whose squared length settles a distance test skip the exact distance (polygons.SLACK)."""
    r = game.geo.squadron_base.radius
    two = 2 * r
    two2 = two * two * SLACK
    for o in game.live_squads():
        if o is not q:
            dx, dy = o.x - x, o.y - y
            if dx * dx + dy * dy <= two2 and _hypot(dx, dy) < two:
                return True
    poly: Poly | None = None  # the squadron's polygon, made only for a ship near enough to test
    for s in game.live_ships():
        dx, dy = s.x - x, s.y - y
        if dx * dx + dy * dy <= 14400.0 * SLACK and _hypot(dx, dy) < 120:
            if poly is None:
                poly = circle(x, y, r)
            if overlaps(poly, s.fp.base):
                return True
    return False


def _pinned(game: Table, q: Squad) -> bool:
    """Engaged squadrons cannot move unless every engaging squadron is Heavy (RRG 'Engagement')."""
    return any(not e.keyword("heavy") for e in engaged_with(game, q))


def in_squad_range(game: Table, ship: Ship, side: str, unactivated: bool = True) -> list[Squad]:
    """Friendly squadrons at close-medium range of a ship (Squadron command)."""
    med = game.geo.ruler.medium
    return [q for q in game.live_squads(side) if (not unactivated or not q.activated)
            and _squad_within(ship, q, med)]


def _squad_within(ship: Ship, q: Squad, limit: float) -> bool:
    """poly_distance(ship.fp.base, q.poly) <= limit (poly_within). Each polygon holds its centre, and lies within its radius
    of it (a squadron's within 1.1 base radii), so centres plainly near or far decide it without the polygons."""
    centres = _hypot(q.x - ship.x, q.y - ship.y)
    if centres <= limit - 1e-6:
        return True
    if centres - ship_radius(size_of(ship)) - 1.1 * q.radius > limit + 1e-6:
        return False
    return poly_within(ship.fp.base, q.poly, limit)
