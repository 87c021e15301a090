"""The Armada engine: set-up, six rounds (command, ship, squadron, status phases), attacks, scoring.

The engine enforces; controllers decide. ``sequence()`` is the whole game as a generator (the game
contract, core/contract.py): where the rules ask a side it yields a Request whose options list the legal
answers and whose ``check`` turns an answer into the engine's action (or refuses it with the rule):
  style, focal, zone  (Imperial set-up)                   command   (Rebel: the dial for a ship this round)
  activate  (which ship activates next)                   ai-command (Imperial: dial or token, at activation)
  attack    (attack key, several joined by '+', or 'pass') defend   (token kinds to spend, joined by '+', or 'none')
  maneuver  (course key)                                  squadron-pick, squadron (squadron action key, or 'pass')
The Imperial AI (robot.py, Robot) and the Rebel policy (player.py, Policy) answer in option keys.
The engine's parts are modules of their own, one chain of classes (base.py has the fields):
``Game(Deployment(Attacks(Movement(SquadronPhase(Measures(GameBase))))))``: set-up (deployment.py), attacks
(attacks.py), ship movement (movement.py), the squadron phase (squadron_phase.py), measuring (table.py); the handicap
is handicap.py.
"""
from __future__ import annotations

import math
import random
from collections.abc import Generator
from functools import partial
from typing import Any

from ..core.contract import Decision, Option, Request
from ..core.dice import Dice
from ..core.events import EventLog
from ..core.errors import PaperRobotError
from ..core.outcome import Outcome
from ..core.robot_rules import RobotRules
from . import procedure, snapshot
from .attacks import DAMAGE_DECK, LOCK_ORDER  # noqa: F401 (LOCK_ORDER re-exported)
from .base import Steps
from .data import load_geometry
from .deployment import Deployment
from .fleets import FleetError, check_fleet, expand
from .geometry import ZONES
from .handicap import at_the_table, handicap_fleets, handicap_prices  # noqa: F401 (re-exported)
from .measure import ShotOpt, shot_label  # noqa: F401 (re-exported)
from .player import Policy
from .requests import (AI_COMMAND_CHECK, AI_COMMAND_OPTIONS, COMMAND_CHECK, COMMAND_OPTIONS, attack_check,
                       attack_options, logged_action, pick)
from .robot import Robot
from .snapshot import Snapshot
from .setup import DEFAULT_IMPERIAL, DEFAULT_REBEL, Setup, fleet_list, fleet_text  # noqa: F401 (re-exported)
from .sides import IMPERIAL, REBEL, SIDES  # noqa: F401 (re-exported)
from .state import Ship, Squad

ROUNDS = 6


class Game(Deployment):
    """One battle. Built by the registry as ``Game.build(seed=..., log=..., **setup)``; ``sequence()`` plays it.
    ``shared`` (snapshot.restore): the battle's immutable data from the engine a snapshot was taken of; the set-up is
    then not built again (restore sets the units and the rest)."""

    def __init__(self, setup: Setup, dice: Dice, log: EventLog | None = None, robot_rules: RobotRules | None = None,
                 shared: dict[str, Any] | None = None) -> None:
        if shared is None:
            self.setup = setup
            # the AI's procedure (core.robot_rules; None: the published one), armada/procedure.py; read-only, shared
            self.robot_rules = robot_rules if robot_rules is not None else procedure.load("")
            self.geo = g = load_geometry(setup.geometry)
            self.width, self.depth = g.play_area.standard if setup.table == "standard" else g.play_area.small
            self.inset = g.play_area.setup_inset if setup.table == "standard" else 0.0
        else:
            attrs = shared["attrs"]
            self.setup = attrs["setup"]
            self.robot_rules = attrs["robot_rules"]
            self.geo = attrs["geo"]
            self.width = attrs["width"]
            self.depth = attrs["depth"]
            self.inset = attrs["inset"]
        self.dice = dice
        self.log = log or EventLog(enabled=False)
        self.round = 0
        self.ships = []
        self.squads = []
        self.obstacles = []
        self.score = {IMPERIAL: 0, REBEL: 0}
        self.first = REBEL
        self.style = "normal"
        self.focal = (self.width / 2, 0.0)
        self.deck = [] if shared is not None else [n for n, c in DAMAGE_DECK for _ in range(c)]
        self.active = None
        self.phase = "setup"
        self.turn = REBEL
        self.squad_turn, self.squad_passes, self.squad_step = REBEL, 0, 0
        self.boundary = None
        self.attacks_left = 2
        self.plan = None
        self.version = 0
        self._shots = {}
        self._memo = {}
        self._memo_key = None
        self._memo_obstacles = 0
        self._pairs = {}
        self._obstacle_discs = None
        self._controllers = {}
        self._shared = shared
        if shared is None:
            self._build()

    @classmethod
    def build(cls, seed: int, log: EventLog | None = None, **setup: Any) -> "Game":
        """The registry's factory: set-up options (see armada/__init__.py) to a fresh engine. Each fleet must be a
        legal one (fleets.py: known units, a ship, the point limits), as a fleet file or --fleet must."""
        for side in ("imperial", "rebel"):
            items = [item for item in str(setup.get(side, "")).split(",") if item.strip()]
            if not items:
                raise FleetError(f"the {side} fleet is empty; list ships and squadrons, e.g. 'victory-ii,tie-fighter*4'")
            check_fleet(expand(items), setup.get("ships_dir") or None, f"the {side} fleet")
        rules = procedure.load(setup.pop("robot_rules", ""))  # "" published, a variant's path or text
        handicap, prices = setup.pop("handicap", 0), setup.pop("handicap_prices", "")
        if handicap or prices:
            setup.update(handicap_fleets(handicap, prices, setup))
        return cls(Setup.from_options(**setup), Dice(seed), log, rules)

    # ------------------------------------------------------------------ the contract
    def controller(self, side: str, kind: str) -> Robot | Policy:
        """The controller of ``side``: the Imperial AI (seed 003) flies the imperial side, the Rebel policy the rebel
        side. The seed has no Rebel robot and there is no Imperial policy, so "robot" for the rebels is the policy
        and "policy" for the Imperials is the AI (docs/armada.md 'On the game contract')."""
        if side not in self.sides or kind not in ("robot", "policy"):
            raise PaperRobotError(f"armada has no '{kind}' controller for '{side}'; the sides are "
                                  f"{', '.join(self.sides)}, flown by 'robot' or 'policy'")
        if side not in self._controllers:
            self._controllers[side] = Robot(self.dice, self.robot_rules) if side == IMPERIAL else Policy()
        return self._controllers[side]

    # ------------------------------------------------------------------ clone and fork (snapshot.py)
    def snapshot(self) -> Snapshot:
        """The mutable state at a boundary, copied (the clone protocol; called from the Match's boundary hook)."""
        return snapshot.take(self)

    def restore(self, snap: Snapshot, log: EventLog) -> "Game":
        """A new engine in ``snap``'s state whose sequence() resumes at its boundary (sharing only immutable data)."""
        return snapshot.restore(type(self), snap, log)

    def unroute(self, side: str) -> None:
        """Armada's controllers leave nothing in the engine (no standing answers): there is nothing to forget."""

    def redraw(self, side: str, rng: random.Random) -> None:
        """Re-draw what ``side`` cannot see: the other side's unrevealed command dials (snapshot.redraw)."""
        snapshot.redraw(self, side, rng)

    # ------------------------------------------------------------------ helpers
    def record(self, request: Request, decision: Decision) -> None:
        """The decision events of an answer (a robot's reasons: rule, sentence, dice)."""
        if not decision.reasons or not (self.log.enabled or self.log.listeners):
            return
        action = logged_action(request.kind, decision.action)
        side = request.side
        for r in decision.reasons:
            self.log.emit("decision", self.round, 0, side, rule=r.rule, text=r.text,
                          rolls=[x.to_json() for x in r.rolls], action=action)

    def view(self, side: str) -> dict[str, Any]:
        """What ``side`` may know now, as sfb's and fc's ``view(side)``: front ends draw the table as a game ended."""
        return self.view_for(side)

    # ------------------------------------------------------------------ the sequence of play
    def sequence(self) -> Generator[Request, Any, Outcome]:
        """The whole game in the rulebook's order (a generator of Requests; returns the Outcome). A fresh engine
        starts with the set-up; a restored one (snapshot.restore) resumes at the boundary its position names."""
        if self.phase == "setup":
            yield from self.deploy()
            self.phase = "round"
        while True:
            if self.phase == "round":
                if self.round >= ROUNDS:
                    break
                self.round += 1
                self.emit("round", number=self.round)
                self.phase = "command"
            if self.phase == "command":
                if self.boundary is not None:
                    self.boundary()
                yield from self.command_phase()
                self.phase, self.turn = "ship", self.first
            if self.phase == "ship":
                yield from self.ship_phase()
                if self.over():
                    break
                self.phase, self.squad_turn, self.squad_passes, self.squad_step = "squadron", self.first, 0, 0
            if self.phase == "squadron":
                yield from self.squadron_phase()
                if self.over():
                    break
                self.phase = "status"
            if self.boundary is not None:
                self.boundary()
            self.status_phase()
            if self.logging():
                self.emit("picture", ships=[s.to_view() for s in self.ships], squadrons=[q.to_view() for q in self.squads])
            self.phase = "round"
        self.phase = "end"
        return self.finish()

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
        if self.logging():
            self.emit("picture", ships=[s.to_view() for s in self.ships], squadrons=[q.to_view() for q in self.squads])
        metrics = {"imperial_score": float(self.score[IMPERIAL]), "rebel_score": float(self.score[REBEL]),
                   "imperial_ships_lost": float(sum(s.destroyed for s in self.ships if s.side == IMPERIAL)),
                   "rebel_ships_lost": float(sum(s.destroyed for s in self.ships if s.side == REBEL))}
        return Outcome(winner, result, self.round, metrics)

    def command_phase(self) -> Steps:
        for s in self.live_ships(REBEL):
            dec = yield self._ask("command", REBEL, state=self, subject=s, options=COMMAND_OPTIONS, default="concentrate",
                                check=COMMAND_CHECK, prompt=f"Command dial for {s.uid}")
            s.dial = dec.action
            self.emit("dial", REBEL, ship=s.uid, command=s.dial)

    def ship_phase(self) -> Steps:
        """Alternating activations from ``self.turn`` (state: a boundary before each activation)."""
        while True:
            side = self.turn
            waiting = {sd: [s for s in self.live_ships(sd) if not s.activated] for sd in SIDES}
            if not waiting[IMPERIAL] and not waiting[REBEL]:
                return
            if waiting[side]:
                if self.boundary is not None:
                    self.boundary()
                opts = tuple(Option(s.uid, f"{s.uid} ({s.spec.title})", s) for s in waiting[side])
                dec = yield self._ask("activate", side, state=self, subject=waiting[side], options=opts,
                                    check=pick(opts, "an unactivated ship of yours", "RRG Ship Phase"),
                                    prompt="Activate which ship")
                yield from self.activate(dec.action.value)
                if self.over():
                    return
            self.turn = self.enemy(side)

    def activate(self, ship: Ship) -> Steps:
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
                                options=partial(attack_options, opts), default="pass",
                                check=attack_check(opts), prompt=f"{ship.uid}: attack")
            if dec.action == "pass":
                break
            chosen: list[ShotOpt] = dec.action
            self.plan = "squadrons" if isinstance(chosen[0].target, Squad) else chosen[0].target.uid
            zone = chosen[0].zone
            assert zone is not None  # a ship attacks from a hull zone
            used.add(zone)
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
        done: list[str] = []
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

    def squadron_command(self, ship: Ship) -> Steps:
        how = self.spend_command(ship, "squadron")
        n = ship.spec.squadron if how in ("dial", "both") else 1
        mine = self.in_squad_range(ship, ship.side)
        if not mine:
            return
        enemy_sq = self.live_squads(self.enemy(ship.side))
        keys: list[tuple[float, str, int]] = []
        for i, q in enumerate(mine):
            near = math.inf
            for e in enemy_sq:
                d = math.hypot(e.x - q.x, e.y - q.y)
                if d < near:
                    near = d
            keys.append((near, q.uid, i))
        keys.sort()  # the closest squadron activates first (ARM.SQ.MOVE); uids differ
        mine = [mine[k[2]] for k in keys]
        for q in mine[:n]:
            if not q.destroyed and not self.over():
                yield from self.squadron_activation(q, ordered=True)
