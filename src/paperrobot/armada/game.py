"""The Armada engine: set-up, six rounds (command, ship, squadron, status phases), attacks, scoring.

The engine enforces; controllers decide. Each side has a controller answering requests of these
kinds (options are lists of Option with a string key, so a person's answers save as strings):
  command   (Rebel: the dial for a ship this round)      activate  (which ship activates next)
  attack    (attack option key, or 'pass')                defend    (token kinds to spend, a tuple)
  maneuver  (course key)                                  squadron  (squadron action key, or 'pass')
The Imperial AI (robot.py) answers the same requests and also rolls its own command at activation.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import product

from ..core.controller import Decision, Request
from ..core.dice import Dice
from ..core.events import EventLog
from ..core.errors import IllegalAction, UnknownName
from ..core.outcome import Outcome
from . import dice as D
from .data import catalogue, geometry, parse_dice
from .geometry import (ADJACENT, ZONES, clip_to_arc, closest_point, inside_area, maneuver,
                       overlaps, point_in_poly, poly_distance, range_band, segment_hits_poly)
from .units import Obstacle, Ship, Squad, ZONE_INDEX

IMPERIAL, REBEL = "imperial", "rebel"
SIDES = (IMPERIAL, REBEL)
ROUNDS = 6
LOCK_ORDER = ("brace", "scatter", "redirect", "evade", "contain", "salvo")
DAMAGE_DECK = [("Structural Damage", 8), ("Injured Crew", 4)] + [(n, 2) for n in (
    "Blinded Gunners", "Capacitor Failure", "Comm Noise", "Compartment Fire", "Coolant Discharge", "Crew Panic",
    "Damaged Controls", "Damaged Munitions", "Depowered Armament", "Disengaged Fire Control",
    "Faulty Countermeasures", "Life Support Failure", "Point-Defense Failure", "Power Failure",
    "Projector Misaligned", "Ruptured Engine", "Shield Failure", "Targeter Disruption",
    "Thrust-Control Malfunction", "Thruster Fissure")]


@dataclass(frozen=True, slots=True)
class Option:
    key: str
    label: str
    data: object = None


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


@dataclass
class Setup:
    imperial: list[str] = field(default_factory=lambda: ["victory-ii", "gladiator-i", "tie-fighter", "tie-fighter",
                                                         "tie-fighter", "tie-fighter"])
    rebel: list[str] = field(default_factory=lambda: ["cr90-a", "nebulon-b-escort", "assault-frigate-b",
                                                      "x-wing", "x-wing", "a-wing"])
    table: str = "standard"
    evade_close: bool = True  # RRG 1.5 evade at close range (False: the 2015 rules, no effect)
    ships_dir: str | None = None

    def to_dict(self) -> dict:
        return {"imperial": list(self.imperial), "rebel": list(self.rebel), "table": self.table,
                "evade_close": self.evade_close}

    @classmethod
    def from_dict(cls, raw: dict) -> "Setup":
        return cls(list(raw["imperial"]), list(raw["rebel"]), str(raw.get("table", "standard")),
                   bool(raw.get("evade_close", True)))


class Game:
    def __init__(self, setup: Setup, imperial, rebel, dice: Dice, log: EventLog | None = None):
        self.setup = setup
        self.ctrl = {IMPERIAL: imperial, REBEL: rebel}
        self.dice = dice
        self.log = log or EventLog(enabled=False)
        g = geometry()
        self.width, self.depth = g.play_area.standard if setup.table == "standard" else g.play_area.small
        self.inset = g.play_area.setup_inset if setup.table == "standard" else 0.0
        self.round = 0
        self.ships: list[Ship] = []
        self.squads: list[Squad] = []
        self.obstacles: list[Obstacle] = []
        self.score = {IMPERIAL: 0, REBEL: 0}
        self.first = REBEL
        self.style = "normal"
        self.focal = (self.width / 2, 0.0)
        self.deck = [n for n, c in DAMAGE_DECK for _ in range(c)]
        self.active: Ship | None = None
        self.phase = "setup"
        self.attacks_left = 2
        self.version = 0  # bumped whenever a unit moves or dies: the key of the shot cache
        self._shots: dict = {}
        self._build()

    # ------------------------------------------------------------------ helpers
    def emit(self, kind: str, side: str = "", **data) -> None:
        if self.log.enabled or self.log.listeners:
            self.log.emit(kind, self.round, 0, side, **data)

    def ask(self, side: str, kind: str, view, options) -> Decision:
        decision = self.ctrl[side].decide(Request(kind, side, view, options))
        self.record(side, decision)
        return decision

    def record(self, side: str, decision: Decision, **extra) -> None:
        if not (self.log.enabled or self.log.listeners):
            return
        for r in decision.reasons:
            if r.rule == "SAVE":
                continue
            action = decision.action
            self.log.emit("decision", self.round, 0, side, rule=r.rule, text=r.text,
                          rolls=[x.to_json() for x in r.rolls], action=_jsonable(action), **extra)

    def live_ships(self, side: str | None = None) -> list[Ship]:
        return [s for s in self.ships if not s.destroyed and (side is None or s.side == side)]

    def live_squads(self, side: str | None = None) -> list[Squad]:
        return [q for q in self.squads if not q.destroyed and (side is None or q.side == side)]

    def unit(self, uid: str):
        for u in self.ships + self.squads:
            if u.uid == uid:
                return u
        raise IllegalAction(f"no unit '{uid}' on the table")

    @staticmethod
    def enemy(side: str) -> str:
        return REBEL if side == IMPERIAL else IMPERIAL

    # ------------------------------------------------------------------ set-up
    def _build(self) -> None:
        ships, squads = catalogue(self.setup.ships_dir)
        for side in SIDES:
            counts: dict[str, int] = {}
            for name in getattr(self.setup, side):
                if name not in ships and name not in squads:
                    raise UnknownName("Armada ship or squadron", name, list(ships) + list(squads))
                is_ship = name in ships
                spec = ships[name] if is_ship else squads[name]
                counts[name] = counts.get(name, 0) + 1
                uid = f"{name}-{counts[name]}"
                if is_ship:
                    self.ships.append(Ship.make(uid, spec, side, 0.0, 0.0, math.pi / 2, 2))
                else:
                    self.squads.append(Squad.make(uid, spec, side, 0.0, 0.0))
        for side in SIDES:
            if not self.live_ships(side):
                raise IllegalAction(f"the {side} fleet needs at least one ship")

    def points(self, side: str) -> int:
        return sum(s.spec.points for s in self.ships if s.side == side) + \
            sum(q.spec.points for q in self.squads if q.side == side)

    def deploy(self) -> None:
        """Set-up: obstacles, initiative, the player's deployment, then the AI's (ARM.DEPLOY.*)."""
        self.emit("setup", game="armada", setup=self.setup.to_dict(), seed=self.dice.seed,
                  width=self.width, depth=self.depth)
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
        robot = self.ctrl[IMPERIAL]
        dec = robot.decide(Request("style", IMPERIAL, self, None))
        self.record(IMPERIAL, dec)
        self.style = dec.action
        d3 = geometry().ruler.distance[2]
        dec = robot.decide(Request("focal", IMPERIAL, self, [s.x for s in rebels]))
        self.record(IMPERIAL, dec)
        self.focal = (dec.action, 0.0)
        dec = robot.decide(Request("zone", IMPERIAL, self, None))
        self.record(IMPERIAL, dec)
        where = dec.action
        span = self.width - 2 * self.inset
        cx = {"centre": self.width / 2, "west": self.inset + span / 4, "east": self.width - self.inset - span / 4}[where]
        order = robot.formation(self)
        y = self.depth - 130.0
        step = 115.0
        for i, uid in enumerate(order):
            s = self.unit(uid)
            s.x = cx + (i - (len(order) - 1) / 2) * step
            s.y = y
            s.a = math.atan2(self.focal[1] - s.y, self.focal[0] - s.x)
            s.speed = robot.deploy_speed(self, s)
            s.slot = (i - (len(order) - 1) / 2) * step
        imps = self.live_ships(IMPERIAL)
        contact = False
        if self.live_squads(IMPERIAL):
            dec = robot.decide(Request("squadrons", IMPERIAL, self, None))
            self.record(IMPERIAL, dec)
            contact = dec.action == "contact"
        gap = 0.0 if contact else 60.0  # touching vs within distance 2 (ARM.DEPLOY.ZONE)
        placed: list[Squad] = []
        for i, q in enumerate(self.live_squads(IMPERIAL)):
            host = imps[i % len(imps)]
            k = i // len(imps)
            ahead = host.size.base[1] / 2 + gap + 15
            q.x = host.x + math.cos(host.a) * ahead + (k - 1) * 32 * math.sin(host.a)
            q.y = host.y + math.sin(host.a) * ahead - (k - 1) * 32 * math.cos(host.a)
            if contact:
                self._touching(q, host, placed)
            placed.append(q)
        self.emit("deployed", focal=[round(self.focal[0], 1), 0.0], style=self.style, zone=where,
                  ships=[s.to_view() for s in self.ships], squadrons=[q.to_view() for q in self.squads],
                  obstacles=[[o.kind, round(o.x, 1), round(o.y, 1)] for o in self.obstacles])

    def _touching(self, q: Squad, host: Ship, placed: list[Squad]) -> None:
        """ARM.DEPLOY.ZONE, cautious: move ``q`` to the nearest spot around ``host`` (turning about the ship's
        centre from where the formation set it) where its base touches the ship's base, overlapping no ship
        and no squadron already placed, on the table."""
        r = geometry().squadron_base.radius
        px, py = q.x - host.x, q.y - host.y
        for turn in sorted(range(0, 360, 5), key=lambda d: (min(d, 360 - d), d)):
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
        g = geometry()
        d3, d1 = g.ruler.distance[2], g.ruler.distance[0]
        radius = {"asteroid": g.obstacles.asteroid_radius, "debris": g.obstacles.debris_radius,
                  "station": g.obstacles.station_radius}
        from .geometry import circle
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

    # ------------------------------------------------------------------ measuring
    def blockers(self, attacker, defender) -> list:
        return [s.fp.base for s in self.ships if not s.destroyed and s is not attacker and s is not defender] + \
            [o.poly for o in self.obstacles]

    def touch(self) -> None:
        self.version += 1
        self._shots.clear()

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
        fp = ship.fp
        enemy = self.enemy(ship.side)
        targets = self.live_ships(enemy)
        squads = [] if ships_only else self.live_squads(enemy)
        long_r = geometry().ruler.long
        for zone in ZONES:
            if zone in used:
                continue
            arc, zpoly, tp = fp.arcs[zone], fp.zones[zone], fp.targets[zone]
            battery = ship.battery(zone)
            for t in targets:
                if math.hypot(t.x - ship.x, t.y - ship.y) > long_r + 140:
                    continue
                tfp = t.fp
                for tz in ZONES:
                    part = clip_to_arc(tfp.zones[tz], arc)
                    if not part:
                        continue
                    band = range_band(poly_distance(zpoly, part))
                    colours = D.pool_at(battery, band)
                    if not colours:
                        continue
                    goal = tfp.targets[tz]
                    if any(segment_hits_poly(tp, goal, tfp.zones[oz]) for oz in ZONES if oz != tz):
                        continue  # no line of sight: traced through another hull zone of the defender
                    obstructed = any(segment_hits_poly(tp, goal, b) for b in self.blockers(ship, t))
                    out.append(ShotOpt(ship, zone, t, tz, band, _obstruct(colours, obstructed), obstructed))
            anti = ship.anti()
            for q in squads:
                if math.hypot(q.x - ship.x, q.y - ship.y) > 260:
                    continue
                part = clip_to_arc(q.poly, arc)
                if not part:
                    continue
                band = range_band(poly_distance(zpoly, part))
                colours = D.pool_at(anti, band)
                if not colours:
                    continue
                goal = closest_point(tp, q.poly)
                obstructed = any(segment_hits_poly(tp, goal, b) for b in self.blockers(ship, None))
                out.append(ShotOpt(ship, zone, q, None, band, _obstruct(colours, obstructed), obstructed))
        return [o for o in out if o.colours]

    def engaged_with(self, q: Squad) -> list[Squad]:
        d1 = geometry().ruler.distance[0]
        r = geometry().squadron_base.radius
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
        d1 = geometry().ruler.distance[0]
        out = []
        battery = parse_dice(q.spec.battery)
        for s in self.live_ships(self.enemy(q.side)):
            if math.hypot(s.x - q.x, s.y - q.y) > d1 + 100:
                continue
            for tz in ZONES:
                if poly_distance(q.poly, s.fp.zones[tz]) <= d1:
                    goal = s.fp.targets[tz]
                    near = closest_point(goal, q.poly)
                    if any(segment_hits_poly(near, goal, s.fp.zones[oz]) for oz in ZONES if oz != tz):
                        continue
                    out.append(ShotOpt(q, None, s, tz, "close", D.pool_at(battery, "close"), False))
        return out

    def in_squad_range(self, ship: Ship, side: str, unactivated: bool = True) -> list[Squad]:
        """Friendly squadrons at close-medium range of a ship (Squadron command)."""
        med = geometry().ruler.medium
        return [q for q in self.live_squads(side) if (not unactivated or not q.activated)
                and poly_distance(ship.fp.base, q.poly) <= med]

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
    def run(self) -> Outcome:
        if self.phase == "setup":
            self.deploy()
        for rnd in range(1, ROUNDS + 1):
            self.round = rnd
            self.emit("round", number=rnd)
            self.command_phase()
            self.ship_phase()
            if self.over():
                break
            self.squadron_phase()
            if self.over():
                break
            self.status_phase()
            self.emit("picture", ships=[s.to_view() for s in self.ships], squadrons=[q.to_view() for q in self.squads])
        return self.finish()

    def over(self) -> bool:
        return not self.live_ships(IMPERIAL) or not self.live_ships(REBEL)

    def finish(self) -> Outcome:
        alive = {side: bool(self.live_ships(side)) for side in SIDES}
        if not all(alive.values()):
            winner = IMPERIAL if alive[IMPERIAL] else REBEL if alive[REBEL] else None
            result = "fleet destroyed"
        else:
            si, sr = self.score[IMPERIAL], self.score[REBEL]
            second = self.enemy(self.first)
            winner = IMPERIAL if si > sr else REBEL if sr > si else second  # tie: second player wins
            result = "points"
        self.emit("end", winner=winner, result=result, score=dict(self.score), rounds=self.round)
        self.emit("picture", ships=[s.to_view() for s in self.ships], squadrons=[q.to_view() for q in self.squads])
        metrics = {"imperial_score": float(self.score[IMPERIAL]), "rebel_score": float(self.score[REBEL]),
                   "imperial_ships_lost": float(sum(s.destroyed for s in self.ships if s.side == IMPERIAL)),
                   "rebel_ships_lost": float(sum(s.destroyed for s in self.ships if s.side == REBEL))}
        return Outcome(winner, result, self.round, metrics)

    def command_phase(self) -> None:
        for s in self.live_ships(REBEL):
            opts = [Option(c, c) for c in ("navigate", "squadron", "concentrate", "repair")]
            dec = self.ask(REBEL, "command", s, opts)
            if dec.action not in ("navigate", "squadron", "concentrate", "repair"):
                raise IllegalAction(f"'{dec.action}' is not a command", "RRG Commands")
            s.dial = dec.action
            self.emit("dial", REBEL, ship=s.uid, command=s.dial)

    def ship_phase(self) -> None:
        side = self.first
        while True:
            waiting = {sd: [s for s in self.live_ships(sd) if not s.activated] for sd in SIDES}
            if not waiting[IMPERIAL] and not waiting[REBEL]:
                return
            if waiting[side]:
                opts = [Option(s.uid, s.spec.title, s) for s in waiting[side]]
                dec = self.ask(side, "activate", self, opts)
                ship = next((s for s in waiting[side] if s.uid == dec.action), None)
                if ship is None:
                    raise IllegalAction(f"'{dec.action}' is not an unactivated ship of yours", "RRG Ship Phase")
                self.activate(ship)
                if self.over():
                    return
            side = self.enemy(side)

    def activate(self, ship: Ship) -> None:
        self.active = ship
        self.emit("activate", ship.side, ship=ship.uid)
        if ship.side == IMPERIAL:
            dec = self.ctrl[IMPERIAL].decide(Request("ai-command", IMPERIAL, self, ship))
            self.record(IMPERIAL, dec)
            how, cmd = dec.action
            if how == "dial":
                ship.dial = cmd
            else:
                ship.dial = None
                self.gain_token(ship, cmd)
        self.emit("command", ship.side, ship=ship.uid, command=ship.dial, tokens=sorted(ship.cmd_tokens))
        if ship.has_command("repair") and self.can_repair(ship):
            self.repair(ship)
        if ship.has_command("squadron") and self.in_squad_range(ship, ship.side):
            self.squadron_command(ship)
        used: set[str] = set()
        for _ in range(2):
            self.attacks_left = 2 - len(used)
            opts = self.ship_shots(ship, used)
            if not opts:
                break
            options = [Option(o.key, _shot_label(o), o) for o in opts]
            dec = self.ask(ship.side, "attack", self, options + [Option("pass", "no attack")])
            if dec.action == "pass" or dec.action is None:
                break
            keys = dec.action if isinstance(dec.action, (list, tuple)) else [dec.action]
            chosen = [next((o for o in opts if o.key == k), None) for k in keys]
            if any(c is None for c in chosen) or len({c.zone for c in chosen}) != 1:
                raise IllegalAction(f"'{dec.action}' is not a legal attack now", "RRG Attack")
            if len(chosen) > 1 and not all(isinstance(c.target, Squad) for c in chosen):
                raise IllegalAction("only attacks on squadrons may take several targets", "RRG Attack")
            used.add(chosen[0].zone)
            for c in chosen:
                if not c.target.destroyed:
                    self.attack(c)
            if self.over():
                break
        if not ship.destroyed:
            self.move(ship)
        if ship.dial:
            ship.used.add(ship.dial)
        ship.dial = None
        ship.activated = True
        self.active = None

    def gain_token(self, ship: Ship, cmd: str) -> None:
        if cmd in ship.cmd_tokens:
            return  # never two of a kind (RRG 'Command Tokens')
        ship.cmd_tokens.add(cmd)
        while len(ship.cmd_tokens) > ship.spec.command:
            ship.cmd_tokens.discard(sorted(ship.cmd_tokens)[0])

    def spend_command(self, ship: Ship, cmd: str) -> str:
        """Spend the dial (and the token too when both are held): 'dial', 'token' or 'both'."""
        how = "dial" if ship.dial == cmd else ""
        if cmd in ship.cmd_tokens:
            ship.cmd_tokens.discard(cmd)
            how = "both" if how else "token"
        ship.used.add(cmd)
        return how

    @staticmethod
    def can_repair(ship: Ship) -> bool:
        return ship.damage > 0 or any(a < b for a, b in zip(ship.shields, ship.spec.shields))

    def repair(self, ship: Ship) -> None:
        how = self.spend_command(ship, "repair")
        points = ship.spec.engineering if how in ("dial", "both") else (ship.spec.engineering + 1) // 2
        done = []
        while points > 0:
            missing = [ship.spec.shields[i] - ship.shields[i] for i in range(4)]
            if ship.faceup and points >= 3:
                done.append(f"discard {ship.faceup.pop()}")
                points -= 3
            elif max(missing) > 0 and points >= 2:
                i = missing.index(max(missing))
                ship.shields[i] += 1
                points -= 2
                done.append(f"recover a {ZONES[i]} shield")
            elif ship.facedown and points >= 3:
                ship.facedown -= 1
                points -= 3
                done.append("discard a facedown card")
            else:
                break
        self.emit("repair", ship.side, ship=ship.uid, did=done)

    def squadron_command(self, ship: Ship) -> None:
        how = self.spend_command(ship, "squadron")
        n = ship.spec.squadron if how in ("dial", "both") else 1
        mine = self.in_squad_range(ship, ship.side)
        if not mine:
            return
        enemy_sq = self.live_squads(self.enemy(ship.side))

        def near(q: Squad) -> float:
            return min((math.hypot(e.x - q.x, e.y - q.y) for e in enemy_sq), default=math.inf)

        mine.sort(key=lambda q: (near(q), q.uid))  # the closest squadron activates first (ARM.SQ.MOVE)
        for q in mine[:n]:
            if not q.destroyed and not self.over():
                self.squadron_activation(q, ordered=True)

    # ------------------------------------------------------------------ attacks
    def attack(self, shot: ShotOpt, counter: int = 0) -> None:
        att, dfd = shot.attacker, shot.target
        side = att.side
        colours = list(shot.colours) if not counter else ["U"] * counter
        squad_attack = isinstance(att, Squad) or isinstance(dfd, Squad)
        bomber = isinstance(att, Squad) and att.keyword("bomber") and isinstance(dfd, Ship)
        faces = [D.roll_die(self.dice, c, f"{_name(att)} at {_name(dfd)}", side) for c in colours]
        if isinstance(att, Squad) and isinstance(dfd, Squad) and att.keyword("swarm") and not counter \
                and any(o is not att for o in self.engaged_with(dfd)):
            # Swarm: attacking a squadron engaged with another squadron, reroll one die (a blank first)
            worst = min(range(len(faces)), key=lambda i: (D.SQUAD_DAMAGE[faces[i]], i), default=None)
            if worst is not None and D.SQUAD_DAMAGE[faces[worst]] == 0:
                faces[worst] = D.roll_die(self.dice, colours[worst], "swarm reroll", side)
        # Concentrate fire (automatic for both sides, docs 'Attacker choices'): dial adds a die
        if isinstance(att, Ship) and att.has_command("concentrate") and not counter and colours:
            # the dial adds a die; a token rerolls a blank (spent only when there is one to reroll)
            blank = next((i for i, f in enumerate(faces) if f in ("blank", "acc")), None)
            use_token = "concentrate" in att.cmd_tokens and blank is not None
            if att.dial == "concentrate":
                colour = max(set(colours), key=lambda c: (D.MEAN[c], c))
                colours.append(colour)
                faces.append(D.roll_die(self.dice, colour, "concentrate fire: added die", side))
            if use_token:
                att.cmd_tokens.discard("concentrate")
                faces[blank] = D.roll_die(self.dice, colours[blank], "concentrate fire: reroll", side)
            if att.dial == "concentrate" or use_token:
                att.used.add("concentrate")
        self.emit("attack", side, attacker=att.uid, zone=shot.zone, target=dfd.uid, tzone=shot.tzone,
                  band=shot.band, dice="".join(colours), faces=list(faces), obstructed=shot.obstructed,
                  counter=bool(counter))
        if isinstance(dfd, Squad):
            dmg = D.damage(faces, True)
            self.hurt_squad(dfd, dmg, att)
            k = dfd.keyword("counter")
            if k and isinstance(att, Squad) and not counter and not att.destroyed:
                self.attack(ShotOpt(dfd, None, att, None, "close", ["U"] * k, False), counter=k)
            return
        # spend accuracies on the defender's tokens (automatic: docs 'Attacker choices')
        locked: set[str] = set()
        accs = sum(1 for f in faces if f == "acc")
        kinds = {k for k, _ in dfd.tokens}
        for kind in LOCK_ORDER:
            if accs and kind in kinds:
                locked.add(kind)
                accs -= 1
        spent: list[tuple[str, bool]] = []
        if dfd.speed > 0 and dfd.tokens and D.damage(faces, squad_attack, bomber) > 0:
            spent = self.defend(dfd, shot, faces, colours, locked, squad_attack, bomber)
        kinds_spent = {k for k, _ in spent}
        if "scatter" in kinds_spent:
            faces = []
        if "evade" in kinds_spent and faces and shot.band:
            dmg_table = D.SQUAD_DAMAGE if squad_attack and not bomber else D.SHIP_DAMAGE
            worst = max(range(len(faces)), key=lambda i: (dmg_table[faces[i]], i))
            if shot.band == "long":
                faces.pop(worst)
                colours.pop(worst)
            elif shot.band == "medium" or self.setup.evade_close:
                faces[worst] = D.roll_die(self.dice, colours[worst], "evade reroll", dfd.side)
        dmg = D.damage(faces, squad_attack, bomber)
        if "brace" in kinds_spent:
            dmg = (dmg + 1) // 2
        crit = (not isinstance(att, Squad) or bomber) and D.has_crit(faces) and "contain" not in kinds_spent
        zone = shot.tzone
        redirected, adj = 0, None
        if "redirect" in kinds_spent and dmg > 0:
            adj = max(ADJACENT[zone], key=lambda z: (dfd.zone_shields(z), z))
            zs = dfd.zone_shields(zone)
            want = dmg - zs if dmg > zs else dmg // 2
            redirected = min(dfd.zone_shields(adj), max(want, 0))
        self.emit("defence", dfd.side, ship=dfd.uid, spent=[k + ("*" if e else "") for k, e in spent],
                  faces=list(faces), damage=dmg)
        if redirected:
            dfd.shields[ZONE_INDEX[adj]] -= redirected
        self.hurt_ship(dfd, zone, dmg - redirected, crit, att)
        if "salvo" in kinds_spent and not counter and isinstance(att, Ship) and not dfd.destroyed:
            rear = D.pool_at(dfd.battery("rear"), shot.band)
            if rear:
                self.attack(ShotOpt(dfd, "rear", att, shot.zone, shot.band, rear, False), counter=-1)

    def defend(self, dfd: Ship, shot: ShotOpt, faces, colours, locked, squad_attack, bomber) -> list[tuple[str, bool]]:
        avail = [(k, e) for k, e in dfd.tokens if k not in locked]
        if not avail:
            return []
        view = {"game": self, "ship": dfd, "shot": shot, "faces": list(faces), "colours": list(colours), "locked": set(locked),
                "squad_attack": squad_attack, "bomber": bomber,
                "threat": self.threat_dice(dfd) if dfd.side == IMPERIAL else 0}  # any attacker (ARM.DEF.BRACE)
        kinds = sorted({k for k, _ in avail})
        opts = [Option(k, k + (" (exhausted)" if all(e for kk, e in avail if kk == k) else "")) for k in kinds]
        dec = self.ask(dfd.side, "defend", view, opts)
        chosen = [k for k, *_ in (x if isinstance(x, (list, tuple)) else (x,) for x in dec.action)]
        if len(set(chosen)) != len(chosen) or any(k not in kinds for k in chosen):
            raise IllegalAction(f"cannot spend {', '.join(chosen)}: pick distinct tokens you hold and that are not "
                                f"locked ({', '.join(kinds)})", "RRG Defense Tokens")
        if "salvo" in chosen and not isinstance(shot.attacker, Ship):
            chosen.remove("salvo")
        out = []
        for k in chosen:
            idx = min((i for i, (kk, e) in enumerate(dfd.tokens) if kk == k), key=lambda i: dfd.tokens[i][1])
            was = dfd.tokens[idx][1]
            if was:
                dfd.tokens.pop(idx)  # spending an exhausted token discards it
            else:
                dfd.tokens[idx][1] = True
            out.append((k, was))
        return out

    def hurt_squad(self, q: Squad, dmg: int, by) -> None:
        if dmg <= 0:
            return
        q.hull = max(0, q.hull - dmg)
        self.emit("damage", q.side, unit=q.uid, amount=dmg, hull=q.hull)
        if q.hull == 0:
            q.destroyed = True
            self.touch()
            self.score[self.enemy(q.side)] += q.spec.points
            self.emit("destroyed", q.side, unit=q.uid, points=q.spec.points)

    def hurt_ship(self, s: Ship, zone: str, dmg: int, crit: bool, by) -> None:
        if dmg <= 0 or s.destroyed:
            return
        i = ZONE_INDEX[zone]
        absorbed = min(s.shields[i], dmg)
        s.shields[i] -= absorbed
        cards = dmg - absorbed
        faceup_first = crit
        for _ in range(cards):
            if faceup_first:
                self.faceup(s)
                faceup_first = False
            else:
                s.facedown += 1
        self.emit("damage", s.side, unit=s.uid, zone=zone, amount=dmg, shields=absorbed, cards=cards,
                  hull_left=s.hull_left)
        self.check_destroyed(s)

    def faceup(self, s: Ship) -> None:
        if not self.deck:
            self.deck = [n for n, c in DAMAGE_DECK for _ in range(c)]
        card = self.deck.pop(self.dice.roll(len(self.deck), "damage card", "table") - 1)
        self.emit("crit", s.side, unit=s.uid, card=card)
        if card == "Structural Damage":
            s.facedown += 2  # deals an extra facedown card, and is itself flipped face down
        elif card == "Injured Crew":
            s.facedown += 1
            if s.tokens:
                s.tokens.pop(0)
        else:
            s.faceup.append(card)

    def check_destroyed(self, s: Ship) -> None:
        if not s.destroyed and s.damage >= s.spec.hull:
            s.destroyed = True
            self.touch()
            self.score[self.enemy(s.side)] += s.spec.points
            self.emit("destroyed", s.side, unit=s.uid, points=s.spec.points)

    # ------------------------------------------------------------------ movement
    def courses(self, ship: Ship) -> list[Option]:
        """Every legal course at this activation (speeds reachable with navigate, yaw per chart)."""
        nav = ship.has_command("navigate")
        change = 2 if (nav and ship.dial == "navigate" and "navigate" in ship.cmd_tokens) else 1 if nav else 0
        speeds = [v for v in range(ship.speed - change, ship.speed + change + 1) if 0 <= v <= ship.max_speed()]
        out, seen = [], set()
        dial = ship.dial == "navigate" and "navigate" not in ship.used
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
                    out.append(Option(key, f"speed {v} yaw {list(clicks)}", (v, tuple(clicks), needs)))
        return out

    def end_of(self, ship: Ship, speed: int, clicks) -> tuple[float, float, float]:
        return maneuver(ship.x, ship.y, ship.a, ship.size.base[1], speed, clicks)

    def move(self, ship: Ship) -> None:
        opts = self.courses(ship)
        dec = self.ask(ship.side, "maneuver", self, opts)
        chosen = next((o for o in opts if o.key == dec.action), None)
        if chosen is None:
            raise IllegalAction(f"'{dec.action}' is not a legal course for {ship.uid}", "RRG Ship Movement")
        speed, clicks, changed = chosen.data
        if changed:
            self.spend_command(ship, "navigate")  # a speed change or the dial's extra yaw click
        ship.speed = speed
        from .geometry import footprint
        bumped = None
        while True:
            x, y, a = self.end_of(ship, speed, clicks)
            base = footprint(ship.size, x, y, a).base
            hit = [o for o in self.live_ships() if o is not ship and overlaps(base, o.fp.base)]
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
        for q in self.live_squads():
            if overlaps(ship.fp.base, q.poly):
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

    # ------------------------------------------------------------------ squadrons
    def squadron_phase(self) -> None:
        side = self.first
        passes = 0
        while passes < 2:
            waiting = [q for q in self.live_squads(side) if not q.activated]
            if not waiting:
                passes += 1
                side = self.enemy(side)
                continue
            passes = 0
            for _ in range(2):
                waiting = [q for q in self.live_squads(side) if not q.activated]
                if not waiting or self.over():
                    break
                opts = [Option(q.uid, q.spec.title, q) for q in waiting]
                dec = self.ask(side, "squadron-pick", self, opts)
                q = next((w for w in waiting if w.uid == dec.action), None)
                if q is None:
                    raise IllegalAction(f"'{dec.action}' is not an unactivated squadron of yours", "RRG Squadron Phase")
                self.squadron_activation(q, ordered=False)
            if self.over():
                return
            side = self.enemy(side)

    def squad_moves(self, q: Squad) -> list[Option]:
        """Move options: toward each enemy (to contact), toward each friendly ship, or stay."""
        out = [Option("stay", "stay")]
        reach = geometry().ruler.distance[q.spec.speed - 1] if q.spec.speed else 0.0
        r = geometry().squadron_base.radius
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
        r = geometry().squadron_base.radius
        if any(o is not q and math.hypot(o.x - x, o.y - y) < 2 * r for o in self.live_squads()):
            return True
        from .geometry import circle
        poly = circle(x, y, r)
        return any(math.hypot(s.x - x, s.y - y) < 120 and overlaps(poly, s.fp.base) for s in self.live_ships())

    def squadron_activation(self, q: Squad, ordered: bool) -> None:
        """Squadron phase: move or attack. Ordered by a Squadron command: move and attack."""
        q.activated = True
        engaged = bool(self.engaged_with(q))
        did_attack = did_move = False
        for _ in range(2 if ordered else 1):
            opts: list[Option] = []
            if not did_attack:
                opts += [Option(o.key, _shot_label(o), o) for o in self.squad_shots(q)]
            if not did_move and not (engaged and not q.keyword("heavy") and self._pinned(q)):
                opts += self.squad_moves(q)
            if not opts:
                return
            view = {"squad": q, "ordered": ordered, "did_move": did_move, "did_attack": did_attack, "game": self}
            dec = self.ask(q.side, "squadron", view, opts + [Option("pass", "done")])
            if dec.action == "pass":
                return
            chosen = next((o for o in opts if o.key == dec.action), None)
            if chosen is None:
                raise IllegalAction(f"'{dec.action}' is not a legal squadron action now", "RRG Squadron Activation")
            if isinstance(chosen.data, ShotOpt):
                did_attack = True
                self.attack(chosen.data)
                if q.destroyed or self.over():
                    return
            elif chosen.key == "stay":
                did_move = True
            else:
                did_move = True
                x, y = chosen.data
                dx, dy = x - q.x, y - q.y
                step = math.hypot(dx, dy)
                while step > 0 and self._crowded(q, x, y):  # cannot end overlapping a ship or squadron
                    back = max(0.0, step - 5.0)
                    x, y = q.x + dx * back / step, q.y + dy * back / step
                    dx, dy, step = x - q.x, y - q.y, back
                q.x, q.y = x, y
                self.touch()
                self.emit("squadron-move", q.side, unit=q.uid, x=round(q.x, 1), y=round(q.y, 1))
            if not ordered:
                return

    def _pinned(self, q: Squad) -> bool:
        """Engaged squadrons cannot move unless every engaging squadron is Heavy (RRG 'Engagement')."""
        return any(not e.keyword("heavy") for e in self.engaged_with(q))

    def status_phase(self) -> None:
        for s in self.live_ships():
            for t in s.tokens:
                t[1] = False
            s.activated = False
            s.used.clear()
            s.dial = None
        for q in self.live_squads():
            q.activated = False
        self.emit("status", score=dict(self.score))


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


def _name(u) -> str:
    return u.uid


def _shot_label(o: ShotOpt) -> str:
    where = f"{o.zone} zone" if o.zone else "squadron"
    tz = f" {o.tzone} zone" if o.tzone else ""
    return f"{where} -> {o.target.uid}{tz} at {o.band}: {''.join(o.colours)}" + (" (obstructed)" if o.obstructed else "")


def _jsonable(x):
    if isinstance(x, (str, int, float, bool)) or x is None:
        return x
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if hasattr(x, "key"):
        return x.key
    if hasattr(x, "target") and hasattr(x, "zone"):
        return f"{x.zone}>{x.target}"
    return str(x)
