"""The Armada engine: set-up, six rounds (command, ship, squadron, status phases), attacks, scoring.

The engine enforces; controllers decide. ``sequence()`` is the whole game as a generator (the game
contract, core/contract.py): where the rules ask a side it yields a Request whose options list the legal
answers and whose ``check`` turns an answer into the engine's action (or refuses it with the rule):
  style, focal, zone  (Imperial set-up)                   command   (Rebel: the dial for a ship this round)
  activate  (which ship activates next)                   ai-command (Imperial: dial or token, at activation)
  attack    (attack key, several joined by '+', or 'pass') defend   (token kinds to spend, joined by '+', or 'none')
  maneuver  (course key)                                  squadron-pick, squadron (squadron action key, or 'pass')
The Imperial AI (robot.py, Robot) and the Rebel policy (player.py, Policy) answer in option keys.
"""
from __future__ import annotations

import math

from ..core.contract import Decision, Option, Request
from ..core.dice import Dice
from ..core.events import EventLog
from ..core.errors import IllegalAction, PaperRobotError, UnknownName
from ..core.outcome import Outcome
from . import ai
from . import dice as D
from .data import catalogue, load_geometry
from .geometry import ADJACENT, ZONES, closest_point, inside_area, overlaps, point_in_poly
from .tactics import ship_radius
from .measure import Measures, ShotOpt, shot_label
from .requests import (AI_COMMAND_OPTIONS, COMMAND_OPTIONS, DEPLOY_ZONES, PASS_SQUADRON, SQUADRON_DEPLOY_OPTIONS,
                       SQUADRON_DEPLOYS, STYLE_OPTIONS, STYLES,
                       ZONE_OPTIONS, AI_COMMAND_CHECK, COMMAND_CHECK, attack_check, attack_options, logged_action,
                       one_of, pick, token_check, token_options, check_focal, focal_options, table_view)
from .setup import DEFAULT_IMPERIAL, DEFAULT_REBEL, Setup, fleet_list, fleet_text  # noqa: F401 (re-exported)
from .state import Obstacle, Ship, Squad, ZONE_INDEX

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


class Game(Measures):
    """One battle. Built by the registry as ``Game.build(seed=..., log=..., **setup)``; ``sequence()`` plays it."""

    sides = (REBEL, IMPERIAL)
    robot_side = IMPERIAL

    def __init__(self, setup: Setup, dice: Dice, log: EventLog | None = None):
        self.setup = setup
        self.dice = dice
        self.log = log or EventLog(enabled=False)
        self.geo = g = load_geometry(setup.geometry)
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
        self.plan: str | None = None  # the target group of the active ship's first attack (ARM.TARGET.DOUBLEARC)
        self.version = 0  # bumped whenever a unit moves or dies: the key of the shot cache
        self._shots: dict = {}
        self._memo: dict = {}  # measurements that depend only on where the live ships are (Measures.ship_memo)
        self._memo_key: tuple | None = None
        self._pairs: dict = {}  # what one unit's zone measures of another, kept while others move (Measures.pair_memo)
        self._obstacle_discs: list | None = None  # each obstacle with the disc that holds it (Measures.obstructed)
        self._controllers: dict = {}
        self._build()

    @classmethod
    def build(cls, seed: int, log: EventLog | None = None, **setup) -> "Game":
        """The registry's factory: set-up options (see armada/__init__.py) to a fresh engine. Each fleet must be a
        legal one (fleets.py: known units, a ship, the point limits), as a fleet file or --fleet must."""
        from .fleets import FleetError, check_fleet, expand
        for side in ("imperial", "rebel"):
            items = [item for item in str(setup.get(side, "")).split(",") if item.strip()]
            if not items:
                raise FleetError(f"the {side} fleet is empty; list ships and squadrons, e.g. 'victory-ii,tie-fighter*4'")
            check_fleet(expand(items), setup.get("ships_dir") or None, f"the {side} fleet")
        handicap, prices = setup.pop("handicap", 0), setup.pop("handicap_prices", "")
        if handicap or prices:
            setup.update(handicap_fleets(handicap, prices, setup))
        return cls(Setup.from_options(**setup), Dice(seed), log)

    # ------------------------------------------------------------------ the contract
    def controller(self, side: str, kind: str):
        """The controller of ``side``: the Imperial AI (seed 003) flies the imperial side, the Rebel policy the rebel
        side. The seed has no Rebel robot and there is no Imperial policy, so "robot" for the rebels is the policy
        and "policy" for the Imperials is the AI (docs/armada.md 'On the game contract')."""
        from .player import Policy
        from .robot import Robot
        if side not in self.sides or kind not in ("robot", "policy"):
            raise PaperRobotError(f"armada has no '{kind}' controller for '{side}'; the sides are "
                                  f"{', '.join(self.sides)}, flown by 'robot' or 'policy'")
        if side not in self._controllers:
            self._controllers[side] = Robot(self.dice) if side == IMPERIAL else Policy()
        return self._controllers[side]

    # ------------------------------------------------------------------ helpers
    def emit(self, kind: str, side: str = "", **data) -> None:
        if self.log.enabled or self.log.listeners:
            self.log.emit(kind, self.round, 0, side, **data)

    def record(self, request: Request, decision: Decision) -> None:
        """The decision events of an answer (a robot's reasons: rule, sentence, dice)."""
        if not decision.reasons or not (self.log.enabled or self.log.listeners):
            return
        action = logged_action(request.kind, decision.action)
        side = request.side
        for r in decision.reasons:
            self.log.emit("decision", self.round, 0, side, rule=r.rule, text=r.text,
                          rolls=[x.to_json() for x in r.rolls], action=action)

    def _ask(self, kind: str, side: str, **fields) -> Request:
        """A request of this game: its view (JSON data of what ``side`` may know) is built only when read."""
        return Request(kind, side, view=lambda: self.view_for(side, kind, fields.get("subject")), **fields)

    def view(self, side: str) -> dict:
        """What ``side`` may know now, as sfb's and fc's ``view(side)``: front ends draw the table as a game ended."""
        return self.view_for(side)

    def view_for(self, side: str, kind: str = "", subject=None) -> dict:
        """What ``side`` may know, as plain JSON data (requests.table_view)."""
        return table_view(self, side, kind, subject)

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
                    self.ships.append(Ship.make(uid, spec, side, 0.0, 0.0, math.pi / 2, 2, self.geo.sizes[spec.size]))
                else:
                    self.squads.append(Squad.make(uid, spec, side, 0.0, 0.0, self.geo.squadron_base.radius))
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

    def deploy(self):
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
        dec = yield self._ask("style", IMPERIAL, state=self, options=STYLE_OPTIONS, default="normal",
                            check=one_of(STYLES, "commander style", "ARM.CMDR.STYLE"),
                            prompt="The Imperial commander's style")
        self.style = dec.action
        xs = [s.x for s in rebels]
        dec = yield self._ask("focal", IMPERIAL, state=self, subject=xs, options=lambda: focal_options(self, xs),
                            check=lambda answer: check_focal(self, answer), prompt="The focal point: x (mm) on the Rebel edge")
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
            s = self.unit(uid)
            s.x = cx + (i - (len(order) - 1) / 2) * step
            s.y = y
            s.a = math.atan2(self.focal[1] - s.y, self.focal[0] - s.x)
            s.speed = ai.deploy_speed(self.style, s.max_speed())
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
        r = self.geo.squadron_base.radius
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
        g = self.geo
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
    def sequence(self):
        """The whole game in the rulebook's order (a generator of Requests; returns the Outcome)."""
        if self.phase == "setup":
            yield from self.deploy()
        for rnd in range(1, ROUNDS + 1):
            self.round = rnd
            self.emit("round", number=rnd)
            yield from self.command_phase()
            yield from self.ship_phase()
            if self.over():
                break
            yield from self.squadron_phase()
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

    def command_phase(self):
        for s in self.live_ships(REBEL):
            dec = yield self._ask("command", REBEL, state=self, subject=s, options=COMMAND_OPTIONS, default="concentrate",
                                check=COMMAND_CHECK, prompt=f"Command dial for {s.uid}")
            s.dial = dec.action
            self.emit("dial", REBEL, ship=s.uid, command=s.dial)

    def ship_phase(self):
        side = self.first
        while True:
            waiting = {sd: [s for s in self.live_ships(sd) if not s.activated] for sd in SIDES}
            if not waiting[IMPERIAL] and not waiting[REBEL]:
                return
            if waiting[side]:
                opts = tuple(Option(s.uid, f"{s.uid} ({s.spec.title})", s) for s in waiting[side])
                dec = yield self._ask("activate", side, state=self, subject=waiting[side], options=opts,
                                    check=pick(opts, "an unactivated ship of yours", "RRG Ship Phase"),
                                    prompt="Activate which ship")
                yield from self.activate(dec.action.value)
                if self.over():
                    return
            side = self.enemy(side)

    def activate(self, ship: Ship):
        self.active = ship
        self.emit("activate", ship.side, ship=ship.uid)
        if ship.side == IMPERIAL:
            dec = yield self._ask("ai-command", IMPERIAL, state=self, subject=ship, options=AI_COMMAND_OPTIONS,
                                default="dial:navigate", check=AI_COMMAND_CHECK,
                                prompt=f"{ship.uid}: its command (ARM.CMD.ROLL): a dial or a token")
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
            yield from self.squadron_command(ship)
        used: set[str] = set()
        self.plan = None
        for _ in range(2):
            self.attacks_left = 2 - len(used)
            opts = self.ship_shots(ship, used)
            if not opts:
                break
            dec = yield self._ask("attack", ship.side, state=self, subject=opts,
                                options=lambda opts=opts: attack_options(opts), default="pass",
                                check=attack_check(opts), prompt=f"{ship.uid}: attack")
            if dec.action == "pass":
                break
            chosen = dec.action
            self.plan = "squadrons" if isinstance(chosen[0].target, Squad) else chosen[0].target.uid
            used.add(chosen[0].zone)
            for c in chosen:
                if not c.target.destroyed:
                    yield from self.attack(c)
            if self.over():
                break
        if not ship.destroyed:
            yield from self.move(ship)
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

    def squadron_command(self, ship: Ship):
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
                yield from self.squadron_activation(q, ordered=True)

    # ------------------------------------------------------------------ attacks
    def attack(self, shot: ShotOpt, counter: int = 0):
        att, dfd = shot.attacker, shot.target
        side = att.side
        colours = list(shot.colours) if not counter else ["U"] * counter
        squad_attack = isinstance(att, Squad) or isinstance(dfd, Squad)
        bomber = isinstance(att, Squad) and att.keyword("bomber") and isinstance(dfd, Ship)
        faces = [D.roll_die(self.dice, c, f"{att.uid} at {dfd.uid}", side) for c in colours]
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
                yield from self.attack(ShotOpt(dfd, None, att, None, "close", ["U"] * k, False), counter=k)
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
            spent = yield from self.defend(dfd, shot, faces, colours, locked, squad_attack, bomber)
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
                yield from self.attack(ShotOpt(dfd, "rear", att, shot.zone, shot.band, rear, False), counter=-1)

    def defend(self, dfd: Ship, shot: ShotOpt, faces, colours, locked, squad_attack, bomber):
        """The defender's tokens (a generator: asks the defending side; returns [(kind, was exhausted)])."""
        avail = [(k, e) for k, e in dfd.tokens if k not in locked]
        if not avail:
            return []
        view = {"game": self, "ship": dfd, "shot": shot, "faces": list(faces), "colours": list(colours), "locked": set(locked),
                "squad_attack": squad_attack, "bomber": bomber,
                "threat": self.threat_dice(dfd) if dfd.side == IMPERIAL else 0}  # any attacker (ARM.DEF.BRACE)
        kinds = sorted({k for k, _ in avail})
        exhausted = {k for k in kinds if all(e for kk, e in avail if kk == k)}
        dec = yield self._ask("defend", dfd.side, state=self, subject=view, default="none",
                            options=lambda: token_options(kinds, exhausted), check=token_check(kinds),
                            prompt=f"{dfd.uid}: spend defence tokens")
        chosen = list(dec.action)
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

    # ------------------------------------------------------------------ squadrons
    def squadron_phase(self):
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
                opts = tuple(Option(q.uid, f"{q.uid} ({q.spec.title}, hull {q.hull})", q) for q in waiting)
                dec = yield self._ask("squadron-pick", side, state=self, subject=waiting, options=opts,
                                    check=pick(opts, "an unactivated squadron of yours", "RRG Squadron Phase"),
                                    prompt="Activate which squadron")
                yield from self.squadron_activation(dec.action.value, ordered=False)
            if self.over():
                return
            side = self.enemy(side)

    def squadron_activation(self, q: Squad, ordered: bool):
        """Squadron phase: move or attack. Ordered by a Squadron command: move and attack."""
        q.activated = True
        engaged = bool(self.engaged_with(q))
        did_attack = did_move = False
        for _ in range(2 if ordered else 1):
            opts: list[Option] = []
            if not did_attack:
                opts += [Option(o.key, shot_label(o), o) for o in self.squad_shots(q)]
            if not did_move and not (engaged and not q.keyword("heavy") and self._pinned(q)):
                opts += self.squad_moves(q)
            if not opts:
                return
            view = {"squad": q, "ordered": ordered, "did_move": did_move, "did_attack": did_attack, "game": self}
            opts = tuple(opts) + (PASS_SQUADRON,)
            dec = yield self._ask("squadron", q.side, state=self, subject=view, options=opts, default="pass",
                                check=pick(opts, "a legal squadron action now", "RRG Squadron Activation"),
                                prompt=f"{q.uid}: move or attack")
            chosen = dec.action
            if chosen.key == "pass":
                return
            if isinstance(chosen.value, ShotOpt):
                did_attack = True
                yield from self.attack(chosen.value)
                if q.destroyed or self.over():
                    return
            elif chosen.key == "stay":
                did_move = True
            else:
                did_move = True
                x, y = chosen.value
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


def handicap_prices(path: str | None = ""):
    """Armada's handicap squadrons (data/handicap.toml), or the person's own table."""
    from ..core import handicap as hc
    from .data import DATA
    return hc.load_prices(DATA / hc.PRICES, path or None, hc.SquadronPrices)


def handicap_fleets(handicap: int, prices_path: str, setup: dict) -> dict:
    """The fleets with the handicap's squadrons added: ``handicap`` fleet points buy round(points / card
    points) copies of the price table's squadron for the Imperial (robot) side, or, when negative, for the
    Rebels. They come on top of the fleet's points and its squadron third (a handicap is off the book)."""
    from ..core import handicap as hc
    from .fleets import FleetError
    prices = handicap_prices(prices_path)
    if not handicap:
        return {}
    who, points = hc.side_and_amount(handicap)
    side, unit = (IMPERIAL, prices.robot_unit) if who == "robot" else (REBEL, prices.player_unit)
    squads = catalogue(setup.get("ships_dir") or None)[1]
    if unit not in squads or squads[unit].faction != side:
        raise FleetError(f"the handicap price table names '{unit}' for the {side} side; give a {side} squadron")
    count = hc.units_for(points, squads[unit].points)
    fleet = str(setup.get(side, ""))
    return {side: f"{fleet},{unit}*{count}" if count else fleet}
