"""The Federation Commander sequence of play (squadron scale): the engine that enforces; controllers decide.

Turn: Energy Allocation (human first, FC.GEN.ORDER), eight impulses, End of Turn. Impulse: acceleration,
four movement sub-pulses (ships by the sub-pulse chart, the robot last; drones after ships), Defensive
Fire (impacted drones: ADD, phasers, tractors, then impacts), Offensive Fire (both sides decide, then
resolve, player's volley first), Launch. End of turn: batteries, repairs, shield transfer. See docs/fc.md.

``Game.sequence()`` is the whole game as a generator on the game contract (core/contract.py): where the rules
ask a side it yields a Request built by requests.py (its options, form and check: nothing illegal reaches the
engine) and resumes with the parsed answer, the engine action:
  allocate   {"speed": 16, "regen": [1, 1], "hold": ["r1"], "photons": ["phot-1"]}
  accelerate "accel" | "none" | "emergency"
  move       "straight" | "turn-left" | "turn-right" | "slip-left" | "slip-right" | "decel" |
             "pivot-left" | "pivot-right" (turn + deceleration) | "het-A".."het-F"
  defend     [[drone_id, ["add", "phaser-3", "phaser-2-as3", "phaser-1-as3", "tractor"]], ...]
  reinforce  int tokens (request data: {"damage", "shield", "cap", "kind", "penetrates"})
  fire       [[weapon_id, target ("ship" or a drone id), mode ("" | "overload" | "as3"), only_if_alive], ...]
  launch     [target, ...] ("ship" or a drone id)
  batteries  number of tokens to store
  repair     [system, ...] in priority order
  transfer   [[from_shield, to_shield, boxes], ...]
  dac_phaser weapon id ; dac_tractor "free" | "holding"
The steps that may ask (energy allocation, impulses, fire, damage allocation, end of turn) are generators
called with ``yield from``. Lookups (arcs, costs, legal moves) are in lookups.py, ships' state in state.py.
"""
from __future__ import annotations

from functools import partial
from typing import Any

from ..core.contract import Request
from ..core.controller import Decision
from ..core.dice import Dice
from ..core.events import EventLog
from ..core.hexgrid import DIRECTIONS, Board, Hex, distance, facing_index, from_offset, neighbour
from ..core.outcome import Outcome
from .data import ShipSpec, Tables, band_index, load_tables
from .geometry import facing_toward
from . import fix as corrections, requests as opt
from .lookups import ACCEL_SUBPULSE, BASE_SUBPULSES, HETS, SPEEDS, Lookups  # noqa: F401 (re-exported)
from .state import Drone, Ship, new_ship

DRONE_SUBPULSES = (2, 3, 4)  # drones move at speed 24
MOVES = ("straight", "turn-left", "turn-right", "slip-left", "slip-right", "decel")
DEFENCE_STEPS = opt.DEFENCE_STEPS


class Game(Lookups):
    """One FC duel. ``order`` is (first mover, last mover): the robot moves last (FC.GEN.ORDER)."""

    sides = ("robot", "player")
    robot_side = "robot"
    fix = corrections.apply  # the table assistant's corrections (fix.py)

    def __init__(self, specs: dict[str, ShipSpec], dice: Dice,
                 log: EventLog | None = None, tables: Tables | None = None, order: tuple[str, str] = ("player", "robot"),
                 setup: dict | None = None, start_range: int = 20, max_turns: int | None = None,
                 board: Board | None = None):
        self.tables = tables or load_tables()
        self.rules = self.tables.rules
        self.dice, self.log = dice, log if log is not None else EventLog(enabled=False)
        self.order = order
        first, last = order
        self.board = board  # None: the floating map (no edges)
        mid_c, mid_r = (board.cols // 2, board.rows // 2) if board else (21, 20)
        # The two ships start facing each other, a little offset so they do not meet head on.
        self.ships: dict[str, Ship] = {
            first: new_ship(first, specs[first], from_offset(mid_c, mid_r + 1 + start_range // 2), 0),
            last: new_ship(last, specs[last], from_offset(mid_c + 2, mid_r - start_range // 2), 3),
        }
        self.drones: list[Drone] = []
        self.weapon_index = {side: {w.id: w for w in ship.weapons} for side, ship in self.ships.items()}
        self.arms = {side: ship.weapons_by_kind() for side, ship in self.ships.items()}  # kind -> weapons, in order
        self.forms: dict = {}  # per-ship forms and name sets of the requests (options.py), built once
        self.in_process: set[str] = set()  # sides flown by this engine's robot or policy (requests.py keeps
        # their accelerate and move requests and asks them again, made new: Request.reissue)
        self.standing: dict[str, dict] = {}  # side -> its controller's standing answers by request kind
        self.standing_accel: dict[str, str] = {}  # side -> its standing "accelerate" answer (read every impulse)
        self.moves: dict[str, list[str]] = {}  # the legal moves of the open move request, per side
        self._turn_modes: dict = {}
        self.view_fns = {side: partial(self.view, side) for side in self.ships}
        self.enemies = {first: self.ships[last], last: self.ships[first]}  # side -> the other ship (enemy())
        self.costs: dict[tuple, float | None] = {}  # weapon_cost by (kind, arm, mode, range): the charts are fixed
        self.turn = 0
        self.impulse = 0
        self.subpulse = 0
        self.max_turns = max_turns or self.rules.max_turns
        self.setup = setup or {}
        self.over = False
        self._drone_count = 0
        self.pending_reasons: list = []
        self.rec = True  # events are recorded (sequence() turns it off for a silent game)

    # ------------------------------------------------------------------------------- helpers

    def emit(self, kind: str, side: str = "", **data) -> None:
        self.log.emit(kind, self.turn, self.impulse, side, **data)

    # ------------------------------------------------------------------------------- the contract
    def controller(self, side: str, kind: str):
        """The robot (Robot Rules, seed 001) or the heuristic player policy for ``side``."""
        from .player import Policy
        from .robot import Robot
        if kind in ("robot", "policy"):
            self.in_process.add(side)
        if kind == "robot":
            return Robot(self.dice)
        if kind == "policy":
            self.standing[side] = Policy.standing  # answers it gives whatever the state: not asked
            if "accelerate" in Policy.standing:
                self.standing_accel[side] = Policy.standing["accelerate"]
            return Policy()
        raise ValueError(f"no '{kind}' controller in FC")

    def record(self, request: Request, decision: Decision) -> None:
        """The decision events of an answer (its reasons: rule, text, dice)."""
        if not decision.reasons or not self.rec or (not self.log.enabled and not self.log.listeners):
            return
        action = _jsonable(decision.action)
        for reason in decision.reasons:
            self.emit("decision", request.side, rule=reason.rule, text=reason.text,
                      rolls=[r.to_json() for r in reason.rolls], request=request.kind, action=action)

    def view(self, side: str) -> dict:
        """Plain JSON data of what ``side`` knows (open information, and its own energy)."""
        from .view import view
        return view(self, side)

    # ------------------------------------------------------------------------------- the game
    def sequence(self):
        """The whole game in the rulebook's order; yields requests, returns the Outcome."""
        if not self.log.enabled and not self.log.listeners:
            self.emit = _silent  # a silent game (simulations): no event is built
            self.rec = False  # and the hottest events' data is not even put together (moves, shots)
        first, last = self.order
        a, b = self.ships[first], self.ships[last]
        self.emit("setup", game="fc", **self.setup, ships={first: a.spec.name, last: b.spec.name},
                  positions={s.side: [s.pos.q, s.pos.r, s.facing] for s in (a, b)})
        provisional = [t.name for t in self.tables.provisional()]
        if provisional:
            self.emit("provisional", tables=provisional)
        self.start_internal = {s.side: s.internal_boxes() for s in (a, b)}
        for turn in range(1, self.max_turns + 1):
            self.turn, self.impulse = turn, 0
            yield from self.energy_allocation()
            for impulse in range(1, 9):
                self.impulse = impulse
                yield from self.run_impulse()
                if self.over:
                    gone = any(s.disengaged for s in self.ships.values())
                    return self.outcome("disengaged" if gone else "destroyed")
            self.impulse = 0
            yield from self.end_of_turn()
        return self.outcome("time")

    def outcome(self, how: str) -> Outcome:
        first, last = self.order
        a, b = self.ships[first], self.ships[last]
        share = {s.side: s.internals / max(1, self.start_internal[s.side]) for s in (a, b)}
        winner: str | None
        gone = {s.side: s.destroyed or s.disengaged for s in (a, b)}
        if gone[first] != gone[last]:
            winner = last if gone[first] else first
        elif a.destroyed and b.destroyed:
            winner = None  # destroyed together by simultaneous fire
        elif share[first] == share[last]:
            winner = None
        else:  # the side that did the larger share of damage to the other wins on points
            winner = first if share[last] > share[first] else last
            how = "points" if how == "time" else how
        self.emit("result", winner=winner, result=how, internals={first: a.internals, last: b.internals})
        return Outcome(winner, how, self.turn, {f"{first}_internals": float(a.internals),
                                                f"{last}_internals": float(b.internals)})

    # ------------------------------------------------------------------------------- energy allocation
    def energy_allocation(self):
        for side in self.order:  # the human allocates before the robot rolls (FC.GEN.ORDER)
            ship = self.ships[side]
            ship.energy = float(ship.power())
            ship.stopped = False
            decision = yield opt.allocate_request(self, ship)
            self.apply_allocation(ship, decision.action)

    def apply_allocation(self, ship: Ship, action: dict) -> None:
        """Apply an allocation that ``options.allocation_check`` accepted (FC.1)."""
        speed = int(action.get("speed", 0))
        regen = [int(n) for n in action.get("regen", ())]
        held = [d for d in self.drones if d.alive and d.held_by == ship.side]
        hold = set(action.get("hold", ()))
        photons = list(action.get("photons", ()))
        ship.spend(self.allocation_cost(ship, action))
        ship.baseline = speed
        for n in regen:
            ship.shields[n - 1] += 1
        for d in held:
            if d.id not in hold:  # not paid: released, it hits in the Defensive Fire of impulse 1 (5D4c)
                d.held_by, d.released, d.impacting = "", True, True
        for w in ship.live_weapons("photon"):
            if w.id in photons:
                w.arm = min(2, w.arm + 1) if w.arm < 2 else 2
            else:
                w.arm = 0
        self.emit("allocated", ship.side, speed=speed, regen=regen, hold=sorted(hold), photons=photons,
                  energy=round(ship.energy, 1), battery=round(ship.battery, 1))

    # ------------------------------------------------------------------------------- impulse
    def run_impulse(self):
        standing = self.standing_accel
        for side in self.order:
            ship = self.ships[side]
            ship.accel = False
            ship.het_used = False
            if side in standing:
                action = standing[side]  # always legal ("none"); nothing to ask
            else:
                action = (yield opt.accelerate_request(self, ship)).action
            if action == "accel":
                ship.spend(self.rules.accel_cost)
                ship.accel = True
                self.emit("accelerated", side, speed=ship.speed_now())
            elif action == "emergency":
                ship.stopped = True
                self.emit("emergency", side)
        first, last = (self.ships[side] for side in self.order)  # the robot moves last (FC.GEN.ORDER)
        pulses = (self.subpulses(first), self.subpulses(last))  # fixed for the impulse
        for sp in (1, 2, 3, 4):
            self.subpulse = sp
            for ship, moves in zip((first, last), pulses):
                if sp in moves:
                    decision = yield opt.move_request(self, ship, self.legal_moves(ship))
                    self.move_ship(ship, decision.action)
                    if self.over:
                        return
            if sp in DRONE_SUBPULSES and self.drones:
                self.move_drones()
        self.subpulse = 0
        if self.drones:  # no drone in play: nothing has impacted (checked on every impulse)
            yield from self.defensive_fire()
            if self.over:
                return
        yield from self.offensive_fire()
        if self.over:
            return
        if any(r.alive and r.ammo > 0 and not r.launched for s in self.ships.values() for r in s.racks):
            yield from self.launch_step()  # some rack is ready (launch_step asks only such a ship)

    # ------------------------------------------------------------------------------- movement

    def move_ship(self, ship: Ship, move: str) -> None:
        """Carry out a move that the move request's check found in ``legal_moves`` (FC.3A)."""
        ship.prev_pos = ship.pos
        if move.startswith("het-"):
            ship.spend(ship.spec.het_cost)
            ship.facing = facing_index(move[4])
            ship.since_turn, ship.slip_ok, ship.het_used = 0, False, True
            self.emit("het", ship.side, facing="ABCDEF"[ship.facing])
            move = "straight"  # the move after an HET is straight ahead
        if move in ("pivot-left", "pivot-right"):  # turn, then decelerate to stay in the hex
            ship.spend(self.rules.decel_cost)
            ship.facing = (ship.facing + (-1 if move == "pivot-left" else 1)) % 6
            ship.since_turn, ship.slip_ok = 1, True
            self.emit("moved", ship.side, move=move, to=_hexlist(ship.pos), facing="ABCDEF"[ship.facing])
            return
        if move == "decel":  # cancel this move: it counts for turn mode, not sideslip mode
            ship.spend(self.rules.decel_cost)
            ship.since_turn += 1
            self.emit("decelerated", ship.side, at=_hexlist(ship.pos))
            return
        if move == "straight":
            ship.pos = neighbour(ship.pos, ship.facing)
            ship.since_turn += 1
            ship.slip_ok = True
        elif move in ("turn-left", "turn-right"):
            ship.facing = (ship.facing + (-1 if move == "turn-left" else 1)) % 6
            ship.pos = neighbour(ship.pos, ship.facing)
            ship.since_turn, ship.slip_ok = 1, True
        else:  # sideslip: diagonally forward, facing kept
            ship.pos = neighbour(ship.pos, ship.facing + (-1 if move == "slip-left" else 1))
            ship.since_turn += 1
            ship.slip_ok = False
        if self.rec:
            self.emit("moved", ship.side, move=move, to=_hexlist(ship.pos), facing="ABCDEF"[ship.facing])
        if self.board is not None and not self.board.contains(ship.pos):
            # leaving a fixed map is disengagement: the ship is out of the battle (docs/fc.md#engine)
            ship.disengaged = True
            self.over = True
            self.emit("disengaged", ship.side)
            return
        if not self.drones:
            return
        # a ship entering the hex of a drone seeking it is struck at once; the drones it holds move with it
        # (one pass: a held drone is never one that strikes)
        side, pos = ship.side, ship.pos
        for d in self.drones:
            if not d.alive:
                continue
            if d.held_by == side:
                d.pos = pos
            elif d.target == side and d.pos == pos and not d.held_by and not d.impacting:
                d.impacting = True
                d.approach = facing_toward(pos, neighbour(pos, ship.facing))[0]

    def move_drones(self) -> None:
        """Seeking weapons: straight if that closes best, else one hexside toward the target (FC.GEN.DRONES)."""
        for d in self.drones:
            if not d.alive or d.held_by or d.impacting:
                continue
            target = self.drone_target_pos(d)
            if target is None:
                d.alive = False
                continue
            d.facing = seek_facing(d.pos, d.facing, target)
            prev = d.pos
            d.pos = neighbour(d.pos, d.facing)
            if d.pos == target:
                if d.target in self.ships:
                    d.impacting = True
                    d.approach = facing_toward(target, prev)[0]
                else:  # a counter-drone meets its drone: both are destroyed (TOTM-0812)
                    for other in self.drones:
                        if other.id == d.target:
                            other.alive = False
                    d.alive = False
                    self.emit("drone_destroyed", d.owner, drone=d.target, by=d.id)

    # ------------------------------------------------------------------------------- defensive fire
    def defensive_fire(self):
        if not self.drones:
            return  # no drone in play: nothing has impacted (checked on every impulse)
        for side in self.order:
            ship = self.ships[side]
            impacted = [d for d in self.incoming(side) if d.impacting and not d.held_by]
            if not impacted:
                continue
            plan = (yield opt.defend_request(self, ship, [d.id for d in impacted])).action
            for did, steps in plan:
                drone = self._drone(did)
                for step in steps:
                    if not drone.alive or drone.held_by:
                        break
                    self.defend_step(ship, drone, step)
            for d in sorted((d for d in impacted if d.alive and not d.held_by), key=lambda d: d.id):
                yield from self.impact(ship, d)
                if self.over:
                    return
            for d in impacted:
                d.impacting = False

    def defend_step(self, ship: Ship, drone: Drone, step: str) -> None:
        """One defence step (one of DEFENCE_STEPS, checked by the defend request) against an impacted drone."""
        if step == "add":
            if ship.add_shots > 0 and not drone.released:
                ship.add_shots -= 1
                roll = self.dice.d6(f"ADD at drone {drone.id}", ship.side)
                hit = roll <= self.rules.add_hit
                if hit:
                    drone.alive = False
                self.emit("add", ship.side, drone=drone.id, roll=roll, hit=hit)
            return
        if step == "tractor":
            free = ship.tractors() - sum(1 for d in self.drones if d.alive and d.held_by == ship.side)
            if free > 0 and ship.spend(self.rules.tractor_use_cost):
                drone.held_by, drone.impacting = ship.side, False
                self.emit("tractored", ship.side, drone=drone.id)
            return
        kind, as3 = (step[:-4], True) if step.endswith("-as3") else (step, False)
        for w in ship.live_weapons(kind):
            if not drone.alive:
                return
            if not w.fired and self.in_arc(ship, w.arc, drone.pos):
                self.fire_phaser_at_drone(ship, w, drone, "as3" if as3 else "")

    def fire_phaser_at_drone(self, ship: Ship, w, drone: Drone, mode: str, paid: bool = False) -> bool:
        kind = "phaser-3" if mode == "as3" else w.kind
        rng = distance(ship.pos, drone.pos)
        chart = self._phaser_chart(kind)
        col = band_index(chart.bands, rng)
        if col < 0 or (not paid and not ship.spend(self.rules.phaser_cost[kind])):
            return False
        w.fired = True
        roll = self.dice.d6(f"{w.id} at drone {drone.id} range {rng}" if self.rec or self.dice.asker else w.id,
                            ship.side)  # the purpose in full only where it is read (see fire_at_ship)
        dmg = chart.rows[roll - 1][col]
        drone.damage += dmg
        if drone.damage >= self.rules.drone_hits:
            drone.alive = False
        self.emit("fired", ship.side, weapon=w.id, target=drone.id, mode=mode, range=rng, roll=roll, damage=dmg,
                  destroyed=not drone.alive)
        return True

    def impact(self, ship: Ship, drone: Drone):
        drone.alive = False
        shield = self.drone_shield(ship, drone)
        warhead = self.rules.drone_warhead
        self.emit("impact", drone.owner, drone=drone.id, target=ship.side, shield=shield, damage=warhead)
        yield from self.apply_volley(ship, warhead, shield, "drone")

    # ------------------------------------------------------------------------------- damage
    def apply_volley(self, ship: Ship, damage: int, shield: int, kind: str):
        """Reinforcement, shield, burn-through, then internals down the DAC."""
        box = ship.shields[shield - 1]
        cap = 0 if box == 0 else int(min(ship.boxes.get("battery", 0), ship.available()))
        reinforce = 0
        if cap > 0:
            info = {"damage": damage, "shield": shield, "cap": cap, "kind": kind, "penetrates": damage > box}
            reinforce = (yield opt.reinforce_request(self, ship, info)).action
            ship.spend(reinforce)
        left = max(0, damage - reinforce)
        absorbed = min(box, left)
        ship.shields[shield - 1] -= absorbed
        internal = left - absorbed
        if internal == 0 and damage >= self.rules.burn_through:
            internal = 1  # the 10-point volley rule: one point always gets through
        self.emit("damage", ship.side, shield=shield, damage=damage, reinforced=reinforce, shield_boxes=absorbed,
                  internal=internal, shield_left=ship.shields[shield - 1])
        if internal:
            yield from self.allocate_internal(ship, internal)

    def allocate_internal(self, ship: Ship, points: int):
        tables = self.tables.dac.tables
        hit: list[str] = []
        skipped = points
        for _ in range(3):  # skipped points are re-allocated with new table rolls (3D3d)
            points, skipped = skipped, 0
            while points > 0:
                t = self.dice.d6("damage allocation table", ship.side)
                for primary, alternate in tables[t - 1]:
                    if points == 0:
                        break
                    points -= 1
                    got = self._take_now(ship, primary)
                    if got is ASK:
                        got = yield from self._take(ship, primary)
                    if not got:
                        got = self._take_now(ship, alternate)
                        if got is ASK:
                            got = yield from self._take(ship, alternate)
                    if got:
                        hit.append(got)
                    else:
                        skipped += 1
            if not skipped:
                break
        for _ in range(skipped):  # still nothing to hit: the point takes any remaining box
            for k in ("frame", "fhull", "rhull", "warp", "phaser", "torpedo", "drone") + tuple(ship.boxes):
                got = self._take_now(ship, k)
                if got is ASK:
                    got = yield from self._take(ship, k)
                if got:
                    hit.append(got)
                    break
        ship.internals += len(hit)
        self.emit("internal", ship.side, boxes=hit)
        if ship.internal_boxes() == 0 and not ship.destroyed:
            ship.destroyed = True
            self.over = True
            self.emit("destroyed", ship.side)

    def _take_now(self, ship: Ship, box: str):
        """Destroy one ``box`` (a DAC entry) where the owner has no choice to make (almost every damage point):
        what was hit, or None; ASK, with nothing done, where the owner chooses (which phaser, which tractor)."""
        if box == "phaser":
            candidates = [w for w in ship.weapons if w.alive and w.phaser]
            if len(candidates) != 1:
                return ASK if candidates else None
            candidates[0].alive = False
            return candidates[0].id
        if box == "torpedo":
            w = next((w for w in ship.weapons if w.alive and not w.phaser), None)
            if w is None:
                return None
            w.alive = False
            return w.id
        if box == "drone":
            rack = next((r for r in ship.racks if r.alive), None)
            if rack is None:
                return None
            rack.alive = False
            return "drone-rack"
        if ship.boxes.get(box, 0) <= 0:
            return None
        if box == "tractor" and any(d.alive and d.held_by == ship.side for d in self.drones):
            return ASK
        ship.boxes[box] -= 1
        if box == "battery":
            ship.battery = min(ship.battery, float(ship.boxes[box]))
        return box

    def _take(self, ship: Ship, box: str):
        """Destroy one ``box``; returns what was hit or None. A generator: the owner may choose (``_take_now``
        does the rest without building a generator per damage point)."""
        got = self._take_now(ship, box)
        if got is not ASK:
            return got
        if box == "phaser":
            candidates = [w.id for w in ship.weapons if w.alive and w.phaser]
            wid = (yield opt.dac_phaser_request(self, ship, candidates)).action
            self._weapon(ship, wid).alive = False
            return wid
        held = [d for d in self.drones if d.alive and d.held_by == ship.side]  # a tractor, some holding drones
        free = ship.boxes["tractor"] - len(held)
        choice = (yield opt.dac_tractor_request(self, ship, {"free": free > 0, "holding": True})).action
        if choice == "holding" or free <= 0:
            d = held[0]  # the lost tractor lets its drone go: it hits next defensive fire
            d.held_by, d.released, d.impacting = "", True, True
        ship.boxes["tractor"] -= 1
        return "tractor"

    # ------------------------------------------------------------------------------- offensive fire
    def offensive_fire(self):
        orders = {}
        for side in self.order:  # decided simultaneously: nothing is paid before both have decided
            orders[side] = (yield opt.fire_request(self, self.ships[side])).action
        # weapons are paid for when fire is declared, before any volley lands (reinforcement comes later)
        committed = {side: self.commit_fire(self.ships[side], orders[side]) for side in self.order if orders[side]}
        for side in self.order:  # simultaneous: both volleys land even if the first destroys a ship
            if side in committed:  # held fire: nothing to resolve
                yield from self.resolve_fire(self.ships[side], committed[side])

    def fire_options(self, ship: Ship) -> list[str]:
        return [w.id for w in ship.weapons if w.alive and not w.fired]

    def commit_fire(self, ship: Ship, shots: list) -> list[tuple]:
        """Pay for every shot that ``options.fire_check`` accepted; returns the paid shots."""
        target = self.enemy(ship.side)
        paid = []
        for wid, tgt, mode, only_if_alive in shots:
            w = self._weapon(ship, wid)
            pos = target.pos if tgt == "ship" else self._drone(tgt).pos
            cost = self.weapon_cost(w, mode, distance(ship.pos, pos))
            ship.spend(cost)
            w.fired = True
            paid.append((w, tgt, mode, bool(only_if_alive), cost))
        return paid

    def resolve_fire(self, ship: Ship, paid: list[tuple]):
        target = self.enemy(ship.side)
        volley = 0
        for w, tgt, mode, only_if_alive, cost in paid:
            if tgt != "ship":
                drone = self._drone(tgt)
                if not drone.alive:  # a shot held for a drone already destroyed: not fired, power back
                    w.fired = False
                    ship.energy += cost
                    continue
                self.fire_phaser_at_drone(ship, w, drone, mode, paid=True)
                continue
            volley += self.fire_at_ship(ship, w, target, mode)
        if volley > 0:
            shield = self.shield_toward(target, ship.pos, ship.prev_pos)
            yield from self.apply_volley(target, volley, shield, "direct")

    def fire_at_ship(self, ship: Ship, w, target: Ship, mode: str) -> int:
        rng = distance(ship.pos, target.pos)
        # the purpose in full where it is read: the event log (rec), a person rolling (asker); a silent game's
        # record keeps the weapon's id
        roll = self.dice.d6(f"{w.id} {mode} at range {rng}".replace("  ", " ") if self.rec or self.dice.asker
                            else w.id, ship.side)
        if w.phaser:
            kind = "phaser-3" if mode == "as3" else w.kind
            chart = self._phaser_chart(kind)
            dmg = chart.rows[roll - 1][band_index(chart.bands, rng)]
        elif w.kind == "disruptor":
            ship.fired_disruptors = True
            t = self.tables.disruptor
            if mode == "overload":
                col = band_index(t.overload_bands, rng)
                dmg = t.overload_damage[col] if roll <= t.overload_hit[col] else 0
            else:
                col = band_index(t.bands, rng)
                dmg = t.damage[col] if roll <= t.hit[col] else 0
        else:
            t = self.tables.photon
            col = band_index(t.bands, rng)
            dmg = (t.overload_damage if mode == "overload" else t.damage) if roll <= t.hit[col] else 0
            w.arm = 0
        if self.rec:
            self.emit("fired", ship.side, weapon=w.id, target="ship", mode=mode, range=rng, roll=roll, damage=dmg)
        return dmg

    # ------------------------------------------------------------------------------- launch
    def launch_step(self):
        for side in self.order:
            ship = self.ships[side]
            if not ship.ready_racks():
                continue
            targets = (yield opt.launch_request(self, ship)).action
            for tgt in targets:
                racks = ship.ready_racks()
                aim = self.drone_target_pos_of(side, tgt)
                rack = racks[0]
                rack.ammo -= 1
                rack.launched = True
                self._drone_count += 1
                did = f"{side[0]}{self._drone_count}"
                facing = facing_toward(ship.pos, aim)[0] if aim != ship.pos else ship.facing
                self.drones.append(Drone(did, side, tgt if tgt != "ship" else self.enemy(side).side, ship.pos,
                                         facing, self.turn))
                self.emit("launched", side, drone=did, target=tgt)

    # ------------------------------------------------------------------------------- end of turn
    def end_of_turn(self):
        for side in self.order:
            ship = self.ships[side]
            store = (yield opt.batteries_request(self, ship)).action
            ship.battery += store
            self.emit("batteries", side, stored=store, battery=ship.battery)
            ship.energy = 0.0
            yield from self.repair(ship)
            yield from self.transfer(ship)
            for w in ship.weapons:
                w.fired = False
            for r in ship.racks:
                r.launched = False
            ship.fired_disruptors = False
            ship.tractors_used = 0
        for d in self.drones:  # endurance (4G6): gone at the end of the third turn after launch
            if d.alive and self.turn - d.launched_turn >= self.rules.drone_endurance_turns:
                d.alive = False
                if d.held_by:
                    d.held_by = ""
        self.drones = [d for d in self.drones if d.alive]

    def repair(self, ship: Ship):
        points = ship.spec.damage_control
        if not self.damaged_systems(ship) and not self.reload_options(ship) and not ship.repair_target:
            return
        order = list((yield opt.repair_request(self, ship, points)).action)
        if ship.repair_target:  # a started box is finished first (5G)
            order.insert(0, ship.repair_target)
        repairable = None  # what can be repaired now: the same until a box is restored
        for item in order:
            if points <= 0:
                break
            if repairable is None:
                repairable = set(self.damaged_systems(ship)) | set(self.reload_options(ship))
            if item not in repairable:
                continue
            cost = self.repair_cost(item)
            progress = ship.repair_done if ship.repair_target == item else 0
            spend = min(points, cost - progress)
            points -= spend
            if progress + spend >= cost:
                self._restore(ship, item)
                repairable = None
                ship.repair_target, ship.repair_done = "", 0
                self.emit("repaired", ship.side, item=item)
            else:
                ship.repair_target, ship.repair_done = item, progress + spend

    def _restore(self, ship: Ship, item: str) -> None:
        if item == "reload-add":  # the ADD is reloaded from the ship's stores (docs/fc.md#repairs)
            ship.add_shots = ship.spec.add_shots
        elif item.startswith("reload-"):
            ship.racks[int(item[7:]) - 1].ammo = ship.spec.per_rack
            ship.reloads -= 1
        elif item.startswith("rack-"):
            ship.racks[int(item[5:]) - 1].alive = True
        elif item in ship.boxes:
            ship.boxes[item] += 1
        else:
            self._weapon(ship, item).alive = True

    def transfer(self, ship: Ship):
        moves = (yield opt.transfer_request(self, ship)).action
        for a, b, n in moves:  # checked by options.transfer_check (FC.7C)
            ship.shields[a - 1] -= n
            ship.shields[b - 1] += n
            self.emit("transfer", ship.side, source=a, to=b, boxes=n)

    # ------------------------------------------------------------------------------- lookups




ASK = object()  # _take_now: the owner chooses what is lost; ask (the generator _take)


def _silent(*args, **data) -> None:
    return None


def seek_facing(pos: Hex, facing: int, target: Hex) -> int:
    """A seeking weapon's facing for its next move: straight if that is among the best, else one hexside."""
    tq, tr = target[0] - pos[0], target[1] - pos[1]
    best, chosen = 1 << 30, facing
    for turn in (0, -1, 1):  # straight first: a drone only turns when it has to (FC.GEN.DRONES)
        f = (facing + turn) % 6
        step = DIRECTIONS[f]
        dq, dr = tq - step[0], tr - step[1]  # the range from the hex ahead that way (hexgrid.distance, inline:
        s = dq + dr                           # three drone moves an impulse each ask it three times)
        d = ((dq if dq > 0 else -dq) + (dr if dr > 0 else -dr) + (s if s > 0 else -s)) >> 1
        if d < best:
            best, chosen = d, f
    return chosen


def _hexlist(h: Hex) -> list[int]:
    return [h.q, h.r]


def _jsonable(action: Any) -> Any:
    if isinstance(action, tuple):
        return [_jsonable(a) for a in action]
    if isinstance(action, list):
        return [_jsonable(a) for a in action]
    if isinstance(action, dict):
        return {k: _jsonable(v) for k, v in action.items()}
    return action
