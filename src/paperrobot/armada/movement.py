"""Armada's ship movement: a maneuver along the chosen course, overlapping squadrons pushed aside, overlapping ships
and obstacles; a part of the engine (after squadron_phase.SquadronPhase in the chain of game.py's Game)."""
from __future__ import annotations

import math
from typing import Final

from .base import Steps
from .geometry import ZONES, footprint
from .measure import obstacle_discs, size_of
from .polygons import inside_area, overlaps
from .tactics import course_table, ship_radius
from .requests import pick
from .squadron_phase import SquadronPhase
from .state import Ship, Squad

# math functions as constants (Final): compiled, called without looking them up in the math module each time
_hypot: Final = math.hypot


def fullest_zone(ship: Ship) -> str:
    """The hull zone with the most shields left, the last of ZONES' names on a tie (max of (shields, zone))."""
    best = ZONES[0]
    most = ship.zone_shields(best)
    for z in ZONES[1:]:
        n = ship.zone_shields(z)
        if n > most or (n == most and z > best):
            best, most = z, n
    return best


class Movement(SquadronPhase):
    # ------------------------------------------------------------------ movement
    def move(self, ship: Ship) -> Steps:
        opts = tuple(self.courses(ship))
        straight = f"{ship.speed}:" + ",".join("0" for _ in range(ship.speed))
        dec = yield self._ask("maneuver", ship.side, state=self, subject=ship, options=opts,
                            default=straight if any(o.key == straight for o in opts) else opts[0].key,
                            check=pick(opts, f"a legal course for {ship.uid}", "RRG Ship Movement"),
                            prompt=f"Course for {ship.uid} (speed:yaw per joint, + = to port)")
        speed, clicks, changed = dec.action.value
        if changed:
            self.spend_command(ship, "navigate")  # a speed change or the dial's extra yaw click
        ship.speed = speed
        bumped: Ship | None = None
        size = size_of(ship)
        # the course's end as the decision measured it (tactics.course_table, kept while no ship moves: the same
        # end pose, footprint and overlap of a ship as the loop below works out); overlapping, the loop retries
        (x, y, a), fp, _, bump = course_table(self, ship, (dec.action,))[0]
        while bump and speed > 0:
            x, y, a = self.end_of(ship, speed, clicks)
            fp = footprint(size, x, y, a)
            base = fp.base
            # bases whose circumscribed circles are 1 mm apart cannot overlap: the polygon test is skipped for them
            reach = ship_radius(size) + 1.0
            hit = [o for o in self.live_ships() if o is not ship and
                   _hypot(o.x - x, o.y - y) <= reach + ship_radius(size_of(o)) and overlaps(base, o.fp.base)]
            if not hit:
                break
            bumped = hit[0]  # the nearest, the first of the nearest (min)
            near = _hypot(bumped.x - x, bumped.y - y)
            for o in hit[1:]:
                d = _hypot(o.x - x, o.y - y)
                if d < near:
                    bumped, near = o, d
            speed -= 1  # overlapping: temporarily reduce speed and retry (RRG 'Overlapping')
        if speed > 0:
            ship.x, ship.y, ship.a = x, y, a
            ship._fp, ship._at = fp, (x, y, a)  # its footprint there, as measured (Ship.fp would make it again)
            self.touch()
        if self.logging():  # the rounded place is built only for a log that keeps it
            self.emit("move", ship.side, ship=ship.uid, speed=ship.speed, moved=speed, clicks=list(clicks),
                      x=round(ship.x, 1), y=round(ship.y, 1), heading=round(math.degrees(ship.a), 1))
        if bumped is not None:
            for s in (ship, bumped):
                s.facedown += 1
                self.emit("collision", s.side, unit=s.uid)
                self.check_destroyed(s)
        if not inside_area(ship.fp.base, self.width, self.depth) and not ship.destroyed:
            ship.destroyed = True
            self.touch()
            self.score[self.enemy(ship.side)] += ship.spec.points
            self.emit("destroyed", ship.side, unit=ship.uid, points=ship.spec.points, reason="left the play area")
            return
        reach = ship_radius(size) + 1.0
        for ob, (poly, ox, oy, r) in zip(self.obstacles, obstacle_discs(self)):
            # an obstacle lies within its disc: one whose disc is 1 mm clear of the base's cannot overlap it
            if _hypot(ox - ship.x, oy - ship.y) <= reach + r and overlaps(ship.fp.base, poly):
                self.emit("obstacle", ship.side, unit=ship.uid, obstacle=ob.kind)
                if ob.kind == "asteroid":
                    self.faceup(ship)
                elif ob.kind == "debris":
                    self.hurt_ship(ship, fullest_zone(ship), 2, False, None)
                elif ob.kind == "station" and ship.damage:
                    if ship.faceup:
                        ship.faceup.pop()
                    else:
                        ship.facedown -= 1
                self.check_destroyed(ship)
        for q in self.live_squads():
            # a squadron's polygon lies within 1.1 radii of its centre (circle: 12 sides circumscribing the base)
            if _hypot(q.x - ship.x, q.y - ship.y) <= reach + 1.1 * q.radius and overlaps(ship.fp.base, q.poly):
                self.push_out(q, ship)

    def push_out(self, q: Squad, ship: Ship) -> None:
        """An overlapped squadron is placed touching the ship that moved (RRG 'Overlapping')."""
        dx, dy = q.x - ship.x, q.y - ship.y
        n = _hypot(dx, dy) or 1.0
        clear = ship_radius(size_of(ship)) + 1.0 + 1.1 * q.radius  # further apart, the polygons cannot overlap
        for step in range(1, 40):
            q.x, q.y = ship.x + dx / n * (n + 5 * step), ship.y + dy / n * (n + 5 * step)
            if _hypot(q.x - ship.x, q.y - ship.y) > clear or not overlaps(ship.fp.base, q.poly):
                break
        q.x = min(max(q.x, 16.0), self.width - 16.0)
        q.y = min(max(q.y, 16.0), self.depth - 16.0)
        self.touch()
