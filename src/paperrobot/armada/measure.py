"""Measuring the table for the engine: legal attacks (arc, range, line of sight, obstruction), engagement, the
threat to a ship (courses and squadron moves are in courses.py). Functions of the engine (``game``, a Table: Game,
whose part table.Measures makes each of them a method): they read the units, never change them (the caches aside).
(Functions rather than methods: written while Game was an interpreted class of mixins, docs/speed.md.)"""
from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from . import dice as D
from .data import Ruler, SizeClass, parse_dice
from .geometry import ZONES, Arc, arc_part, arc_test, arc_tests, fp_reach, ship_radius, zone_reach
from .polygons import SLACK, Point, Poly, closest_point, near_disc, segment_hits_poly
from .ranges import poly_within, range_band, zone_band
from .state import ZONE_INDEX, Place, Ship, Squad

if TYPE_CHECKING:  # the engine, typed as its class (compiled: its fields and methods read natively, not by name;
    from .base import GameBase as Table  # no import at run time: base.py imports this module's users)

_hypot: Final = math.hypot  # a constant: compiled, called without a lookup in the math module each time


def _far(dx: float, dy: float, limit: float) -> bool:
    """_hypot(dx, dy) > limit, worked out only where the squared length does not settle it (polygons.SLACK)."""
    return dx * dx + dy * dy > limit * limit * SLACK or _hypot(dx, dy) > limit


_POOLS: Final[dict[tuple[tuple[int, int, int], str | None], list[str]]] = {}
_UNKNOWN: Final = object()  # a memo's "not there" where None is a value


def dice_pool(dice: tuple[int, int, int], band: str | None) -> list[str]:
    """dice.pool_at(dice, band), worked out once per battery and band: a shared list, never to be changed (copy it
    to keep it)."""
    colours = _POOLS.get((dice, band))
    if colours is None:
        if len(_POOLS) > 4096:  # bounded: batteries of a person's own cards
            _POOLS.clear()
        colours = _POOLS[(dice, band)] = D.pool_at(dice, band)
    return colours


def size_of(ship: Ship) -> SizeClass:
    """A ship's size class (Ship.make always sets it)."""
    size = ship.size
    assert size is not None
    return size


# what one hull zone sees of a defending hull zone (_zone_sight): defending zone, band, dice, the point aimed at
Sight = tuple[str, str | None, list[str], Point]
# what one hull zone sees of a squadron (_squad_sight): band, dice, the point aimed at
SquadSight = tuple[str | None, list[str], Point]
# a blocker's polygon with the disc that holds it: centre x, y and radius (Measures._blocker_discs)
Disc = tuple[Poly, float, float, float]


@dataclass(slots=True, init=False)
class ShotOpt:
    """A legal attack: attacking zone (None for a squadron), target, defending zone, dice colours. (Its __init__ is
    written out: compiled, a dataclass's generated __init__ runs as interpreted code, hundreds of shots a battle.)"""
    attacker: Ship | Squad
    zone: str | None
    target: Ship | Squad
    tzone: str | None
    band: str | None
    colours: list[str]
    obstructed: bool

    def __init__(self, attacker: Ship | Squad, zone: str | None, target: Ship | Squad, tzone: str | None,
                 band: str | None, colours: list[str], obstructed: bool) -> None:
        self.attacker, self.zone, self.target, self.tzone = attacker, zone, target, tzone
        self.band, self.colours, self.obstructed = band, colours, obstructed

    @property
    def key(self) -> str:
        return f"{self.zone or 'sq'}>{self.target.uid}" + (f":{self.tzone}" if self.tzone else "")


def blockers(game: Table, attacker: Ship | Squad | None, defender: Ship | Squad | None) -> list[Poly]:
    return [s.fp.base for s in game.ships if not s.destroyed and s is not attacker and s is not defender] + \
        [o.poly for o in game.obstacles]


def obstructed(game: Table, a: Point, b: Point, attacker: Ship | Squad | None, defender: Ship | Squad | None) -> bool:
    """any(segment_hits_poly(a, b, p) for p in blockers(game, attacker, defender)) (RRG 'Obstructed'), without
    the polygon test for a blocker whose disc (centre and the radius that holds its polygon: a ship's base within
    its corner radius) the line of fire passes more than a micron clear of: such a polygon cannot be crossed or
    hold the line's middle. (The blockers are walked in place: no list built.)"""
    ax, ay = a
    ex, ey = b[0] - ax, b[1] - ay
    length = ex * ex + ey * ey
    for s in game.ships:
        if not s.destroyed and s is not attacker and s is not defender and \
                near_disc(ax, ay, ex, ey, length, s.x, s.y, ship_radius(size_of(s))) and segment_hits_poly(a, b, s.fp.base):
            return True
    for poly, cx, cy, r in obstacle_discs(game):
        if near_disc(ax, ay, ex, ey, length, cx, cy, r) and segment_hits_poly(a, b, poly):
            return True
    return False


def obstacle_discs(game: Table) -> list[Disc]:
    """Each obstacle's polygon with the disc that holds it (the furthest of its corners), in game.obstacles order
    (worked out once: obstacles do not move)."""
    discs = game._obstacle_discs
    if discs is None or len(discs) != len(game.obstacles):
        discs = game._obstacle_discs = [(o.poly, o.x, o.y, max(_hypot(x - o.x, y - o.y) for x, y in o.poly))
                                        for o in game.obstacles]
    return discs


def touch(game: Table) -> None:
    game.version += 1
    game._shots.clear()


def _unmoved(game: Table, key: list[Place]) -> bool:
    """Is each live ship, in order, the one of ship_memo's key, where the key has it (no list of them built)?"""
    i, n = 0, len(key)
    if game._memo_obstacles != len(game.obstacles):
        return False
    for s in game.ships:
        if s.destroyed:
            continue
        if i >= n:
            return False
        p = key[i]
        if p.ship is not s or p.x != s.x or p.y != s.y or p.a != s.a:
            return False
        i += 1
    return i == n


def ship_memo(game: Table, name: str, memos: dict[str, dict[Any, Any]] | None = None) -> dict[Any, Any]:
    """A cache of measurements that depend only on the live ships' positions (and the fixed obstacles): kept while no
    ship moves or is destroyed, whatever else happens (squadrons moving, damage, tokens). ``memos``: ship_memos."""
    memos = ship_memos(game) if memos is None else memos
    memo = memos.get(name)
    if memo is None:
        memo = memos[name] = {}
    return memo


def ship_memos(game: Table) -> dict[str, dict[Any, Any]]:
    """ship_memo's caches by name, checked against the ships' places (once for a caller reading several names)."""
    if game._memo_key is None or not _unmoved(game, game._memo_key):
        game._memo, game._memo_obstacles = {}, len(game.obstacles)
        game._memo_key = [Place(s) for s in game.ships if not s.destroyed]
    return game._memo


def ship_shots(game: Table, ship: Ship, used: set[str] | frozenset[str] = frozenset(),
               ships_only: bool = False) -> list[ShotOpt]:
    """Every legal attack of a ship's unused hull zones (cached until something moves or dies)."""
    key = (ship.uid, ship.x, ship.y, ship.a, frozenset(used), ships_only)
    hit = game._shots.get(key)
    if hit is None:
        hit = game._shots[key] = _ship_shots(game, ship, used, ships_only)
    return list(hit)


def _ship_shots(game: Table, ship: Ship, used: set[str] | frozenset[str], ships_only: bool) -> list[ShotOpt]:
    """Arc, range ignoring parts outside the arc, line of sight through the defender's other zones,
    obstruction (RRG 'Attack', 'Line of Sight', 'Obstructed')."""
    out: list[ShotOpt] = []
    enemy = game.enemy(ship.side)
    squads = [] if ships_only else game.live_squads(enemy)
    memos = ship_memos(game)  # checked once here, not once per memo or zone
    at_ships = ship_memo(game, "ship-shots", memos)  # the attacks on ships depend on the ships alone: by (ship, zone)
    at_squads = ship_memo(game, "squad-shots", memos) if squads else {}
    at_targets = ship_memo(game, "zone-target-shots", memos)
    squads = [q for q in squads if not _far(q.x - ship.x, q.y - ship.y, 260.0)]  # the same for every zone
    for zone in ZONES:
        if zone in used:
            continue
        key = (ship.uid, zone)
        hit = at_ships.get(key)
        if hit is None:
            hit = at_ships[key] = _zone_ship_shots(game, ship, zone, enemy, at_targets)
        out += hit
        for q in squads:
            shot = _squad_shot(game, ship, zone, q, at_squads)
            if shot is not None:
                out.append(shot)
    return [o for o in out if o.colours]


def dice_bounds(game: Table, ship: Ship) -> list[tuple[Ship | None, int, list[int]]]:
    """(target group, an upper bound on its dice, a bound for each zone in ZONES order) for each enemy group that
    ship_shots(ship) could hold (an enemy ship; None: the squadrons), without measuring a shot: on each group the
    AI counts (ai.target_totals: a zone's best shot at a ship, its shots at squadrons added up, the two best zones
    added; ARM.ACT.ORDER) each zone that the arc discs (arc_test) do not rule out with its dice at the band of
    the nearest the units' hull zones could be (their discs, zone_reach, a micron nearer: the measured distance,
    between hull zones or their parts in the arc, is never shorter); obstruction and line of sight only take dice
    away. A group left out has no shot."""
    fp = ship.fp
    ruler = game.geo.ruler
    mine = zone_reach(size_of(ship))
    arms = ship.arms()
    out: list[tuple[Ship | None, int, list[int]]] = []
    reach = ruler.long + 140
    reach2 = reach * reach * SLACK  # _far, inline
    for t in game.live_ships(game.enemy(ship.side)):
        dx, dy = t.x - ship.x, t.y - ship.y
        if dx * dx + dy * dy > reach2:
            continue
        gap = _hypot(dx, dy)
        if gap > reach:
            continue  # as _zone_ship_shots: not measured
        band = range_band(gap - mine - zone_reach(size_of(t)) - 1e-6, ruler)
        zones = [len(pools[band]) if seen >= 0 else 0
                 for pools, seen in zip(arms.pools, arc_tests(fp, ZONES, t.x, t.y, fp_reach(size_of(t))))]
        top = sorted(zones)[-2:]
        if top[0] + top[1]:
            out.append((t, top[0] + top[1], zones))
    squads = game.live_squads(game.enemy(ship.side))
    if squads:
        anti = arms.anti_pools
        zones = [0, 0, 0, 0]
        for q in squads:
            gap = _hypot(q.x - ship.x, q.y - ship.y)
            if gap > 260:
                continue  # as _ship_shots
            r = 1.1 * q.radius  # its 12-gon lies within 1.1 radii of its centre (as _squad_sight tests it)
            n = len(anti[range_band(gap - mine - r - 1e-6, ruler)])
            for i, seen in enumerate(arc_tests(fp, ZONES, q.x, q.y, r)):
                if seen >= 0:
                    zones[i] += n
        top = sorted(zones)[-2:]
        if top[0] + top[1]:
            out.append((None, top[0] + top[1], zones))
    return out


def group_has_shot(game: Table, ship: Ship, target: Ship | None, bounds: list[int]) -> bool:
    """Whether ship_shots(ship) holds a shot at one group (``target``; None: the squadrons), measured zone by zone
    (the zones a bound of dice_bounds, ``bounds``, leaves at 0 have none) up to the first shot found."""
    squads = [] if target is not None else [q for q in game.live_squads(game.enemy(ship.side))
                                            if not _far(q.x - ship.x, q.y - ship.y, 260.0)]
    memo: dict[Any, Any] = ship_memo(game, "squad-shots") if squads else {}
    for zone, bound in zip(ZONES, bounds):
        if not bound:
            continue
        if target is not None:
            if _zone_target_dice(game, ship, zone, target, 1):
                return True
        elif any(shot is not None and shot.colours for shot in (_squad_shot(game, ship, zone, q, memo)
                                                                 for q in squads)):
            return True
    return False


def group_dice(game: Table, ship: Ship, target: Ship | None, bounds: list[int]) -> int:
    """The dice ai.target_totals counts on one group of ship_shots(ship) (``target``; None: the squadrons): the two
    best zones' dice added. ``bounds``: each zone's bound from dice_bounds. Zones are measured from the highest
    bound down, and no further once a zone's bound is no more than the smaller of the two best measured: the
    rest cannot change the two best."""
    best: list[int] = []  # the dice of the zones measured, the two largest last
    squads: list[Squad] = []
    memo: dict[Any, Any] = {}
    if target is None:
        squads = [q for q in game.live_squads(game.enemy(ship.side))
                  if not _far(q.x - ship.x, q.y - ship.y, 260.0)]
        memo = ship_memo(game, "squad-shots")
    # the zones from the highest bound down (sorted is stable: equal bounds in ZONES order)
    for bound, i in sorted([(-b, i) for i, b in enumerate(bounds)]):
        if len(best) >= 2 and bounds[i] <= best[-2]:
            break
        zone = ZONES[i]
        if target is None:
            shots = [_squad_shot(game, ship, zone, q, memo) for q in squads]
            dice = sum(len(o.colours) for o in shots if o is not None)
        else:
            dice = _zone_target_dice(game, ship, zone, target, bounds[i])
        best = sorted(best + [dice])
    return sum(best[-2:])


def pair_memo(game: Table, ship: Ship) -> dict[Any, Any]:
    """A cache of what ``ship``'s zones measure of another unit (arc, range, dice, line of sight through the defender)
    by (zone, unit, where the unit is): it depends on where the two are and nothing else, so it is kept while other
    units move; obstruction, which depends on every other ship, is measured afresh (RRG 'Obstructed'). Kept in
    game._pairs by the ship's place (the forks of a battle share it) and found through the ship's footprint there
    (Footprint.pairs: no key of the ship's place built, its floats boxed and hashed, at each read)."""
    fp, pairs = ship.fp, game._pairs
    memo = fp.pairs
    if memo is None or fp.pairs_of is not pairs or fp.pairs_uid != ship.uid:
        if len(pairs) > 1000:  # bounded: a battle fills a few hundred places
            pairs = game._pairs = {}
        key = (ship.uid, ship.x, ship.y, ship.a)
        memo = pairs.get(key)
        if memo is None:
            memo = pairs[key] = {}
        fp.pairs, fp.pairs_of, fp.pairs_uid = memo, pairs, ship.uid
    elif len(memo) > 1000:  # bounded: the places met at one place of the ship
        memo.clear()
    return memo


def _squad_shot(game: Table, ship: Ship, zone: str, q: Squad, at_squads: dict[Any, Any]) -> ShotOpt | None:
    """_ship_shots at one squadron, of one hull zone (None: not in arc or range); kept in ``at_squads``,
    ship_memo("squad-shots"), while no ship moves (the shot depends on the ships, for obstruction, and on where
    the squadron is)."""
    # ship_memo holds while no ship moves: the ship's uid names its place there (the squadron's is kept with the answer)
    skey = (ship.uid, zone, q.uid)  # -> (x, y, shot): where the squadron was measured, and the answer there
    known: tuple[float, float, ShotOpt | None] | None = at_squads.get(skey)  # (no float boxed or hashed for a key)
    if known is not None and known[0] == q.x and known[1] == q.y:
        return known[2]
    qkey = (zone, q.uid, q.x, q.y)
    pairs = pair_memo(game, ship)
    found = pairs.get(qkey, _UNKNOWN)
    if found is _UNKNOWN:
        fp = ship.fp
        found = pairs[qkey] = _squad_sight(game, ship, zone, q, fp.arcs[zone], fp.zones[zone],
                                           ship.arms().anti_pools, game.geo.ruler)
    seen: SquadSight | None = found
    if seen is None:
        at_squads[skey] = (q.x, q.y, None)
        return None
    band, colours, goal = seen
    blocked = obstructed(game, ship.fp.targets[zone], goal, ship, None)
    shot = ShotOpt(ship, zone, q, None, band, _obstruct(list(colours), blocked), blocked)
    at_squads[skey] = (q.x, q.y, shot)
    return shot


def _squad_sight(game: Table, ship: Ship, zone: str, q: Squad, arc: Arc, zpoly: Poly,
                 anti: dict[str | None, list[str]], ruler: Ruler) -> SquadSight | None:
    """(band, dice, the point aimed at) of a hull zone's attack on a squadron, or None: not in arc or range.
    ``anti``: the ship's anti-squadron dice at each band (Armament.anti_pools)."""
    seen = arc_test(ship.fp, zone, q.x, q.y, 1.1 * q.radius)  # its 12-gon lies within 1.1 radii of its centre
    if seen < 0:
        return None
    poly = q.poly
    part = arc_part(poly, ship.fp, zone, seen)
    if not part:
        return None
    band = zone_band(zpoly, part, arc[0], ruler)
    colours = anti[band]
    if not colours:
        return None
    return band, colours, closest_point(ship.fp.targets[zone], poly)


def _zone_ship_shots(game: Table, ship: Ship, zone: str, enemy: str, memo: dict[Any, Any]) -> list[ShotOpt]:
    """_ship_shots at the enemy ships, of one hull zone (``memo``: ship_memo("zone-target-shots"))."""
    out: list[ShotOpt] = []
    reach = game.geo.ruler.long + 140
    reach2 = reach * reach * SLACK  # _far, inline
    for t in game.ships:  # live_ships(enemy), walked in place (no list built)
        dx, dy = t.x - ship.x, t.y - ship.y
        if t.destroyed or t.side != enemy or dx * dx + dy * dy > reach2 or _hypot(dx, dy) > reach:
            continue
        out += _zone_target_shots(game, ship, zone, t, memo)
    return out


def _zone_target_shots(game: Table, ship: Ship, zone: str, t: Ship, memo: dict[Any, Any]) -> list[ShotOpt]:
    """_ship_shots at one enemy ship, of one hull zone, kept in ``memo``, ship_memo("zone-target-shots"), while no
    ship moves (the activation's group_dice and ship_shots share them)."""
    key = (ship.uid, zone, t.uid)  # the memo holds while every ship stays where it is
    known: list[ShotOpt] | None = memo.get(key)
    if known is not None:
        return known
    tp = ship.fp.targets[zone]
    pairs = pair_memo(game, ship)
    pkey = (zone, t.uid, t.x, t.y, t.a)
    seen: list[Sight] | None = pairs.get(pkey)
    if seen is None:
        seen = pairs[pkey] = _ship_sight(game, ship, zone, t)
    hit: list[ShotOpt] = []
    memo[key] = hit
    for tz, band, colours, goal in seen:
        blocked = obstructed(game, tp, goal, ship, t)
        hit.append(ShotOpt(ship, zone, t, tz, band, _obstruct(list(colours), blocked), blocked))
    return hit


def _ship_sight(game: Table, ship: Ship, zone: str, t: Ship) -> list[Sight]:
    """(defending zone, band, dice, the point aimed at) of each hull zone of ``t`` that ``ship``'s ``zone`` has
    in arc and range with a line of sight (RRG 'Line of Sight': not traced through another zone of ``t``)."""
    out: list[Sight] = []
    seen = arc_test(ship.fp, zone, t.x, t.y, fp_reach(size_of(t)))
    if seen < 0:
        return out  # no hull zone of t can be in the arc
    for tz in ZONES:
        sight = _zone_sight(game, ship, zone, t, tz, seen)
        if sight is not None:
            out.append(sight)
    return out


def _zone_sight(game: Table, ship: Ship, zone: str, t: Ship, tz: str, seen: int) -> Sight | None:
    """_ship_sight's entry for one defending hull zone ``tz`` (None: not in arc or range, or no line of sight);
    ``seen``: arc_test of ``t``'s disc."""
    fp, tfp = ship.fp, t.fp
    part = arc_part(tfp.zones[tz], fp, zone, seen)
    if not part:
        return None
    band = zone_band(fp.zones[zone], part, fp.arcs[zone][0], game.geo.ruler)
    colours = ship.arms().pools[ZONE_INDEX[zone]][band]
    if not colours:
        return None
    goal = tfp.targets[tz]
    tp = fp.targets[zone]
    if any(segment_hits_poly(tp, goal, tfp.zones[oz]) for oz in ZONES if oz != tz):
        return None  # no line of sight: traced through another hull zone of the defender
    return tz, band, colours, goal


def _zone_target_dice(game: Table, ship: Ship, zone: str, t: Ship, cap: int) -> int:
    """The most dice of _zone_target_shots(ship, zone, t) (0: none), the defending zones measured one by one and
    no further once one has ``cap`` dice, a bound no shot of the zone exceeds (dice_bounds); from the memos when
    they hold the zone's shots."""
    hit: list[ShotOpt] | None = ship_memo(game, "zone-target-shots").get((ship.uid, zone, t.uid))
    if hit is not None:
        return max([len(o.colours) for o in hit], default=0)
    sights: Iterable[Sight | None] | None = pair_memo(game, ship).get((zone, t.uid, t.x, t.y, t.a))
    best, tp = 0, ship.fp.targets[zone]
    if sights is None:  # measured here, one defending zone at a time as the loop asks (not kept: it may stop early)
        seen = arc_test(ship.fp, zone, t.x, t.y, fp_reach(size_of(t)))
        if seen < 0:
            return 0
        sights = (_zone_sight(game, ship, zone, t, tz, seen) for tz in ZONES)
    for sight in sights:
        if sight is None:
            continue
        dice = len(_obstruct(list(sight[2]), obstructed(game, tp, sight[3], ship, t)))
        if dice > best:
            best = dice
            if best >= cap:
                break
    return best


def engaged_with(game: Table, q: Squad) -> list[Squad]:
    d1 = game.geo.ruler.distance[0]
    r = game.geo.squadron_base.radius
    return [e for e in game.live_squads(game.enemy(q.side))
            if _hypot(e.x - q.x, e.y - q.y) - 2 * r <= d1]


def squad_shots(game: Table, q: Squad) -> list[ShotOpt]:
    """A squadron attacks at distance 1; engaged, it must attack a squadron (RRG 'Engagement')."""
    engaged = engaged_with(game, q)
    if engaged:
        anti = parse_dice(q.spec.anti_squadron)
        escorts = [e for e in engaged if e.keyword("escort")]
        pool = escorts or engaged  # Escort: engaged squadrons must attack Escorts first
        return [ShotOpt(q, None, e, None, "close", list(dice_pool(anti, "close")), False) for e in pool]
    d1 = game.geo.ruler.distance[0]
    out = []
    battery = parse_dice(q.spec.battery)
    for s in game.live_ships(game.enemy(q.side)):
        if _hypot(s.x - q.x, s.y - q.y) > d1 + 100:
            continue
        for tz in ZONES:
            if poly_within(q.poly, s.fp.zones[tz], d1):
                goal = s.fp.targets[tz]
                near = closest_point(goal, q.poly)
                if any(segment_hits_poly(near, goal, s.fp.zones[oz]) for oz in ZONES if oz != tz):
                    continue
                out.append(ShotOpt(q, None, s, tz, "close", list(dice_pool(battery, "close")), False))
    return out


def threat_dice(game: Table, ship: Ship) -> int:
    """Most dice an unactivated enemy ship in range could roll at ``ship`` (ARM.DEF.BRACE)."""
    best = 0
    for e in game.live_ships(game.enemy(ship.side)):
        if e.activated or e is game.active:
            continue
        per_zone: dict[str | None, int] = {}
        for o in ship_shots(game, e, ships_only=True):
            if o.target is ship:
                per_zone[o.zone] = max(per_zone.get(o.zone, 0), len(o.colours))
        if per_zone:
            best = max(best, max(per_zone.values()))
    return best


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
