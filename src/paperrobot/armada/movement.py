"""Armada's ship movement: a maneuver along the chosen course, overlapping squadrons pushed aside, overlapping ships
and obstacles; a part of the engine (game.py's Game inherits it)."""
from __future__ import annotations

import math
from .geometry import ZONES
from .polygons import inside_area, overlaps
from .tactics import ship_radius
from .requests import pick
from .state import Ship, Squad


class Movement:
    # ------------------------------------------------------------------ movement
    def move(self, ship: Ship):
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
        from .geometry import footprint
        bumped = None
        while True:
            x, y, a = self.end_of(ship, speed, clicks)
            base = footprint(ship.size, x, y, a).base
            # bases whose circumscribed circles are 1 mm apart cannot overlap: the polygon test is skipped for them
            reach = ship_radius(ship.size) + 1.0
            hit = [o for o in self.live_ships() if o is not ship and
                   math.hypot(o.x - x, o.y - y) <= reach + ship_radius(o.size) and overlaps(base, o.fp.base)]
            if not hit or speed == 0:
                break
            bumped = min(hit, key=lambda o: math.hypot(o.x - x, o.y - y))
            speed -= 1  # overlapping: temporarily reduce speed and retry (RRG 'Overlapping')
        if speed > 0:
            ship.x, ship.y, ship.a = x, y, a
            self.touch()
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
        for o in self.obstacles:
            if overlaps(ship.fp.base, o.poly):
                self.emit("obstacle", ship.side, unit=ship.uid, obstacle=o.kind)
                if o.kind == "asteroid":
                    self.faceup(ship)
                elif o.kind == "debris":
                    zone = max(ZONES, key=lambda z: (ship.zone_shields(z), z))
                    self.hurt_ship(ship, zone, 2, False, None)
                elif o.kind == "station" and ship.damage:
                    if ship.faceup:
                        ship.faceup.pop()
                    else:
                        ship.facedown -= 1
                self.check_destroyed(ship)
        reach = ship_radius(ship.size) + 1.0
        for q in self.live_squads():
            # a squadron's polygon lies within 1.1 radii of its centre (circle: 12 sides circumscribing the base)
            if math.hypot(q.x - ship.x, q.y - ship.y) <= reach + 1.1 * q.radius and overlaps(ship.fp.base, q.poly):
                self.push_out(q, ship)

    def push_out(self, q: Squad, ship: Ship) -> None:
        """An overlapped squadron is placed touching the ship that moved (RRG 'Overlapping')."""
        dx, dy = q.x - ship.x, q.y - ship.y
        n = math.hypot(dx, dy) or 1.0
        for step in range(1, 40):
            q.x, q.y = ship.x + dx / n * (n + 5 * step), ship.y + dy / n * (n + 5 * step)
            if not overlaps(ship.fp.base, q.poly):
                break
        q.x = min(max(q.x, 16.0), self.width - 16.0)
        q.y = min(max(q.y, 16.0), self.depth - 16.0)
        self.touch()
