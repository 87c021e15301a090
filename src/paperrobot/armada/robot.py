"""The Imperial AI as a controller: measures the table for each request and asks ai.py to decide."""
from __future__ import annotations

import math

from ..core.controller import Decision, Reason, Request
from ..core.dice import Dice
from . import ai
from .data import geometry
from .game import IMPERIAL, REBEL, Option, ShotOpt
from .geometry import ADJACENT, poly_distance
from .tactics import angle_diff, course_facts, double_arcs, nearest
from .units import Ship, Squad


def to_shots(options) -> list[ai.Shot]:
    out = []
    for o in options:
        s = o.data
        if not isinstance(s, ShotOpt):
            continue
        sq = isinstance(s.target, Squad)
        out.append(ai.Shot(s.zone or "squadron", s.target.uid, s.tzone, len(s.colours),
                           s.target.hull if sq else s.target.zone_shields(s.tzone), sq))
    return out


class ImperialAI:
    """Answers every Imperial request of the engine with the seed's rules (and their reasons)."""

    def __init__(self, dice: Dice):
        self.dice = dice
        self.plan: str | None = None  # the target group chosen at an activation's first attack
        self.plan_for: tuple = ()

    def decide(self, request: Request) -> Decision:
        return getattr(self, "_" + request.kind.replace("-", "_"))(request.view, request.options)

    # set-up
    def _style(self, game, _):
        return ai.commander_style(self.dice)

    def _focal(self, game, xs):
        return ai.focal_point(xs, self.dice, game.width, geometry().ruler.distance[2])

    def _zone(self, game, _):
        return ai.deployment_zone(self.dice)

    def _squadrons(self, game, _):
        return ai.squadron_deployment(game.style)

    def formation(self, game) -> list[str]:
        order = ai.formation_order([(s.uid, s.spec.points, s.max_speed()) for s in game.live_ships(IMPERIAL)])
        fx = game.focal[0]
        # the fastest ships go on the outside flank: the flank away from the focal point's side
        return order if fx >= game.width / 2 else list(reversed(order))

    def deploy_speed(self, game, ship) -> int:
        return ai.deploy_speed(game.style, ship.max_speed())

    # ship phase
    def _ai_command(self, game, ship: Ship):
        shots = game.ship_shots(ship)
        enemy_in = any(isinstance(s.target, Ship) for s in shots)
        missing = any(a < b for a, b in zip(ship.shields, ship.spec.shields))
        usable = {"navigate": True, "squadron": bool(game.in_squad_range(ship, IMPERIAL)),
                  "repair": bool(missing or ship.damage), "concentrate": bool(shots)}
        dec = ai.command(game.style, enemy_in, usable, set(ship.cmd_tokens), self.dice)
        if dec.action == ("dial", "navigate") and "navigate" not in ship.cmd_tokens:
            # ARM.CMD.NAV "otherwise they will simply take the appropriate token": look at the courses
            # the dial would open; if the chosen one does not need it, keep navigate as a token
            was, ship.dial = ship.dial, "navigate"
            try:
                options = game.courses(ship)
                key = self._maneuver(game, options).action
            finally:
                ship.dial = was
            if not next(o for o in options if o.key == key).data[2]:
                dec = Decision(("token", "navigate"), dec.reasons + (Reason(
                    "ARM.CMD.NAV", "the formation needs no speed or yaw change: take a navigate token instead"),))
        return dec

    def _activate(self, game, options):
        infos = []
        enemies = game.live_ships(REBEL)
        for o in options:
            s: Ship = o.data
            shots = to_shots([Option("", "", x) for x in game.ship_shots(s)])
            totals = ai.target_totals(shots)
            best = max((t for t, _ in totals.values()), default=0)
            doubles = [g for g, (_, z) in totals.items() if g != "squadrons" and len(z) == 2]
            stay_out = False
            if not best:
                long_r = geometry().ruler.long
                for c in game.courses(s):
                    _, fp, on, bump = course_facts(game, s, c)
                    if on and not bump and all(poly_distance(fp.base, e.fp.base) > long_r for e in enemies):
                        stay_out = True
                        break
            infos.append(ai.ActInfo(s.uid, best, len(doubles) == 1, s.spec.squadron > 0 and
                                    bool(game.in_squad_range(s, IMPERIAL)), stay_out))
        return ai.activation(infos, self.dice)

    def _attack(self, game, options):
        shots = to_shots(options)
        plan = self.plan if game.attacks_left < 2 and self.plan_for == (game.round, game.active.uid) else None
        dec = ai.choose_attack(shots, self.dice, game.attacks_left, plan)
        if dec.action is None:
            return Decision("pass", dec.reasons)
        zone, group, chosen = dec.action
        self.plan, self.plan_for = group, (game.round, game.active.uid)
        keys = []
        for c in chosen:
            key = f"{zone}>{c.target}" + (f":{c.target_zone}" if c.target_zone else "")
            keys.append(key)
        return Decision(keys if group == "squadrons" else keys[0], dec.reasons)

    def _defend(self, view, options):
        game = view["game"]
        ship: Ship = view["ship"]
        shot: ShotOpt = view["shot"]
        zone = shot.tzone
        v = ai.DefenceView(view["faces"], view["colours"], shot.band if not view["squad_attack"] else "close",
                           [(k, e) for k, e in ship.tokens], set(view["locked"]), ship.zone_shields(zone),
                           max(ship.zone_shields(z) for z in ADJACENT[zone]), ship.hull_left, view["threat"],
                           view["squad_attack"] and not view["bomber"], game.setup.evade_close)
        dec = ai.defence(v)
        return Decision([k for k, _ in dec.action], dec.reasons)

    def _maneuver(self, game, options):
        ship: Ship = game.active
        enemies = game.live_ships(REBEL)
        flag = max(game.live_ships(IMPERIAL), key=lambda s: (s.spec.points, s.uid))
        target = nearest(enemies, flag.x, flag.y)
        aim = (target.x, target.y) if target else game.focal
        courses = []
        for o in options:
            (x, y, a), fp, on, bump = course_facts(game, ship, o)
            dx, dy = aim[0] - x, aim[1] - y
            # keep the slot: aim at the point beside the aim point matching the ship's place in line
            n = math.hypot(dx, dy) or 1.0
            ax, ay = aim[0] - dy / n * ship.slot, aim[1] + dx / n * ship.slot
            want = math.atan2(ay - y, ax - x)
            err = math.degrees(angle_diff(a, want)) * 3
            if ship is not flag:
                err += abs(o.data[0] - flag.speed) * 20
            da = double_arcs(ship, fp, enemies)
            courses.append(ai.Course(o.key, o.data[0], o.data[1], da[0] if da else None, err, on, bump, o.data[2]))
        return ai.course(courses)

    # squadrons
    def _squadron_pick(self, game, options):
        enemy = game.live_squads(REBEL) or game.live_ships(REBEL)

        def near(q):
            return min((math.hypot(e.x - q.data.x, e.y - q.data.y) for e in enemy), default=math.inf)

        first = min(options, key=lambda o: (near(o), o.key))
        return Decision(first.key, (Reason("ARM.SQ.MOVE", f"{first.key} is the closest to the enemy: it activates first"),))

    def _squadron(self, view, options):
        return self.decide_squadron(view, options)

    def decide_squadron(self, view, options):
        q: Squad = view["squad"]
        g = view["game"]
        shots = [o for o in options if isinstance(o.data, ShotOpt)]
        sq_shots = [o for o in shots if isinstance(o.data.target, Squad)]
        if sq_shots:
            targets = [ai.SquadTarget(o.data.target.uid, o.data.target.hull, bool(o.data.target.keyword("escort")),
                                      bool(o.data.target.keyword("counter"))) for o in sq_shots]
            dec = ai.squadron_target(targets, self.dice)
            key = next(o.key for o in sq_shots if o.data.target.uid == dec.action)
            return Decision(key, dec.reasons)
        ship_shots = [o for o in shots if isinstance(o.data.target, Ship)]
        moves = [o for o in options if o.key.startswith("move:")]
        if ship_shots and (not moves or view["did_move"] or not view["ordered"]):
            best = min(ship_shots, key=lambda o: (o.data.target.zone_shields(o.data.tzone), o.key))
            rule = "ARM.TARGET.WEAKARC" if view["ordered"] else "ARM.OVERRIDE"
            text = (f"attack {best.data.target.uid} in its {best.data.tzone} zone, the fewest shields in reach"
                    if view["ordered"] else f"an enemy ship is already in reach: attack {best.data.target.uid} "
                    f"({best.data.tzone} zone, fewest shields) instead of drifting back to formation")
            return Decision(best.key, (Reason(rule, text),))
        if not moves or view["did_move"]:
            return Decision("pass", (Reason("ARM.SQ.MOVE", "nothing more to do"),))
        reach = geometry().ruler.distance[q.spec.speed - 1] + geometry().ruler.distance[0] + 2 * geometry().squadron_base.radius
        esq = nearest(g.live_squads(REBEL), q.x, q.y)
        eship = nearest(g.live_ships(REBEL), q.x, q.y)
        can_reach = esq is not None and math.hypot(esq.x - q.x, esq.y - q.y) <= reach
        dec = ai.squadron_move(q.uid, esq.uid if esq else None, can_reach, eship.uid if eship else None, view["ordered"])
        what, uid = dec.action
        if what in ("engage", "attack"):
            return Decision(f"move:{uid}", dec.reasons)
        home = nearest(g.live_ships(IMPERIAL), q.x, q.y)
        if home is None:
            return Decision("stay", dec.reasons)
        return Decision(f"move:{home.uid}", dec.reasons)
