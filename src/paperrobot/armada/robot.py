"""The Imperial AI as a controller: measures the table for each request and asks ai.py to decide.

``Robot.decide(request)`` reads ``request.state`` (the game) and ``request.subject`` (what is asked about),
never changes them, and answers with an option key of the request and the reasons (rule, dice, sentence).
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

from ..core.contract import Decision, Option, Reason, Request
from ..core.dice import Dice
from ..core.robot_rules import RobotRules
from . import ai
from .procedure import numbers
from .geometry import Footprint, Pose
from .measure import ShotOpt, size_of
from .sides import IMPERIAL, REBEL
from .geometry import ADJACENT
from .ranges import poly_within
from .tactics import angle_diff, course_table, double_arc_sieve, double_arcs, nearest, nearest_ship, ship_radius
from .state import Ship, Squad

if TYPE_CHECKING:
    # the engine, typed as its class (not Any): compiled, its fields and methods are then read natively
    from .table import Measures

# math functions as constants (Final): compiled, called without looking them up in the math module each time
_hypot: Final = math.hypot
_atan2: Final = math.atan2
_degrees: Final = math.degrees


def to_shots(shots: Sequence[Any]) -> list[ai.Shot]:
    """The engine's measured attacks (ShotOpt, or options holding them) as the AI's Shot records."""
    out = []
    for o in shots:
        s = o if isinstance(o, ShotOpt) else o.value
        if not isinstance(s, ShotOpt):
            continue
        target = s.target
        if isinstance(target, Squad):
            out.append(ai.Shot(s.zone or "squadron", target.uid, s.tzone, len(s.colours), target.hull, True))
        else:
            out.append(ai.Shot(s.zone or "squadron", target.uid, s.tzone, len(s.colours),
                               target.zone_shields(_tzone(s.tzone)), False))
    return out


def _tzone(tzone: str | None) -> str:
    """A shot at a ship names the defending hull zone (ShotOpt.tzone is None only for a squadron)."""
    assert tzone is not None
    return tzone


def _beyond(fp: Footprint, ship: Ship, e: Ship, limit: float) -> bool:
    """poly_distance(fp.base, e.fp.base) > limit (``fp``: a footprint of ``ship``). Bases whose circumscribed
    circles are more than ``limit`` and a micron apart are beyond it without measuring the polygons."""
    gap = _hypot(e.x - fp.centre[0], e.y - fp.centre[1]) - ship_radius(size_of(ship)) - ship_radius(size_of(e))
    if gap > limit + 1e-6:
        return True
    return not poly_within(fp.base, e.fp.base, limit)


def _flagship(ships: Sequence[Ship]) -> Ship:
    """The ship with the most points (then the highest uid): the first of the greatest, as max() takes it."""
    flag = ships[0]
    most = (flag.spec.points, flag.uid)
    for s in ships[1:]:
        k = (s.spec.points, s.uid)
        if k > most:
            flag, most = s, k
    return flag


class Robot:
    """Answers every Imperial request of the engine with the seed's rules (and their reasons). It rolls the
    game's dice (the one source of chance); what it remembers between decisions (the attack plan) is game state."""

    def __init__(self, dice: Dice, robot_rules: RobotRules | None = None):
        self.dice = dice
        self.n = numbers(robot_rules)  # the procedure's tables and numbers (procedure.py; None: the published)
        self._kinds: dict[str, Callable[[Request], Decision]] = {"style": self._style, "focal": self._focal, "zone": self._zone, "squadrons": self._squadrons,
                       "ai-command": self._ai_command, "activate": self._activate, "attack": self._attack,
                       "defend": self._defend, "maneuver": self._maneuver, "squadron-pick": self._squadron_pick,
                       "squadron": self._squadron}

    def decide(self, request: Request) -> Decision:
        return self._kinds[request.kind](request)

    # set-up
    def _style(self, request: Request) -> Decision:
        return ai.commander_style(self.dice, self.n)

    def _focal(self, request: Request) -> Decision:
        game = request.state
        dec = ai.focal_point(request.subject, self.dice, game.width, game.geo.ruler.distance, self.n)
        return Decision(repr(dec.action), dec.reasons)

    def _zone(self, request: Request) -> Decision:
        return ai.deployment_zone(self.dice, self.n)

    def _squadrons(self, request: Request) -> Decision:
        return ai.squadron_deployment(request.state.style, self.n)

    # ship phase
    def _ai_command(self, request: Request) -> Decision:
        game, ship = request.state, request.subject
        dec = self.command(game, ship)
        how, cmd = dec.action
        return Decision(f"{how}:{cmd}", dec.reasons)

    def command(self, game: Measures, ship: Ship) -> Decision:
        """ARM.CMD.ROLL / ARM.CMD.TOKEN / ARM.CMD.NAV: ('dial' | 'token', command)."""
        enemy_in, any_shot = self.in_reach(game, ship)
        missing = any(a < b for a, b in zip(ship.shields, ship.spec.shields))
        usable = {"navigate": True, "squadron": bool(game.in_squad_range(ship, IMPERIAL)),
                  "repair": bool(missing or ship.damage), "concentrate": any_shot}
        dec = ai.command(game.style, enemy_in, usable, set(ship.cmd_tokens), self.dice, self.n)
        if dec.action == ("dial", "navigate") and "navigate" not in ship.cmd_tokens:
            # ARM.CMD.NAV "otherwise they will simply take the appropriate token": look at the courses
            # the dial would open; if the chosen one does not need it, keep navigate as a token
            options = game.courses(ship, dial="navigate")  # the courses the dial would open (no state is changed)
            key = self.course(game, ship, options).action
            if not next(o for o in options if o.key == key).value[2]:
                dec = Decision(("token", "navigate"), dec.reasons + (Reason(
                    "ARM.CMD.NAV", "the formation needs no speed or yaw change: take a navigate token instead"),))
        return dec

    @staticmethod
    def in_reach(game: Measures, ship: Ship) -> tuple[bool, bool]:
        """(an enemy ship, any enemy) in arc and range of a legal attack: any(shot at a ship) and any(shot) of
        game.ship_shots(ship), found group by group (the ships first, most dice first: those the activation has
        measured), each measured only until one answers; a group that dice_bounds leaves out has no shot."""
        bounds: list[tuple[Ship | None, int, list[int]]] = game.dice_bounds(ship)
        # sorted by (squadrons last, highest bound first), ties in their order (a stable sort: the index)
        order = sorted([(e[0] is None, -e[1], i) for i, e in enumerate(bounds)])
        for _, _, i in order:
            g, _, zones = bounds[i]
            if game.group_has_shot(ship, g, zones):
                return g is not None, True
        return False, False

    def _activate(self, request: Request) -> Decision:
        """ARM.ACT.ORDER. ai.activation takes the ship with the most dice on one enemy target group first; only what
        can change its choice, die or text is measured, and only the candidates that can still be chosen are passed
        on (the choice, die and text depend on the tied candidates of the first tier that holds any, and on nothing
        else). The groups of every candidate are measured from the highest bound (dice_bounds) down: a group whose
        bound is below the most dice measured cannot reach it. A tie is broken by a single double-arced enemy, so
        a tied ship is measured whole. The squadron and stay-out facts are found only when no ship has dice, and
        stay-out only when no ship has squadrons."""
        game: Measures = request.state
        cands = request.subject
        found: list[tuple[int, int, Ship | None, list[int]]] = [
            (bound, i, g, zones) for i, s in enumerate(cands) for g, bound, zones in game.dice_bounds(s)]
        # highest bound first, ties in their order (a stable sort: the index)
        groups = [found[k] for _, k in sorted([(-e[0], k) for k, e in enumerate(found)])]
        best, most = 0, [0] * len(cands)
        for bound, i, g, zones in groups:
            if bound < best:
                break  # the rest (bounds in descending order) cannot reach the best
            total = game.group_dice(cands[i], g, zones)
            most[i] = max(most[i], total)
            best = max(best, total)
        if best:  # tier 1: the ships with the most dice
            tied = [i for i in range(len(cands)) if most[i] == best]
            if len(tied) == 1:
                return ai.activation([ai.ActInfo(cands[tied[0]].uid, best, None)], self.dice)
            infos = []
            for i in tied:
                totals = ai.target_totals(to_shots(game.ship_shots(cands[i])))
                doubles = [g for g, (_, z) in totals.items() if g != "squadrons" and len(z) == 2]
                infos.append(ai.ActInfo(cands[i].uid, best, len(doubles) == 1))
            return ai.activation(infos, self.dice)
        squads = [s.spec.squadron > 0 and bool(game.in_squad_range(s, IMPERIAL)) for s in cands]
        if any(squads):  # tier 2 holds some: tier 3's facts are not read
            return ai.activation([ai.ActInfo(s.uid, 0, False, q) for s, q in zip(cands, squads)], self.dice)
        enemies = game.live_ships(REBEL)
        return ai.activation([ai.ActInfo(s.uid, 0, False, False, self._stays_out(game, s, enemies)) for s in cands],
                             self.dice)

    @staticmethod
    def _stays_out(game: Measures, ship: Ship, enemies: Sequence[Ship]) -> bool:
        """ARM.ACT.ORDER tier 3: some course on the table, overlapping no ship, ends beyond long range of every enemy."""
        long_r = game.geo.ruler.long
        # every course placed at once (course_table: joints shared, the ships that could be bumped listed once)
        for _, fp, on, bump in course_table(game, ship, game.courses(ship)):
            if on and not bump and all(_beyond(fp, ship, e, long_r) for e in enemies):
                return True
        return False

    def _attack(self, request: Request) -> Decision:
        game = request.state
        shots = to_shots(request.subject)
        plan = game.plan if game.attacks_left < 2 else None
        dec = ai.choose_attack(shots, self.dice, game.attacks_left, plan)
        if dec.action is None:
            return Decision("pass", dec.reasons)
        zone, group, chosen = dec.action
        keys = []
        for c in chosen:
            key = f"{zone}>{c.target}" + (f":{c.target_zone}" if c.target_zone else "")
            keys.append(key)
        return Decision("+".join(keys) if group == "squadrons" else keys[0], dec.reasons)

    def _defend(self, request: Request) -> Decision:
        view = request.subject
        game = view["game"]
        ship: Ship = view["ship"]
        shot: ShotOpt = view["shot"]
        zone = _tzone(shot.tzone)
        v = ai.DefenceView(view["faces"], view["colours"], shot.band if not view["squad_attack"] else "close",
                           [(k, e) for k, e in ship.tokens], set(view["locked"]), ship.zone_shields(zone),
                           max(ship.zone_shields(z) for z in ADJACENT[zone]), ship.hull_left, view["threat"],
                           view["squad_attack"] and not view["bomber"], game.setup.evade_close)
        dec = ai.defence(v, self.n)
        return Decision("+".join(k for k, _ in dec.action) or "none", dec.reasons)

    def _maneuver(self, request: Request) -> Decision:
        return self.course(request.state, request.subject, request.options)

    def course(self, game: Measures, ship: Ship, options: Sequence[Option]) -> Decision:
        """ARM.CMD.NAV: keep formation, break it for a double arc (ARM.OVERRIDE: stay on the table, do not ram)."""
        enemies: list[Ship] = game.live_ships(REBEL)
        flag = _flagship(game.live_ships(IMPERIAL))
        target = nearest_ship(enemies, flag.x, flag.y)
        aim: tuple[float, float] = (target.x, target.y) if target else game.focal
        # the same question asked again while no ship moves (ship_memo: the navigate look-ahead's courses are the
        # maneuver's when the dial is kept) has the same answer: it reads the options, the ship's slot, the flagship's
        # speed, the aim and the places of the ships (the memo's key), nothing else (the rule and its text kept)
        known: dict[object, Decision] = game.ship_memo("course-decision")
        asked = (ship.uid, ship.slot, flag.speed, None if target else aim, tuple(options))
        dec = known.get(asked)
        if dec is not None:
            return Decision(dec.action, dec.reasons)
        facts = course_table(game, ship, options)
        courses: list[ai.Course] = []
        for o, ((x, y, a), _, on, bump) in zip(options, facts):
            dx, dy = aim[0] - x, aim[1] - y
            # keep the slot: aim at the point beside the aim point matching the ship's place in line
            n = _hypot(dx, dy) or 1.0
            ax, ay = aim[0] - dy / n * ship.slot, aim[1] + dx / n * ship.slot
            want = _atan2(ay - y, ax - x)
            err = _degrees(angle_diff(a, want)) * 3
            value: tuple[int, tuple[int, ...], bool] = o.value  # typed: unpacked without an iterator, compiled
            speed, clicks, needs = value
            if ship is not flag:
                err += abs(speed - flag.speed) * 20
            courses.append(ai.Course(o.key, speed, clicks, None, err, on, bump, needs))
        # The double arcs are measured only where ai.course reads them: among the courses it may take (those on
        # the table that overlap no ship, else those on the table, else all: its ARM.OVERRIDE pool), in its order
        # (least formation error, then key), up to the first course that has one. Its choice is the same as with
        # every course measured: a later course with a double arc has a larger (error, key), one outside the pool
        # is never taken. (The pool and its order are lists of indices into courses.)
        pool = ([i for i, c in enumerate(courses) if c.on_table and not c.overlap]
                or [i for i, c in enumerate(courses) if c.on_table] or list(range(len(courses))))
        # the navigate look-ahead and the maneuver see the same courses: kept per ship, by course key (the memo
        # lasts while no ship moves, so a ship's course key names one end pose)
        memo: dict[str, dict[str, list[str]]] = game.ship_memo("double-arcs")
        doubles = memo.get(ship.uid)
        if doubles is None:
            doubles = memo[ship.uid] = {}
        todo = [i for i in pool if courses[i].key not in doubles]
        poses: list[Pose] = [facts[i][0] for i in todo]
        for i, maybe in zip(todo, double_arc_sieve(ship, poses, enemies, game.geo.ruler)):
            if not maybe:  # the sieve settles most courses from their centres alone
                doubles[courses[i].key] = []
        # the courses that may have one (most have none: the memo holds []), by (error, key), ties in their order
        # (a stable sort: the index); a course the memo settles as none is passed over in any order
        unsettled = [i for i in pool if doubles.get(courses[i].key) != []]
        order = [i for _, _, i in sorted([(courses[i].formation_error, courses[i].key, i) for i in unsettled])]
        for i in order:
            c = courses[i]
            da = doubles.get(c.key)
            if da is None:
                da = doubles[c.key] = double_arcs(ship, facts[i][1], enemies, game.geo.ruler, first=True)
            if da:
                c.double_arc = da[0]
                break
        dec = known[asked] = ai.course(courses)
        return Decision(dec.action, dec.reasons)

    # squadrons
    def _squadron_pick(self, request: Request) -> Decision:
        game: Measures = request.state
        enemy: list[Ship] | list[Squad] = game.live_squads(REBEL) or game.live_ships(REBEL)
        first = ""
        best: tuple[float, str] | None = None
        for q in request.subject:  # the first of the least (distance to the nearest enemy, uid)
            near = math.inf
            for e in enemy:
                near = min(near, _hypot(e.x - q.x, e.y - q.y))
            if best is None or (near, q.uid) < best:
                best, first = (near, q.uid), q.uid
        return Decision(first, (Reason("ARM.SQ.MOVE", f"{first} is the closest to the enemy: it activates first"),))

    def _squadron(self, request: Request) -> Decision:
        return self.decide_squadron(request.subject, request.options)

    def decide_squadron(self, view: dict[str, Any], options: Sequence[Option]) -> Decision:
        q: Squad = view["squad"]
        g: Any = view["game"]
        shots = [o for o in options if isinstance(o.value, ShotOpt)]
        sq_shots = [o for o in shots if isinstance(o.value.target, Squad)]
        if sq_shots:
            targets = [ai.SquadTarget(o.value.target.uid, o.value.target.hull, bool(o.value.target.keyword("escort")),
                                      bool(o.value.target.keyword("counter"))) for o in sq_shots]
            dec = ai.squadron_target(targets, self.dice, self.n)
            key = next(o.key for o in sq_shots if o.value.target.uid == dec.action)
            return Decision(key, dec.reasons)
        ship_shots = [o for o in shots if isinstance(o.value.target, Ship)]
        moves = [o for o in options if o.key.startswith("move:")]
        if ship_shots and (not moves or view["did_move"] or not view["ordered"]):
            best = ship_shots[0]
            least = (best.value.target.zone_shields(best.value.tzone), best.key)
            for o in ship_shots[1:]:  # the first of the least (shields of the zone, key)
                k = (o.value.target.zone_shields(o.value.tzone), o.key)
                if k < least:
                    best, least = o, k
            rule = "ARM.TARGET.WEAKARC" if view["ordered"] else "ARM.OVERRIDE"
            text = (f"attack {best.value.target.uid} in its {best.value.tzone} zone, the fewest shields in reach"
                    if view["ordered"] else f"an enemy ship is already in reach: attack {best.value.target.uid} "
                    f"({best.value.tzone} zone, fewest shields) instead of drifting back to formation")
            return Decision(best.key, (Reason(rule, text),))
        if not moves or view["did_move"]:
            return Decision("pass", (Reason("ARM.SQ.MOVE", "nothing more to do"),))
        geo = g.geo
        reach = geo.ruler.distance[q.spec.speed - 1] + geo.ruler.distance[0] + 2 * geo.squadron_base.radius
        esq = nearest(g.live_squads(REBEL), q.x, q.y)
        eship = nearest_ship(g.live_ships(REBEL), q.x, q.y)
        can_reach = esq is not None and _hypot(esq.x - q.x, esq.y - q.y) <= reach
        dec = ai.squadron_move(q.uid, esq.uid if esq else None, can_reach, eship.uid if eship else None, view["ordered"])
        what, uid = dec.action
        if what in ("engage", "attack"):
            return Decision(f"move:{uid}", dec.reasons)
        home = nearest_ship(g.live_ships(IMPERIAL), q.x, q.y)
        if home is None:
            return Decision("stay", dec.reasons)
        return Decision(f"move:{home.uid}", dec.reasons)
