"""The faster geometry of issue #16 gives the same answers as the plain code it replaced, bit for bit: the
reference functions below are the code before the speed-up, run side by side on random shapes (including
touching and grazing ones, where the EPS tests decide)."""
import math
import random

import pytest

from paperrobot.armada import player as player_module
from paperrobot.armada.data import geometry
from paperrobot.armada.geometry import arc_clip, arc_part, arc_test, arc_tests, clip_to_arc, footprint, fp_reach
from paperrobot.armada.polygons import EPS, circle, overlaps, poly_distance, segment_hits_poly
from paperrobot.armada.ranges import poly_within, range_band, within, zone_band
from paperrobot.armada.tactics import ship_radius
from paperrobot.core.words import signed  # the course labels in words (issue 26); keys and values as before


# ---------------------------------------------------------------- the code before the speed-up
def _cross(o, a, b):
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _clip(poly, p, q, keep):
    side = 1.0 if _cross(p, q, keep) >= 0 else -1.0
    px, py = p
    ux, uy = q[0] - px, q[1] - py
    ds = [side * (ux * (v[1] - py) - uy * (v[0] - px)) for v in poly]
    out = []
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


def old_clip_to_arc(poly, arc):
    apex, r1, r2 = arc
    mid = ((r1[0] + r2[0]) / 2, (r1[1] + r2[1]) / 2)
    inside = (apex[0] + (mid[0] - apex[0]) * 10, apex[1] + (mid[1] - apex[1]) * 10)
    out = _clip(poly, apex, r1, inside)
    if out:
        out = _clip(out, apex, r2, inside)
    return out


def old_segments_cross(a, b, c, d):
    d1, d2 = _cross(c, d, a), _cross(c, d, b)
    d3, d4 = _cross(a, b, c), _cross(a, b, d)
    return ((d1 > EPS and d2 < -EPS) or (d1 < -EPS and d2 > EPS)) and \
           ((d3 > EPS and d4 < -EPS) or (d3 < -EPS and d4 > EPS))


def old_point_in_poly(p, poly):
    inside = False
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        if (a[1] > p[1]) != (b[1] > p[1]):
            x = a[0] + (p[1] - a[1]) * (b[0] - a[0]) / (b[1] - a[1])
            if x > p[0]:
                inside = not inside
    return inside


def old_apart(p, q):
    px = [x for x, _ in p]
    qx = [x for x, _ in q]
    if max(px) < min(qx) or max(qx) < min(px):
        return True
    py = [y for _, y in p]
    qy = [y for _, y in q]
    return max(py) < min(qy) or max(qy) < min(py)


def old_edges_to_points(p, q, best):
    n = len(p)
    for i in range(n):
        ax, ay = p[i]
        bx, by = p[(i + 1) % n]
        dx, dy = bx - ax, by - ay
        L = dx * dx + dy * dy
        for px, py in q:
            ex, ey = px - ax, py - ay
            t = (ex * dx + ey * dy) / L if L else 0.0
            t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
            fx, fy = ex - t * dx, ey - t * dy
            best = min(best, fx * fx + fy * fy)
    return best


def old_poly_distance(p, q):
    if not p or not q:
        return math.inf
    if not old_apart(p, q):
        n, m = len(p), len(q)
        for i in range(n):
            for j in range(m):
                if old_segments_cross(p[i], p[(i + 1) % n], q[j], q[(j + 1) % m]):
                    return 0.0
        if old_point_in_poly(p[0], q) or old_point_in_poly(q[0], p):
            return 0.0
    return math.sqrt(old_edges_to_points(q, p, old_edges_to_points(p, q, math.inf)))


def old_overlaps(p, q):
    if old_apart(p, q):
        return False
    n, m = len(p), len(q)
    for i in range(n):
        for j in range(m):
            if old_segments_cross(p[i], p[(i + 1) % n], q[j], q[(j + 1) % m]):
                return True
    cp = (sum(x for x, _ in p) / n, sum(y for _, y in p) / n)
    cq = (sum(x for x, _ in q) / m, sum(y for _, y in q) / m)
    return old_point_in_poly(cp, q) or old_point_in_poly(cq, p)


def old_segment_hits_poly(a, b, poly):
    if old_apart([a, b], poly):
        return False
    n = len(poly)
    for i in range(n):
        if old_segments_cross(a, b, poly[i], poly[(i + 1) % n]):
            return True
    return old_point_in_poly(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), poly)


def old_to_world(x, y, a, u, v):
    c, s = math.cos(a), math.sin(a)
    return (x + u * c - v * s, y + u * s + v * c)


# ---------------------------------------------------------------- random shapes
def _shapes(rng, count):
    sizes = list(geometry().sizes.values())
    for _ in range(count):
        size = rng.choice(sizes)
        a = rng.choice([0.0, math.pi / 2, math.pi, rng.uniform(-math.pi, math.pi)])
        fp = footprint(size, rng.uniform(0, 900), rng.uniform(0, 900), a)
        other = footprint(rng.choice(sizes), fp.centre[0] + rng.uniform(-450, 450), fp.centre[1] + rng.uniform(-450, 450),
                          rng.uniform(-math.pi, math.pi))
        if rng.random() < 0.2:  # grazing: a copy of a zone moved along one of its own edges, or exactly aside
            z = rng.choice(list(fp.zones))
            dx, dy = rng.choice([(0.0, 0.0), (1e-7, 0.0), (0.0, 123.3), (186.5, 0.0)])
            yield fp, size, [(x + dx, y + dy) for x, y in fp.zones[z]], other
        else:
            yield fp, size, rng.choice([other.base, *other.zones.values(), circle(*other.centre, 16.5)]), other


def test_footprints_and_clipping_are_those_of_the_code_before():
    rng = random.Random(16)
    for fp, size, poly, _ in _shapes(rng, 3000):
        x, y = fp.centre
        a = math.atan2(fp.base[0][1] - fp.base[1][1], fp.base[0][0] - fp.base[1][0])  # (any heading will do below)
        again = footprint(size, x, y, a)
        bw, bl = size.base
        assert again.base[0] == old_to_world(x, y, a, bl / 2, bw / 2)
        assert again.zones["rear"][1] == old_to_world(x, y, a, -size.token[1] / 2, size.token[0] / 2)
        assert again.targets["left"] == old_to_world(x, y, a, size.token[1] / 2 - size.target_side[1], size.target_side[0])
        for z in fp.arcs:
            part = old_clip_to_arc(poly, fp.arcs[z])
            assert clip_to_arc(poly, fp.arcs[z]) == part
            assert arc_clip(poly, fp, z) == part


def test_distances_overlaps_and_sight_lines_are_those_of_the_code_before():
    rng = random.Random(1016)
    ruler = geometry().ruler
    for fp, _, poly, other in _shapes(rng, 3000):
        for z in fp.zones:
            zone = fp.zones[z]
            d = old_poly_distance(zone, poly)
            assert poly_distance(zone, poly) == d
            for limit in (ruler.distance[0], ruler.close, ruler.medium, ruler.long, d):
                assert poly_within(zone, poly, limit) == (d <= limit) == poly_within(poly, zone, limit)
            assert overlaps(zone, poly) == old_overlaps(zone, poly)
            assert overlaps(poly, zone) == old_overlaps(poly, zone)
            a, b = fp.targets[z], other.targets[rng.choice(list(other.targets))]
            assert segment_hits_poly(a, b, poly) == old_segment_hits_poly(a, b, poly)
            part = old_clip_to_arc(poly, fp.arcs[z])
            if part:
                apex = fp.arcs[z][0]
                assert zone_band(zone, part, apex, ruler) == range_band(old_poly_distance(zone, part), ruler)
                for limit in (ruler.close, ruler.medium, ruler.long):
                    assert within(zone, part, apex, limit) == (old_poly_distance(zone, part) <= limit)


def test_bases_whose_circles_are_apart_do_not_overlap():
    """The overlap test skipped for ships (and squadrons) whose centres are further apart than their radii."""
    rng = random.Random(2016)
    sizes = list(geometry().sizes.values())
    for _ in range(3000):
        s1, s2 = rng.choice(sizes), rng.choice(sizes)
        f1 = footprint(s1, 0.0, 0.0, rng.uniform(-math.pi, math.pi))
        gap = ship_radius(s1) + ship_radius(s2) + 1.0 + rng.uniform(0.0, 0.5)
        t = rng.uniform(-math.pi, math.pi)
        f2 = footprint(s2, gap * math.cos(t), gap * math.sin(t), rng.uniform(-math.pi, math.pi))
        assert not old_overlaps(f1.base, f2.base)
        r = 16.5
        q = circle((ship_radius(s1) + 1.1 * r + 1.0) * math.cos(t), (ship_radius(s1) + 1.1 * r + 1.0) * math.sin(t), r)
        assert not old_overlaps(f1.base, q)


def _near_threshold(rng, count):
    """A hull zone and the part of another polygon in its arc, moved so that their distance lies within a few
    microns of a range band's end (where the cheap bounds of zone_band and within must give way to the exact
    distance)."""
    ruler = geometry().ruler
    sizes = list(geometry().sizes.values())
    made = 0
    while made < count:
        fp = footprint(rng.choice(sizes), 450.0, 450.0, rng.uniform(-math.pi, math.pi))
        z = rng.choice(list(fp.zones))
        other = footprint(rng.choice(sizes), 0.0, 0.0, rng.uniform(-math.pi, math.pi))
        poly = rng.choice([other.base, *other.zones.values(), circle(0.0, 0.0, 16.5)])
        t = rng.uniform(-math.pi, math.pi)
        end = rng.choice([ruler.close, ruler.medium, ruler.long])
        # put the polygon's centre at the wanted distance, then slide it along the line so the gap is ``end``
        gx, gy = math.cos(t), math.sin(t)
        cx, cy = fp.targets[z]
        moved = [(x + cx + gx * (end + 60), y + cy + gy * (end + 60)) for x, y in poly]
        part = old_clip_to_arc(moved, fp.arcs[z])
        if not part:
            continue
        d = old_poly_distance(fp.zones[z], part)
        shift = end - d + rng.choice([0.0, 1e-9, -1e-9, 1e-6, -1e-6, 1e-3, -1e-3, 0.5, -0.5])
        moved = [(x + gx * shift, y + gy * shift) for x, y in moved]
        part = old_clip_to_arc(moved, fp.arcs[z])
        if part:
            made += 1
            yield fp, z, part


def test_bands_at_their_ends_are_those_of_the_exact_distance():
    """The range band gathers the dice (RRG 'Attack' step 2) that ARM.TARGET.DICE counts: zone_band and within
    use cheap bounds of the distance only where a micron cannot change the band; at a band's end they measure
    exactly, as before."""
    from paperrobot.armada.ranges import _gap_bounds
    rng = random.Random(3016)
    ruler = geometry().ruler
    for fp, z, part in _near_threshold(rng, 3000):
        zone, apex = fp.zones[z], fp.arcs[z][0]
        d = old_poly_distance(zone, part)
        lo, hi = _gap_bounds(zone, part, math.inf)
        assert lo <= d + 1e-9 and d <= hi + 1e-9
        assert zone_band(zone, part, apex, ruler) == range_band(d, ruler)
        for limit in (ruler.close, ruler.medium, ruler.long):
            assert within(zone, part, apex, limit) == (d <= limit)
            assert poly_within(zone, part, limit) == (d <= limit) == poly_within(part, zone, limit)


def old_footprint(size, x, y, a):
    """footprint() before its points were taken from a table per size (issue #16)."""
    bw, bl = size.base
    tw, tl = size.token
    hw, hl = tw / 2, tl / 2

    def w(u, v):
        return old_to_world(x, y, a, u, v)

    base = [w(bl / 2, bw / 2), w(-bl / 2, bw / 2), w(-bl / 2, -bw / 2), w(bl / 2, -bw / 2)]
    apex = w(hl - size.arc_centre, 0.0)
    fl, fr = w(hl - size.front_end, hw), w(hl - size.front_end, -hw)
    rl, rr = w(hl - size.rear_end, hw), w(hl - size.rear_end, -hw)
    zones = {"front": [w(hl, hw), fl, apex, fr, w(hl, -hw)], "left": [fl, rl, apex], "right": [fr, apex, rr],
             "rear": [rl, w(-hl, hw), w(-hl, -hw), rr, apex]}
    arcs = {"front": (apex, fl, fr), "left": (apex, fl, rl), "right": (apex, fr, rr), "rear": (apex, rl, rr)}
    sx, sy = size.target_side
    targets = {"front": w(hl - size.target_front, 0.0), "rear": w(hl - size.target_rear, 0.0),
               "left": w(hl - sy, sx), "right": w(hl - sy, -sx)}
    return base, zones, arcs, targets, (x, y)


def test_every_point_of_a_footprint_is_that_of_the_code_before():
    rng = random.Random(4016)
    sizes = list(geometry().sizes.values())
    for _ in range(2000):
        size = rng.choice(sizes)
        x, y = rng.uniform(0, 1800), rng.uniform(0, 900)
        a = rng.choice([0.0, math.pi / 2, -math.pi, rng.uniform(-math.pi, math.pi), rng.uniform(-20, 20)])
        fp = footprint(size, x, y, a)
        assert (fp.base, fp.zones, fp.arcs, fp.targets, fp.centre) == old_footprint(size, x, y, a)


def test_a_disc_outside_or_inside_an_arc_is_clipped_as_before():
    """arc_test skips clipping a ship's hull zones (or a squadron) whose disc lies outside an arc (the clip of the
    code before is then empty) or inside it (the clip keeps the polygon whole), for discs placed anywhere and for
    discs a hair from an arc's edge line, on either side (with a triangle on the disc's rim whose corner is the
    rim's point nearest that line)."""
    rng = random.Random(5016)
    sizes = list(geometry().sizes.values())
    seen = {-1: 0, 0: 0, 1: 0}
    for n in range(6000):
        fp = footprint(rng.choice(sizes), 450.0, 450.0, rng.uniform(-math.pi, math.pi))
        z = rng.choice(list(fp.zones))
        apex, r1, r2 = fp.arcs[z]
        size = rng.choice(sizes)
        r = rng.choice([1.1 * 16.5, fp_reach(size)])
        ray = rng.choice([r1, r2])
        ux, uy = ray[0] - apex[0], ray[1] - apex[1]
        length = math.hypot(ux, uy)
        sign = rng.choice([1.0, -1.0])  # either side of the line
        nx, ny = -uy / length * sign, ux / length * sign
        if n % 3 == 0:  # anywhere around the ship
            cx, cy = 450.0 + rng.uniform(-400, 400), 450.0 + rng.uniform(-400, 400)
        elif n % 3 == 1:  # well inside the arc, along its bisector
            far = rng.uniform(50, 600)
            mx, my = (r1[0] + r2[0]) / 2 - apex[0], (r1[1] + r2[1]) / 2 - apex[1]
            cx, cy = apex[0] + mx / math.hypot(mx, my) * far, apex[1] + my / math.hypot(mx, my) * far
        else:  # beside one edge line of the arc, the disc's rim within microns of it
            along = rng.uniform(0.5, 8.0)
            gap = rng.choice([0.0, 1e-9, 1e-6, 2e-6, 3e-6, 1e-5, -1e-6, 0.1])
            cx, cy = apex[0] + ux * along + nx * (r + gap), apex[1] + uy * along + ny * (r + gap)
        t = rng.uniform(0, 2 * math.pi)
        rim = [(cx - nx * r, cy - ny * r), (cx + r * math.cos(t), cy + r * math.sin(t)),
               (cx + r * math.cos(t + 2), cy + r * math.sin(t + 2))]
        rim2 = [(cx + nx * r, cy + ny * r), (cx + r * math.cos(t), cy + r * math.sin(t)),
                (cx + r * math.cos(t + 2), cy + r * math.sin(t + 2))]
        other = footprint(size, cx, cy, rng.uniform(-math.pi, math.pi))
        polys = [rim, rim2, circle(cx, cy, 16.5)] + ([other.base, *other.zones.values()] if r == fp_reach(size) else [])
        test = arc_test(fp, z, cx, cy, r)
        seen[test] += 1
        assert arc_tests(fp, list(fp.zones), cx, cy, r) == [arc_test(fp, w, cx, cy, r) for w in fp.zones]
        for poly in polys:
            assert arc_part(poly, fp, z, test) == old_clip_to_arc(poly, fp.arcs[z])
    assert min(seen.values()) > 500  # every answer is tried


def old_policy_maneuver(request):
    """The Rebel policy's course choice before it measured only the courses that could still win (issue #16)."""
    from paperrobot.armada.player import IMPERIAL
    from paperrobot.armada.tactics import angle_diff, arc_dice, course_facts, nearest
    game, options, ship = request.state, request.options, request.subject
    enemies = game.live_ships(IMPERIAL)
    target = nearest(enemies, ship.x, ship.y)
    best, score = options[0].key, math.inf
    for o in options:
        (x, y, a), fp, on, bump = course_facts(game, ship, o)
        s = 0.0 if on else 1e6
        s += 1e4 if bump else 0.0
        s -= 40.0 * sum(sorted(arc_dice(ship, fp, enemies, game.geo.ruler).values())[-2:])
        if target is not None:
            s += math.degrees(angle_diff(a, math.atan2(target.y - y, target.x - x))) / 10
        s += 5.0 if o.value[2] else 0.0
        if s < score:
            best, score = o.key, s
    return best


@pytest.mark.skipif(str(player_module.__file__).endswith(".so"),
                    reason="a compiled class cannot be subclassed by interpreted code: the policy is the same source "
                           "both ways, and CI's pure-Python run checks it")
def test_the_rebel_policy_steers_as_before():
    """The policy's course, measured from the lowest floor up, is the course of the code that measured them all
    (every maneuver request of whole battles, standard and small table)."""
    import paperrobot
    from paperrobot.armada.player import Policy
    from paperrobot.core.contract import drive_all
    seen = 0

    class Checked(Policy):
        def _maneuver(self, request):
            nonlocal seen
            key = super()._maneuver(request)
            assert key == old_policy_maneuver(request)
            seen += 1
            return key

    for seed in range(8):
        for setup in ({}, {"imperial": "gladiator-i,tie-fighter*2", "rebel": "cr90-a,nebulon-b-escort,x-wing",
                           "table": "small"}):
            drive_all(paperrobot.new_game("armada", seed=seed, **setup), {"imperial": "robot", "rebel": Checked()})
    assert seen > 50


def test_course_ends_sharing_their_joints_are_those_of_one_maneuver_each():
    """RRG 'Ship Movement' with the maneuver tool: the ends of every course a ship could take (each speed, each
    yaw per joint, the navigate dial's extra click) from maneuvers() are maneuver()'s, bit for bit."""
    from itertools import product

    from paperrobot.armada.maneuver_tool import maneuver, maneuvers
    rng = random.Random(6016)
    tool = geometry().tool
    for _ in range(300):
        x, y, a = rng.uniform(0, 1800), rng.uniform(0, 900), rng.uniform(-math.pi, math.pi)
        length = rng.choice([71.0, 102.0, 129.0])
        moves = [(0, ())]
        for speed in range(1, 5):
            moves += [(speed, c) for c in product(*[range(-2, 3)] * speed)]
        rng.shuffle(moves)
        moves = moves[:rng.randint(1, 120)]
        assert maneuvers(x, y, a, length, moves, tool) == [maneuver(x, y, a, length, v, c, tool) for v, c in moves]


def old_courses(ship, dial=None):
    """Measures.courses before its lists were made once per card, speed and navigate state (issue #16)."""
    from itertools import product
    dial_now = ship.dial if dial is None else dial
    nav = "navigate" not in ship.used and (dial_now == "navigate" or "navigate" in ship.cmd_tokens)
    change = 2 if (nav and dial_now == "navigate" and "navigate" in ship.cmd_tokens) else 1 if nav else 0
    speeds = [v for v in range(ship.speed - change, ship.speed + change + 1) if 0 <= v <= ship.max_speed()]
    out, seen = [], set()
    dial = dial_now == "navigate" and "navigate" not in ship.used
    for v in speeds:
        chart = ship.spec.speed_chart[v - 1] if v else []
        charts = [(chart, False)] + ([(chart[:j] + [chart[j] + 1] + chart[j + 1:], True)
                                      for j in range(len(chart)) if chart[j] < 2] if dial else [])
        for row, extra in charts:
            for clicks in product(*[range(-y, y + 1) for y in row]):
                key = f"{v}:" + ",".join(str(c) for c in clicks)
                if key in seen:
                    continue
                seen.add(key)
                needs = v != ship.speed or (extra and any(abs(c) > y for c, y in zip(clicks, chart)))
                out.append((key, f"{key}  speed {v}, yaw {signed(clicks)}" + ("  (spends navigate)" if needs else ""),
                            (v, tuple(clicks), needs)))
    return out


def test_the_courses_of_every_card_speed_and_navigate_state_are_those_of_the_code_before():
    """ARM.CMD.NAV (the dial and the token change speed by one each, the dial adds a click): the courses offered,
    key, label and value, in order, whatever state the ship was in when the list was first made."""
    import paperrobot
    game = paperrobot.new_game("armada", seed=3, rebel="cr90-a,nebulon-b-escort,x-wing",
                               imperial="victory-ii,gladiator-i,tie-fighter*2").engine
    for ship in game.ships * 2:  # twice: the second round reads the lists made in the first
        for speed in range(ship.max_speed() + 1):
            for dial in (None, "navigate", "squadron"):
                for tokens in (set(), {"navigate"}):
                    for used in (set(), {"navigate"}):
                        ship.speed, ship.dial, ship.cmd_tokens, ship.used = speed, dial, set(tokens), set(used)
                        for look in (None, "navigate"):
                            got = [(o.key, o.label, o.value) for o in game.courses(ship, dial=look)]
                            assert got == old_courses(ship, dial=look)


def test_obstruction_skipping_far_blockers_is_that_of_every_blocker():
    """RRG 'Obstructed': the line of fire is obstructed as before, whether it passes far from a blocker, through it,
    or grazes the disc that holds it (a micron either side)."""
    import paperrobot
    rng = random.Random(7016)
    game = paperrobot.new_game("armada", seed=5).engine
    game._obstacles()
    ships = game.ships
    hits = 0
    for n in range(3000):
        for s in ships:
            s.x, s.y, s.a = rng.uniform(100, 1700), rng.uniform(100, 800), rng.uniform(-math.pi, math.pi)
        att, dfd = rng.sample(ships, 2)
        blockers = game.blockers(att, dfd)
        a = (rng.uniform(0, 1800), rng.uniform(0, 900))
        if n % 2:  # across a corner of a blocker (the furthest from its centre), a hair inside or outside it
            others = [s for s in ships if s is not att and s is not dfd] + game.obstacles
            o = rng.choice(others)
            poly = o.fp.base if hasattr(o, "fp") else o.poly
            cx, cy = poly[rng.randrange(len(poly))]
            ux, uy = cx - o.x, cy - o.y
            r = math.hypot(ux, uy)
            ux, uy = ux / r, uy / r
            off = rng.choice([-1e-2, -1e-5, -1e-7, 0.0, 1e-7, 2e-6, 1e-3])
            px, py = cx + ux * off, cy + uy * off  # on the line, which runs square to the centre-corner line
            along = rng.uniform(20, 300)
            a = (px - uy * along, py + ux * along)
            b = (px + uy * rng.uniform(20, 300), py - ux * rng.uniform(20, 300))
        else:
            b = (rng.uniform(0, 1800), rng.uniform(0, 900))
        want = any(segment_hits_poly(a, b, p) for p in blockers)
        hits += want
        assert game.obstructed(a, b, att, dfd) == want
    assert 100 < hits < 2900
