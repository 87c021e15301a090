"""Armada's set-up: the fleets built, points, the deployment of ships and squadrons, obstacles; a part of the engine
(after attacks.Attacks in the chain of game.py's Game)."""
from __future__ import annotations

import math
from functools import partial

from ..core.errors import IllegalAction, UnknownName
from . import ai, procedure
from .attacks import Attacks
from .base import Steps
from .data import catalogue
from .measure import size_of
from .polygons import circle, closest_point, point_in_poly
from .requests import (DEPLOY_ZONES, SQUADRON_DEPLOY_OPTIONS, SQUADRON_DEPLOYS, STYLE_OPTIONS, STYLES, ZONE_OPTIONS,
    one_of, check_focal, focal_options)
from .sides import IMPERIAL, REBEL, SIDES
from .state import Obstacle, Ship, Squad


def _turn_order(d: int) -> tuple[int, int]:
    return (min(d, 360 - d), d)


# the turns about a ship's centre _touching tries, the nearest first (degrees)
TURNS = sorted(range(0, 360, 5), key=_turn_order)


class Deployment(Attacks):
    # ------------------------------------------------------------------ set-up
    def _build(self) -> None:
        ships, squads = catalogue(self.setup.ships_dir)
        for side in SIDES:
            counts: dict[str, int] = {}
            for name in getattr(self.setup, side):
                if name not in ships and name not in squads:
                    raise UnknownName("Armada ship or squadron", name, list(ships) + list(squads))
                counts[name] = counts.get(name, 0) + 1
                uid = f"{name}-{counts[name]}"
                if name in ships:
                    spec = ships[name]
                    self.ships.append(Ship.make(uid, spec, side, 0.0, 0.0, math.pi / 2, 2, self.geo.sizes[spec.size]))
                else:
                    self.squads.append(Squad.make(uid, squads[name], side, 0.0, 0.0, self.geo.squadron_base.radius))
        for side in SIDES:
            if not self.live_ships(side):
                raise IllegalAction(f"the {side} fleet needs at least one ship")

    def points(self, side: str) -> int:
        return sum(s.spec.points for s in self.ships if s.side == side) + \
            sum(q.spec.points for q in self.squads if q.side == side)

    def formation(self) -> list[str]:
        """ARM.DEPLOY.ZONE: the AI's ships west to east; the fastest go on the flank away from the focal point."""
        order = ai.formation_order([(s.uid, s.spec.points, s.max_speed()) for s in self.live_ships(IMPERIAL)])
        return order if self.focal[0] >= self.width / 2 else list(reversed(order))

    def deploy(self) -> Steps:
        """Set-up: obstacles, initiative, the player's deployment, then the AI's (ARM.DEPLOY.*)."""
        if self.logging():  # the record of the set-up and of a variant's differences is built for a log only
            self.emit("setup", game="armada", setup=self.setup.to_dict(), seed=self.dice.seed,
                      width=self.width, depth=self.depth, **procedure.robot_rules_record(self.robot_rules))
        self._obstacles()
        pi, pr = self.points(IMPERIAL), self.points(REBEL)
        # the lower fleet total chooses; both choose to go first (docs 'Initiative'); tie: coin
        self.first = REBEL if pr < pi else IMPERIAL if pi < pr else (
            REBEL if self.dice.coin("initiative", "table") else IMPERIAL)
        self.emit("initiative", first=self.first, imperial_points=pi, rebel_points=pr)
        # Standard mission: all player forces deploy first (seed); the player's line abreast, 2 forward
        rebels = self.live_ships(REBEL)
        lo, hi = self.inset + 150, self.width - self.inset - 150
        for i, s in enumerate(rebels):
            s.x = lo + (hi - lo) * (i + 1) / (len(rebels) + 1)
            s.y, s.a, s.speed = 110.0, math.pi / 2, min(2, s.max_speed())
        for i, q in enumerate(self.live_squads(REBEL)):
            host = rebels[i % len(rebels)]
            q.x, q.y = host.x - 40 + 40 * (i // len(rebels)), host.y + 105
        dec = yield self._ask("style", IMPERIAL, state=self, options=STYLE_OPTIONS, default="normal",
                            check=one_of(STYLES, "commander style", "ARM.CMDR.STYLE"),
                            prompt="The Imperial commander's style")
        self.style = dec.action
        xs = [s.x for s in rebels]
        dec = yield self._ask("focal", IMPERIAL, state=self, subject=xs, options=partial(focal_options, self, xs),
                            check=partial(check_focal, self), prompt="The focal point: x (mm) on the Rebel edge")
        self.focal = (dec.action, 0.0)
        dec = yield self._ask("zone", IMPERIAL, state=self, options=ZONE_OPTIONS, default="centre",
                            check=one_of(DEPLOY_ZONES, "deployment zone", "ARM.DEPLOY.ZONE"),
                            prompt="Where the Imperial fleet deploys")
        where = dec.action
        span = self.width - 2 * self.inset
        cx = {"centre": self.width / 2, "west": self.inset + span / 4, "east": self.width - self.inset - span / 4}[where]
        order = self.formation()
        y = self.depth - 130.0
        step = 115.0
        for i, uid in enumerate(order):
            s = self.ship(uid)
            s.x = cx + (i - (len(order) - 1) / 2) * step
            s.y = y
            s.a = math.atan2(self.focal[1] - s.y, self.focal[0] - s.x)
            s.speed = ai.deploy_speed(self.style, s.max_speed(), procedure.numbers(self.robot_rules))
            s.slot = (i - (len(order) - 1) / 2) * step
        imps = self.live_ships(IMPERIAL)
        contact = False
        if self.live_squads(IMPERIAL):
            dec = yield self._ask("squadrons", IMPERIAL, state=self, options=SQUADRON_DEPLOY_OPTIONS,
                                  default="distance 2",
                                  check=one_of(SQUADRON_DEPLOYS, "squadron deployment", "ARM.DEPLOY.ZONE"),
                                  prompt="How the Imperial squadrons deploy")
            contact = dec.action == "contact"
        gap = 0.0 if contact else 60.0  # touching vs within distance 2 (ARM.DEPLOY.ZONE)
        placed: list[Squad] = []
        for i, q in enumerate(self.live_squads(IMPERIAL)):
            host = imps[i % len(imps)]
            k = i // len(imps)
            ahead = size_of(host).base[1] / 2 + gap + 15
            q.x = host.x + math.cos(host.a) * ahead + (k - 1) * 32 * math.sin(host.a)
            q.y = host.y + math.sin(host.a) * ahead - (k - 1) * 32 * math.cos(host.a)
            if contact:
                self._touching(q, host, placed)
            placed.append(q)
        if self.logging():
            self.emit("deployed", focal=[round(self.focal[0], 1), 0.0], style=self.style, zone=where,
                      ships=[s.to_view() for s in self.ships], squadrons=[q.to_view() for q in self.squads],
                      obstacles=[[o.kind, round(o.x, 1), round(o.y, 1)] for o in self.obstacles])

    def _touching(self, q: Squad, host: Ship, placed: list[Squad]) -> None:
        """ARM.DEPLOY.ZONE, cautious: move ``q`` to the nearest spot around ``host`` (turning about the ship's
        centre from where the formation set it) where its base touches the ship's base, overlapping no ship
        and no squadron already placed, on the table."""
        r = self.geo.squadron_base.radius
        px, py = q.x - host.x, q.y - host.y
        for turn in TURNS:
            t = math.radians(turn)
            p = (host.x + px * math.cos(t) - py * math.sin(t), host.y + px * math.sin(t) + py * math.cos(t))
            if point_in_poly(p, host.fp.base):
                continue
            c = closest_point(p, host.fp.base)
            n = math.hypot(p[0] - c[0], p[1] - c[1])
            x, y = c[0] + (p[0] - c[0]) / n * r, c[1] + (p[1] - c[1]) / n * r  # the base touches the ship's
            if not (r <= x <= self.width - r and r <= y <= self.depth - r):
                continue
            if any(math.hypot(o.x - x, o.y - y) < 2 * r for o in placed):
                continue
            if any(s is not host and (point_in_poly((x, y), s.fp.base) or
                                      math.dist((x, y), closest_point((x, y), s.fp.base)) < r)
                   for s in self.live_ships()):
                continue
            q.x, q.y = x, y
            return

    def _obstacles(self) -> None:
        """Three asteroid fields, two debris fields, a station: beyond distance 3 of the edges and
        distance 1 of each other, placed at random (the seed does not cover obstacles; docs)."""
        g = self.geo
        d3, d1 = g.ruler.distance[2], g.ruler.distance[0]
        radius = {"asteroid": g.obstacles.asteroid_radius, "debris": g.obstacles.debris_radius,
                  "station": g.obstacles.station_radius}
        for kind in ("asteroid",) * 3 + ("debris",) * 2 + ("station",):
            r = radius[kind]
            for _ in range(40):
                x = self.inset + d3 + r + (self.width - 2 * self.inset - 2 * (d3 + r)) * (self.dice.roll(1000, "obstacle x", "table") - 0.5) / 1000
                y = d3 + r + (self.depth - 2 * (d3 + r)) * (self.dice.roll(1000, "obstacle y", "table") - 0.5) / 1000
                if all(math.hypot(x - o.x, y - o.y) > r + radius[o.kind] + d1 for o in self.obstacles):
                    break
            else:
                continue
            self.obstacles.append(Obstacle(kind, x, y, circle(x, y, r, 6 if kind != "station" else 8)))
