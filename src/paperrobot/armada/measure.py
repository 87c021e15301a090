"""Measuring the table for the engine: legal attacks (arc, range, line of sight, obstruction), courses,
squadron moves and engagement. A mixin of Game: it reads the units, never changes them (the shot cache aside)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import product

from ..core.contract import Option
from . import dice as D
from .data import parse_dice
from .geometry import (ZONES, arc_part, arc_test, arc_tests, circle, closest_point, fp_reach, maneuver, overlaps,
                       poly_within, range_band, segment_hits_poly, zone_band, zone_reach)
from .state import Ship, Squad
from .tactics import ship_radius


@dataclass(slots=True)
class ShotOpt:
    """A legal attack: attacking zone (None for a squadron), target, defending zone, dice colours."""
    attacker: object
    zone: str | None
    target: object
    tzone: str | None
    band: str | None
    colours: list[str]
    obstructed: bool

    @property
    def key(self) -> str:
        return f"{self.zone or 'sq'}>{self.target.uid}" + (f":{self.tzone}" if self.tzone else "")


class Measures:
    """What the engine measures on its table (``self.ships``, ``self.squads``, ``self.obstacles``, ``self.geo``)."""

    def blockers(self, attacker, defender) -> list:
        return [s.fp.base for s in self.ships if not s.destroyed and s is not attacker and s is not defender] + \
            [o.poly for o in self.obstacles]

    def obstructed(self, a, b, attacker, defender) -> bool:
        """any(segment_hits_poly(a, b, p) for p in self.blockers(attacker, defender)) (RRG 'Obstructed'), without
        the polygon test for a blocker whose disc (centre and the radius that holds its polygon) the line of fire
        passes more than a micron clear of: such a polygon cannot be crossed or hold the line's middle."""
        ax, ay = a
        ex, ey = b[0] - ax, b[1] - ay
        length = ex * ex + ey * ey
        for poly, cx, cy, r in self._blocker_discs(attacker, defender):
            t = ((cx - ax) * ex + (cy - ay) * ey) / length if length else 0.0
            t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
            dx, dy = ax + t * ex - cx, ay + t * ey - cy
            reach = r + 1e-6
            if dx * dx + dy * dy <= reach * reach and segment_hits_poly(a, b, poly):
                return True
        return False

    def _blocker_discs(self, attacker, defender) -> list:
        """blockers(), each with the disc that holds it: a ship's base within its corner radius, an obstacle within
        the furthest of its corners (worked out once: obstacles do not move)."""
        out = [(s.fp.base, s.x, s.y, ship_radius(s.size)) for s in self.ships
               if not s.destroyed and s is not attacker and s is not defender]
        if self._obstacle_discs is None or len(self._obstacle_discs) != len(self.obstacles):
            self._obstacle_discs = [(o.poly, o.x, o.y, max(math.hypot(x - o.x, y - o.y) for x, y in o.poly))
                                    for o in self.obstacles]
        return out + self._obstacle_discs

    def touch(self) -> None:
        self.version += 1
        self._shots.clear()

    def ship_memo(self, name: str) -> dict:
        """A cache of measurements that depend only on the live ships' positions (and the fixed obstacles): kept
        while no ship moves or is destroyed, whatever else happens (squadrons moving, damage, tokens)."""
        key = (len(self.obstacles), *[(s.uid, s.x, s.y, s.a) for s in self.ships if not s.destroyed])
        if key != self._memo_key:
            self._memo = {}
            self._memo_key = key
        memo = self._memo.get(name)
        if memo is None:
            memo = self._memo[name] = {}
        return memo

    def ship_shots(self, ship: Ship, used: set[str] = frozenset(), ships_only: bool = False) -> list[ShotOpt]:
        """Every legal attack of a ship's unused hull zones (cached until something moves or dies)."""
        key = (ship.uid, ship.x, ship.y, ship.a, frozenset(used), ships_only)
        hit = self._shots.get(key)
        if hit is None:
            hit = self._shots[key] = self._ship_shots(ship, used, ships_only)
        return list(hit)

    def _ship_shots(self, ship: Ship, used, ships_only: bool) -> list[ShotOpt]:
        """Arc, range ignoring parts outside the arc, line of sight through the defender's other zones,
        obstruction (RRG 'Attack', 'Line of Sight', 'Obstructed')."""
        out: list[ShotOpt] = []
        enemy = self.enemy(ship.side)
        squads = [] if ships_only else self.live_squads(enemy)
        at_ships = self.ship_memo("ship-shots")  # the attacks on ships depend on the ships alone
        at_squads = self.ship_memo("squad-shots") if squads else None
        for zone in ZONES:
            if zone in used:
                continue
            key = (ship.uid, ship.x, ship.y, ship.a, zone)
            hit = at_ships.get(key)
            if hit is None:
                hit = at_ships[key] = self._zone_ship_shots(ship, zone, enemy)
            out += hit
            for q in squads:
                if math.hypot(q.x - ship.x, q.y - ship.y) > 260:
                    continue
                shot = self._squad_shot(ship, zone, q, at_squads)
                if shot is not None:
                    out.append(shot)
        return [o for o in out if o.colours]

    def dice_bounds(self, ship: Ship) -> list[tuple[Ship | None, int, list[int]]]:
        """(target group, an upper bound on its dice, a bound for each zone in ZONES order) for each enemy group that
        ship_shots(ship) could hold (an enemy ship; None: the squadrons), without measuring a shot: on each group the
        AI counts (ai.target_totals: a zone's best shot at a ship, its shots at squadrons added up, the two best zones
        added; ARM.ACT.ORDER) each zone that the arc discs (arc_test) do not rule out with its dice at the band of
        the nearest the units' hull zones could be (their discs, zone_reach, a micron nearer: the measured distance,
        between hull zones or their parts in the arc, is never shorter); obstruction and line of sight only take dice
        away. A group left out has no shot."""
        fp = ship.fp
        ruler = self.geo.ruler
        mine = zone_reach(ship.size)
        batteries = [ship.battery(z) for z in ZONES]
        out: list[tuple[Ship | None, int, list[int]]] = []
        for t in self.live_ships(self.enemy(ship.side)):
            gap = math.hypot(t.x - ship.x, t.y - ship.y)
            if gap > ruler.long + 140:
                continue  # as _zone_ship_shots: not measured
            band = range_band(gap - mine - zone_reach(t.size) - 1e-6, ruler)
            zones = [len(D.pool_at(b, band)) if seen >= 0 else 0
                     for b, seen in zip(batteries, arc_tests(fp, ZONES, t.x, t.y, fp_reach(t.size)))]
            top = sorted(zones)[-2:]
            if top[0] + top[1]:
                out.append((t, top[0] + top[1], zones))
        squads = self.live_squads(self.enemy(ship.side))
        if squads:
            anti = ship.anti()
            zones = [0, 0, 0, 0]
            for q in squads:
                gap = math.hypot(q.x - ship.x, q.y - ship.y)
                if gap > 260:
                    continue  # as _ship_shots
                r = 1.1 * q.radius  # its 12-gon lies within 1.1 radii of its centre (as _squad_sight tests it)
                n = len(D.pool_at(anti, range_band(gap - mine - r - 1e-6, ruler)))
                for i, seen in enumerate(arc_tests(fp, ZONES, q.x, q.y, r)):
                    if seen >= 0:
                        zones[i] += n
            top = sorted(zones)[-2:]
            if top[0] + top[1]:
                out.append((None, top[0] + top[1], zones))
        return out

    def group_has_shot(self, ship: Ship, target: Ship | None, bounds: list[int]) -> bool:
        """Whether ship_shots(ship) holds a shot at one group (``target``; None: the squadrons), measured zone by zone
        (the zones a bound of dice_bounds, ``bounds``, leaves at 0 have none) up to the first shot found."""
        squads = [] if target is not None else [q for q in self.live_squads(self.enemy(ship.side))
                                                if math.hypot(q.x - ship.x, q.y - ship.y) <= 260]
        memo = self.ship_memo("squad-shots") if squads else {}
        for zone, bound in zip(ZONES, bounds):
            if not bound:
                continue
            if target is not None:
                if self._zone_target_dice(ship, zone, target, 1):
                    return True
            elif any(shot is not None and shot.colours for shot in (self._squad_shot(ship, zone, q, memo)
                                                                     for q in squads)):
                return True
        return False

    def group_dice(self, ship: Ship, target: Ship | None, bounds: list[int]) -> int:
        """The dice ai.target_totals counts on one group of ship_shots(ship) (``target``; None: the squadrons): the two
        best zones' dice added. ``bounds``: each zone's bound from dice_bounds. Zones are measured from the highest
        bound down, and no further once a zone's bound is no more than the smaller of the two best measured: the
        rest cannot change the two best."""
        best: list[int] = []  # the dice of the zones measured, the two largest last
        squads, memo = [], {}
        if target is None:
            squads = [q for q in self.live_squads(self.enemy(ship.side))
                      if math.hypot(q.x - ship.x, q.y - ship.y) <= 260]
            memo = self.ship_memo("squad-shots")
        for i in sorted(range(len(ZONES)), key=lambda i: -bounds[i]):
            if len(best) >= 2 and bounds[i] <= best[-2]:
                break
            zone = ZONES[i]
            if target is None:
                shots = [self._squad_shot(ship, zone, q, memo) for q in squads]
                dice = sum(len(o.colours) for o in shots if o is not None)
            else:
                dice = self._zone_target_dice(ship, zone, target, bounds[i])
            best = sorted(best + [dice])
        return sum(best[-2:])

    def pair_memo(self) -> dict:
        """A cache of what one unit's zone measures of another (arc, range, dice, line of sight through the defender):
        it depends on where the two are and nothing else, so it is kept while other units move; obstruction, which
        depends on every other ship, is measured afresh (RRG 'Obstructed')."""
        if len(self._pairs) > 20000:  # bounded: a battle fills a few hundred
            self._pairs = {}
        return self._pairs

    def _squad_shot(self, ship: Ship, zone: str, q: Squad, at_squads: dict) -> ShotOpt | None:
        """_ship_shots at one squadron, of one hull zone (None: not in arc or range); kept in ``at_squads``,
        ship_memo("squad-shots"), while no ship moves (the shot depends on the ships, for obstruction, and on where
        the squadron is)."""
        qkey = (ship.uid, ship.x, ship.y, ship.a, zone, q.uid, q.x, q.y)
        shot = at_squads.get(qkey, False)
        if shot is not False:
            return shot
        pairs = self.pair_memo()
        seen = pairs.get(qkey, False)
        if seen is False:
            fp = ship.fp
            seen = pairs[qkey] = self._squad_sight(ship, zone, q, fp.arcs[zone], fp.zones[zone], fp.targets[zone],
                                                   ship.anti(), self.geo.ruler)
        if seen is None:
            at_squads[qkey] = None
            return None
        band, colours, goal = seen
        obstructed = self.obstructed(ship.fp.targets[zone], goal, ship, None)
        shot = at_squads[qkey] = ShotOpt(ship, zone, q, None, band, _obstruct(list(colours), obstructed), obstructed)
        return shot

    def _squad_sight(self, ship: Ship, zone: str, q: Squad, arc, zpoly, tp, anti, ruler):
        """(band, dice, the point aimed at) of a hull zone's attack on a squadron, or None: not in arc or range."""
        seen = arc_test(ship.fp, zone, q.x, q.y, 1.1 * q.radius)  # its 12-gon lies within 1.1 radii of its centre
        if seen < 0:
            return None
        poly = q.poly
        part = arc_part(poly, ship.fp, zone, seen)
        if not part:
            return None
        band = zone_band(zpoly, part, arc[0], ruler)
        colours = D.pool_at(anti, band)
        if not colours:
            return None
        return band, colours, closest_point(tp, poly)

    def _zone_ship_shots(self, ship: Ship, zone: str, enemy: str) -> list[ShotOpt]:
        """_ship_shots at the enemy ships, of one hull zone."""
        out: list[ShotOpt] = []
        long_r = self.geo.ruler.long
        memo = self.ship_memo("zone-target-shots")
        for t in self.live_ships(enemy):
            if math.hypot(t.x - ship.x, t.y - ship.y) > long_r + 140:
                continue
            out += self._zone_target_shots(ship, zone, t, memo)
        return out

    def _zone_target_shots(self, ship: Ship, zone: str, t: Ship, memo: dict) -> list[ShotOpt]:
        """_ship_shots at one enemy ship, of one hull zone, kept in ``memo``, ship_memo("zone-target-shots"), while no
        ship moves (the activation's group_dice and ship_shots share them)."""
        key = (ship.uid, zone, t.uid)  # the memo holds while every ship stays where it is
        hit = memo.get(key)
        if hit is not None:
            return hit
        tp = ship.fp.targets[zone]
        pairs = self.pair_memo()
        pkey = (ship.uid, ship.x, ship.y, ship.a, zone, t.uid, t.x, t.y, t.a)
        seen = pairs.get(pkey)
        if seen is None:
            seen = pairs[pkey] = self._ship_sight(ship, zone, t)
        hit = memo[key] = []
        for tz, band, colours, goal in seen:
            obstructed = self.obstructed(tp, goal, ship, t)
            hit.append(ShotOpt(ship, zone, t, tz, band, _obstruct(list(colours), obstructed), obstructed))
        return hit

    def _ship_sight(self, ship: Ship, zone: str, t: Ship) -> list[tuple]:
        """(defending zone, band, dice, the point aimed at) of each hull zone of ``t`` that ``ship``'s ``zone`` has
        in arc and range with a line of sight (RRG 'Line of Sight': not traced through another zone of ``t``)."""
        out = []
        seen = arc_test(ship.fp, zone, t.x, t.y, fp_reach(t.size))
        if seen < 0:
            return out  # no hull zone of t can be in the arc
        for tz in ZONES:
            sight = self._zone_sight(ship, zone, t, tz, seen)
            if sight is not None:
                out.append(sight)
        return out

    def _zone_sight(self, ship: Ship, zone: str, t: Ship, tz: str, seen: int) -> tuple | None:
        """_ship_sight's entry for one defending hull zone ``tz`` (None: not in arc or range, or no line of sight);
        ``seen``: arc_test of ``t``'s disc."""
        fp, tfp = ship.fp, t.fp
        part = arc_part(tfp.zones[tz], fp, zone, seen)
        if not part:
            return None
        band = zone_band(fp.zones[zone], part, fp.arcs[zone][0], self.geo.ruler)
        colours = D.pool_at(ship.battery(zone), band)
        if not colours:
            return None
        goal = tfp.targets[tz]
        tp = fp.targets[zone]
        if any(segment_hits_poly(tp, goal, tfp.zones[oz]) for oz in ZONES if oz != tz):
            return None  # no line of sight: traced through another hull zone of the defender
        return tz, band, colours, goal

    def _zone_target_dice(self, ship: Ship, zone: str, t: Ship, cap: int) -> int:
        """The most dice of _zone_target_shots(ship, zone, t) (0: none), the defending zones measured one by one and
        no further once one has ``cap`` dice, a bound no shot of the zone exceeds (dice_bounds); from the memos when
        they hold the zone's shots."""
        hit = self.ship_memo("zone-target-shots").get((ship.uid, zone, t.uid))
        if hit is not None:
            return max((len(o.colours) for o in hit), default=0)
        sights = self.pair_memo().get((ship.uid, ship.x, ship.y, ship.a, zone, t.uid, t.x, t.y, t.a))
        if sights is None:
            seen = arc_test(ship.fp, zone, t.x, t.y, fp_reach(t.size))
            sights = () if seen < 0 else (self._zone_sight(ship, zone, t, tz, seen) for tz in ZONES)
        best, tp = 0, ship.fp.targets[zone]
        for sight in sights:
            if sight is None:
                continue
            _, _, colours, goal = sight
            dice = len(_obstruct(list(colours), self.obstructed(tp, goal, ship, t)))
            if dice > best:
                best = dice
                if best >= cap:
                    break
        return best

    def engaged_with(self, q: Squad) -> list[Squad]:
        d1 = self.geo.ruler.distance[0]
        r = self.geo.squadron_base.radius
        return [e for e in self.live_squads(self.enemy(q.side))
                if math.hypot(e.x - q.x, e.y - q.y) - 2 * r <= d1]

    def squad_shots(self, q: Squad) -> list[ShotOpt]:
        """A squadron attacks at distance 1; engaged, it must attack a squadron (RRG 'Engagement')."""
        engaged = self.engaged_with(q)
        if engaged:
            anti = parse_dice(q.spec.anti_squadron)
            escorts = [e for e in engaged if e.keyword("escort")]
            pool = escorts or engaged  # Escort: engaged squadrons must attack Escorts first
            return [ShotOpt(q, None, e, None, "close", D.pool_at(anti, "close"), False) for e in pool]
        d1 = self.geo.ruler.distance[0]
        out = []
        battery = parse_dice(q.spec.battery)
        for s in self.live_ships(self.enemy(q.side)):
            if math.hypot(s.x - q.x, s.y - q.y) > d1 + 100:
                continue
            for tz in ZONES:
                if poly_within(q.poly, s.fp.zones[tz], d1):
                    goal = s.fp.targets[tz]
                    near = closest_point(goal, q.poly)
                    if any(segment_hits_poly(near, goal, s.fp.zones[oz]) for oz in ZONES if oz != tz):
                        continue
                    out.append(ShotOpt(q, None, s, tz, "close", D.pool_at(battery, "close"), False))
        return out

    def in_squad_range(self, ship: Ship, side: str, unactivated: bool = True) -> list[Squad]:
        """Friendly squadrons at close-medium range of a ship (Squadron command)."""
        med = self.geo.ruler.medium
        return [q for q in self.live_squads(side) if (not unactivated or not q.activated)
                and self._squad_within(ship, q, med)]

    @staticmethod
    def _squad_within(ship: Ship, q: Squad, limit: float) -> bool:
        """poly_distance(ship.fp.base, q.poly) <= limit (poly_within). Each polygon holds its centre, and lies within its radius
        of it (a squadron's within 1.1 base radii), so centres plainly near or far decide it without the polygons."""
        centres = math.hypot(q.x - ship.x, q.y - ship.y)
        if centres <= limit - 1e-6:
            return True
        if centres - ship_radius(ship.size) - 1.1 * q.radius > limit + 1e-6:
            return False
        return poly_within(ship.fp.base, q.poly, limit)

    def threat_dice(self, ship: Ship) -> int:
        """Most dice an unactivated enemy ship in range could roll at ``ship`` (ARM.DEF.BRACE)."""
        best = 0
        for e in self.live_ships(self.enemy(ship.side)):
            if e.activated or e is self.active:
                continue
            per_zone: dict[str, int] = {}
            for o in self.ship_shots(e, ships_only=True):
                if o.target is ship:
                    per_zone[o.zone] = max(per_zone.get(o.zone, 0), len(o.colours))
            if per_zone:
                best = max(best, max(per_zone.values()))
        return best

    # ------------------------------------------------------------------ the game

    def courses(self, ship: Ship, dial: str | None = None) -> list[Option]:
        """Every legal course at this activation (speeds reachable with navigate, yaw per chart).
        ``dial``: the courses as if the ship's dial were this command (the AI's look-ahead, ARM.CMD.NAV)."""
        dial_now = ship.dial if dial is None else dial
        nav = "navigate" not in ship.used and (dial_now == "navigate" or "navigate" in ship.cmd_tokens)
        change = 2 if (nav and dial_now == "navigate" and "navigate" in ship.cmd_tokens) else 1 if nav else 0
        dial = dial_now == "navigate" and "navigate" not in ship.used
        # the list depends on the ship's card, speed and these two alone: made once (the options are never changed)
        key = (id(ship.spec), ship.speed, change, dial)
        hit = _COURSES.get(key)
        if hit is None or hit[0] is not ship.spec:
            if len(_COURSES) > 4096:  # bounded: cards loaded again and again (a ships directory per game)
                _COURSES.clear()
            hit = _COURSES[key] = (ship.spec, self._courses(ship, change, dial))
        return list(hit[1])

    @staticmethod
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
                    out.append(Option(key, f"{key}  speed {v} yaw {list(clicks)}" + ("  (spends navigate)" if needs else ""),
                                      (v, tuple(clicks), needs)))
        return tuple(out)

    def end_of(self, ship: Ship, speed: int, clicks) -> tuple[float, float, float]:
        return maneuver(ship.x, ship.y, ship.a, ship.size.base[1], speed, clicks, self.geo.tool)

    def squad_moves(self, q: Squad) -> list[Option]:
        """Move options: toward each enemy (to contact), toward each friendly ship, or stay."""
        out = [Option("stay", "stay")]
        reach = self.geo.ruler.distance[q.spec.speed - 1] if q.spec.speed else 0.0
        r = self.geo.squadron_base.radius
        for u in self.live_ships() + [s for s in self.live_squads() if s is not q]:
            dx, dy = u.x - q.x, u.y - q.y
            dist = math.hypot(dx, dy) or 1.0
            stop = (max(u.size.base) / 2 if isinstance(u, Ship) else r) + r + 3
            step = max(0.0, min(reach, dist - stop))
            x, y = q.x + dx / dist * step, q.y + dy / dist * step
            what = "toward" if u.side != q.side else "to"
            out.append(Option(f"move:{u.uid}", f"move {what} {u.uid}", (x, y)))
        return out

    def _crowded(self, q: Squad, x: float, y: float) -> bool:
        r = self.geo.squadron_base.radius
        if any(o is not q and math.hypot(o.x - x, o.y - y) < 2 * r for o in self.live_squads()):
            return True
        poly = circle(x, y, r)
        return any(math.hypot(s.x - x, s.y - y) < 120 and overlaps(poly, s.fp.base) for s in self.live_ships())

    def _pinned(self, q: Squad) -> bool:
        """Engaged squadrons cannot move unless every engaging squadron is Heavy (RRG 'Engagement')."""
        return any(not e.keyword("heavy") for e in self.engaged_with(q))


_COURSES: dict[tuple, tuple] = {}  # (id of a ship card, speed, speed change, dial's extra click) -> (card, options)


def _obstruct(colours: list[str], obstructed: bool) -> list[str]:
    """Obstructed: the attacker removes one die; it removes the weakest (red, then blue, then black)."""
    if not obstructed or not colours:
        return colours
    out = list(colours)
    for c in ("R", "U", "K"):
        if c in out:
            out.remove(c)
            break
    return out


def shot_label(o: ShotOpt) -> str:
    where = f"{o.zone} zone" if o.zone else "squadron"
    tz = f" {o.tzone} zone" if o.tzone else ""
    return f"{where} -> {o.target.uid}{tz} at {o.band}: {''.join(o.colours)}" + (" (obstructed)" if o.obstructed else "")
