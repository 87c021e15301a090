"""The Federation Commander sequence of play (squadron scale): the engine that enforces; controllers decide.

Turn: Energy Allocation (human first, FC.GEN.ORDER), eight impulses, End of Turn. Impulse: acceleration,
four movement sub-pulses (ships by the sub-pulse chart, the robot last; drones after ships), Defensive
Fire (impacted drones: ADD, phasers, tractors, then impacts), Offensive Fire (both sides decide, then
resolve, player's volley first), Launch. End of turn: batteries, repairs, shield transfer. See docs/fc.md.

Every decision is a ``Request(kind, side, view=game, options)``; actions are JSON-native values (strings,
numbers, lists, dicts) so that saves record them as they are:
  allocate   {"speed": 16, "regen": [1, 1], "hold": ["r1"], "photons": ["phot-1"]}
  accelerate "accel" | "none" | "emergency"
  move       "straight" | "turn-left" | "turn-right" | "slip-left" | "slip-right" | "decel" |
             "pivot-left" | "pivot-right" (turn + deceleration) | "het-A".."het-F"
  defend     [[drone_id, ["add", "phaser-3", "phaser-2-as3", "phaser-1-as3", "tractor"]], ...]
  reinforce  int tokens (options: {"damage", "shield", "cap", "kind", "penetrates"})
  fire       [[weapon_id, target ("ship" or a drone id), mode ("" | "overload" | "as3"), only_if_alive], ...]
  launch     [target, ...] ("ship" or a drone id)
  batteries  number of tokens to store
  repair     [system, ...] in priority order
  transfer   [[from_shield, to_shield, boxes], ...]
  dac_phaser weapon id ; dac_tractor "free" | "holding"
"""
from __future__ import annotations

from typing import Any

from ..core.controller import Decision, Request
from ..core.dice import Dice
from ..core.errors import IllegalAction
from ..core.events import EventLog
from ..core.hexgrid import Board, Hex, distance, facing_index, from_offset, neighbour, shield_facing_direction
from ..core.outcome import Outcome
from .data import ShipSpec, Tables, band_index, load_tables
from .geometry import facing_toward, in_arc, shields_facing
from .state import PHASERS, Drone, Ship, new_ship

SPEEDS = (0, 8, 16, 24)
# Sub-pulse movement chart (reference fedcom.md section 1): base speed -> sub-pulses; +1 adds one.
BASE_SUBPULSES = {0: (), 8: (4,), 16: (2, 4), 24: (2, 3, 4)}
ACCEL_SUBPULSE = {0: 4, 8: 2, 16: 3, 24: 1}
DRONE_SUBPULSES = (2, 3, 4)  # drones move at speed 24
MOVES = ("straight", "turn-left", "turn-right", "slip-left", "slip-right", "decel")
DEFENCE_STEPS = ("add", "phaser-3", "phaser-2-as3", "phaser-1-as3", "phaser-1", "phaser-2", "tractor")


class Game:
    """One FC duel. ``order`` is (first mover, last mover): the robot moves last (FC.GEN.ORDER)."""

    def __init__(self, specs: dict[str, ShipSpec], controllers: dict[str, Any], dice: Dice,
                 log: EventLog | None = None, tables: Tables | None = None, order: tuple[str, str] = ("player", "robot"),
                 setup: dict | None = None, start_range: int = 20, max_turns: int | None = None,
                 board: Board | None = None):
        self.tables = tables or load_tables()
        self.rules = self.tables.rules
        self.dice, self.log = dice, log or EventLog(enabled=False)
        self.controllers = controllers
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
        self.turn = 0
        self.impulse = 0
        self.subpulse = 0
        self.max_turns = max_turns or self.rules.max_turns
        self.setup = setup or {}
        self.over = False
        self._drone_count = 0
        self.pending_reasons: list = []

    # ------------------------------------------------------------------------------- helpers
    def enemy(self, side: str) -> Ship:
        first, last = self.order
        return self.ships[last if side == first else first]

    def range(self) -> int:
        a, b = self.ships.values()
        return distance(a.pos, b.pos)

    def emit(self, kind: str, side: str = "", **data) -> None:
        self.log.emit(kind, self.turn, self.impulse, side, **data)

    def ask(self, kind: str, side: str, options: Any = None) -> Any:
        decision: Decision = self.controllers[side].decide(Request(kind, side, self, options))
        if not self.log.enabled and not self.log.listeners:
            return decision.action
        for reason in decision.reasons:
            if reason.rule == "SAVE":
                continue
            self.emit("decision", side, rule=reason.rule, text=reason.text,
                      rolls=[r.to_json() for r in reason.rolls], request=kind, action=_jsonable(decision.action))
        return decision.action

    def turn_mode(self, ship: Ship) -> int:
        table = self.tables.turn_modes
        row = table.modes[ship.spec.turn_mode]
        speed = ship.speed_now()
        for i, bound in enumerate(table.speeds):
            if speed <= bound:
                return row[i]
        return row[-1]

    def subpulses(self, ship: Ship) -> tuple[int, ...]:
        if ship.stopped:
            return ()
        base = BASE_SUBPULSES[ship.baseline]
        return tuple(sorted(base + (ACCEL_SUBPULSE[ship.baseline],))) if ship.accel else base

    def shield_toward(self, ship: Ship, source: Hex, prev: Hex | None = None) -> int:
        """The shield (1..6) facing ``source``; on a boundary the stronger (defender's choice, docs/fc.md#shields)."""
        found = shields_facing(ship.pos, ship.facing, source)
        if not found and prev is not None:
            found = shields_facing(ship.pos, ship.facing, prev)
        if not found:
            return 1
        return max(found, key=lambda n: (ship.shields[n - 1], -n))

    def drone_shield(self, ship: Ship, drone: Drone) -> int:
        if drone.approach < 0:
            return self.shield_toward(ship, drone.pos)
        return shield_facing_direction(ship.facing, drone.approach)

    def incoming(self, side: str) -> list[Drone]:
        return [d for d in self.drones if d.alive and d.target == side]

    def in_arc(self, ship: Ship, arc: str, target: Hex) -> bool:
        return in_arc(ship.pos, ship.facing, arc, target)

    # ------------------------------------------------------------------------------- the game
    def run(self) -> Outcome:
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
            self.energy_allocation()
            for impulse in range(1, 9):
                self.impulse = impulse
                self.run_impulse()
                if self.over:
                    gone = any(s.disengaged for s in self.ships.values())
                    return self.outcome("disengaged" if gone else "destroyed")
            self.impulse = 0
            self.end_of_turn()
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
    def energy_allocation(self) -> None:
        for side in self.order:  # the human allocates before the robot rolls (FC.GEN.ORDER)
            ship = self.ships[side]
            ship.energy = float(ship.power())
            ship.stopped = False
            action = self.ask("allocate", side)
            self.apply_allocation(ship, action)

    def allocation_cost(self, ship: Ship, action: dict) -> float:
        cost = int(action.get("speed", 0)) * ship.spec.move_cost
        cost += self.rules.regen_cost * len(action.get("regen", ()))
        cost += self.rules.tractor_hold_cost * len(action.get("hold", ()))
        for wid in action.get("photons", ()):
            w = self._weapon(ship, wid)
            cost += self.rules.photon_hold_cost if w.arm == 2 else self.rules.photon_load_cost
        return cost

    def apply_allocation(self, ship: Ship, action: dict) -> None:
        speed = int(action.get("speed", 0))
        if speed not in SPEEDS:
            raise IllegalAction(f"baseline speed {speed} is not one of 0, 8, 16, 24", "FC.1A")
        regen = [int(n) for n in action.get("regen", ())]
        for n in regen:
            if not 1 <= n <= 6:
                raise IllegalAction(f"there is no shield #{n}", "FC.1B")
            if regen.count(n) > ship.shield_max[n - 1] - ship.shields[n - 1]:
                raise IllegalAction(f"shield #{n} has not that many disabled boxes to regenerate", "FC.1B")
        held = [d for d in self.drones if d.alive and d.held_by == ship.side]
        hold = set(action.get("hold", ()))
        for did in hold:
            if not any(d.id == did for d in held):
                raise IllegalAction(f"drone {did} is not held in this ship's tractor beam", "FC.1C")
        photons = list(action.get("photons", ()))
        for wid in photons:
            w = self._weapon(ship, wid)
            if w.kind != "photon" or not w.alive:
                raise IllegalAction(f"{wid} is not a working photon torpedo", "FC.1A")
        cost = self.allocation_cost(ship, action)
        if not ship.spend(cost):
            raise IllegalAction(f"this allocation costs {cost:g} but only {ship.available():g} is available", "FC.GEN.POWER")
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
    def run_impulse(self) -> None:
        for side in self.order:
            ship = self.ships[side]
            ship.accel = False
            ship.het_used = False
            action = self.ask("accelerate", side)
            if action == "accel":
                if ship.stopped:
                    raise IllegalAction("a ship that made an emergency deceleration cannot accelerate", "FC.2")
                if not ship.spend(self.rules.accel_cost):
                    raise IllegalAction("no power left to accelerate", "FC.GEN.POWER")
                ship.accel = True
                self.emit("accelerated", side, speed=ship.speed_now())
            elif action == "emergency":
                ship.stopped = True
                self.emit("emergency", side)
            elif action != "none":
                raise IllegalAction(f"'{action}' is not accel, none or emergency", "FC.2")
        for sp in (1, 2, 3, 4):
            self.subpulse = sp
            for side in self.order:  # the robot moves last (FC.GEN.ORDER)
                ship = self.ships[side]
                if sp in self.subpulses(ship):
                    self.move_ship(ship, self.ask("move", side, self.legal_moves(ship)))
                    if self.over:
                        return
            if sp in DRONE_SUBPULSES:
                self.move_drones()
        self.subpulse = 0
        self.defensive_fire()
        if self.over:
            return
        self.offensive_fire()
        if self.over:
            return
        self.launch_step()

    # ------------------------------------------------------------------------------- movement
    def legal_moves(self, ship: Ship) -> list[str]:
        moves = ["straight"]
        if not ship.het_used and ship.since_turn >= self.turn_mode(ship):
            moves += ["turn-left", "turn-right"]
        if ship.slip_ok and not ship.het_used:
            moves += ["slip-left", "slip-right"]
        if ship.available() >= self.rules.decel_cost:
            moves.append("decel")
            if "turn-left" in moves:  # the low-energy turn: turn one hexside, then cancel the move (2B2b)
                moves += ["pivot-left", "pivot-right"]
        if ship.available() >= ship.spec.het_cost:
            moves += [f"het-{'ABCDEF'[f]}" for f in range(6) if f != ship.facing]
        return moves

    def move_ship(self, ship: Ship, move: str) -> None:
        if move not in self.legal_moves(ship):
            raise IllegalAction(f"'{move}' is not possible now (legal: {', '.join(self.legal_moves(ship))})",
                                "FC.3A")
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
        self.emit("moved", ship.side, move=move, to=_hexlist(ship.pos), facing="ABCDEF"[ship.facing])
        if self.board is not None and not self.board.contains(ship.pos):
            # leaving a fixed map is disengagement: the ship is out of the battle (docs/fc.md#engine)
            ship.disengaged = True
            self.over = True
            self.emit("disengaged", ship.side)
            return
        # a ship entering the hex of a drone seeking it is struck at once
        for d in self.incoming(ship.side):
            if d.pos == ship.pos and not d.held_by and not d.impacting:
                d.impacting = True
                d.approach = facing_toward(ship.pos, neighbour(ship.pos, ship.facing))[0]
        for d in self.drones:
            if d.alive and d.held_by == ship.side:
                d.pos = ship.pos

    def drone_target_pos(self, drone: Drone) -> Hex | None:
        if drone.target in self.ships:
            return self.ships[drone.target].pos
        for d in self.drones:
            if d.id == drone.target and d.alive:
                return d.pos
        return None

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
    def defensive_fire(self) -> None:
        for side in self.order:
            ship = self.ships[side]
            impacted = [d for d in self.incoming(side) if d.impacting and not d.held_by]
            if not impacted:
                continue
            plan = self.ask("defend", side, [d.id for d in impacted])
            for did, steps in plan:
                drone = self._drone(did)
                if drone not in impacted:
                    raise IllegalAction(f"drone {did} is not an impacted weapon of this ship", "FC.4A")
                for step in steps:
                    if not drone.alive or drone.held_by:
                        break
                    self.defend_step(ship, drone, step)
            for d in sorted((d for d in impacted if d.alive and not d.held_by), key=lambda d: d.id):
                self.impact(ship, d)
                if self.over:
                    return
            for d in impacted:
                d.impacting = False

    def defend_step(self, ship: Ship, drone: Drone, step: str) -> None:
        if step not in DEFENCE_STEPS:
            raise IllegalAction(f"'{step}' is not a defence step ({', '.join(DEFENCE_STEPS)})", "FC.4B")
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
        roll = self.dice.d6(f"{w.id} at drone {drone.id} range {rng}", ship.side)
        dmg = chart.rows[roll - 1][col]
        drone.damage += dmg
        if drone.damage >= self.rules.drone_hits:
            drone.alive = False
        self.emit("fired", ship.side, weapon=w.id, target=drone.id, mode=mode, range=rng, roll=roll, damage=dmg,
                  destroyed=not drone.alive)
        return True

    def impact(self, ship: Ship, drone: Drone) -> None:
        drone.alive = False
        shield = self.drone_shield(ship, drone)
        warhead = self.rules.drone_warhead
        self.emit("impact", drone.owner, drone=drone.id, target=ship.side, shield=shield, damage=warhead)
        self.apply_volley(ship, warhead, shield, "drone")

    # ------------------------------------------------------------------------------- damage
    def apply_volley(self, ship: Ship, damage: int, shield: int, kind: str) -> None:
        """Reinforcement, shield, burn-through, then internals down the DAC."""
        box = ship.shields[shield - 1]
        cap = 0 if box == 0 else int(min(ship.boxes.get("battery", 0), ship.available()))
        reinforce = 0
        if cap > 0:
            reinforce = int(self.ask("reinforce", ship.side, {"damage": damage, "shield": shield, "cap": cap,
                                                               "kind": kind, "penetrates": damage > box}))
            if not 0 <= reinforce <= cap:
                raise IllegalAction(f"reinforcement must be 0 to {cap} (working batteries and power)", "FC.5F")
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
            self.allocate_internal(ship, internal)

    def allocate_internal(self, ship: Ship, points: int) -> None:
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
                    got = self._take(ship, primary) or self._take(ship, alternate)
                    if got:
                        hit.append(got)
                    else:
                        skipped += 1
            if not skipped:
                break
        for _ in range(skipped):  # still nothing to hit: the point takes any remaining box
            got = next((g for g in (self._take(ship, k) for k in ("frame", "fhull", "rhull", "warp", "phaser",
                        "torpedo", "drone") + tuple(ship.boxes)) if g), None)
            if got:
                hit.append(got)
        ship.internals += len(hit)
        self.emit("internal", ship.side, boxes=hit)
        if ship.internal_boxes() == 0 and not ship.destroyed:
            ship.destroyed = True
            self.over = True
            self.emit("destroyed", ship.side)

    def _take(self, ship: Ship, box: str) -> str | None:
        if box == "phaser":
            candidates = [w.id for w in ship.weapons if w.alive and w.phaser]
            if not candidates:
                return None
            wid = candidates[0] if len(candidates) == 1 else self.ask("dac_phaser", ship.side, candidates)
            if wid not in candidates:
                raise IllegalAction(f"{wid} is not a working phaser", "FC.DAC.PHASER")
            self._weapon(ship, wid).alive = False
            return wid
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
        if box == "tractor":
            held = [d for d in self.drones if d.alive and d.held_by == ship.side]
            if held:
                free = ship.boxes["tractor"] - len(held)
                choice = self.ask("dac_tractor", ship.side, {"free": free > 0, "holding": True})
                if choice == "holding" or free <= 0:
                    d = held[0]  # the lost tractor lets its drone go: it hits next defensive fire
                    d.held_by, d.released, d.impacting = "", True, True
        ship.boxes[box] -= 1
        if box == "battery":
            ship.battery = min(ship.battery, float(ship.boxes[box]))
        return box

    # ------------------------------------------------------------------------------- offensive fire
    def offensive_fire(self) -> None:
        orders = {side: self.ask("fire", side) for side in self.order}  # decided simultaneously
        # weapons are paid for when fire is declared, before any volley lands (reinforcement comes later)
        committed = {side: self.commit_fire(self.ships[side], orders[side]) for side in self.order}
        for side in self.order:  # simultaneous: both volleys land even if the first destroys a ship
            self.resolve_fire(self.ships[side], committed[side])

    def fire_options(self, ship: Ship) -> list[str]:
        return [w.id for w in ship.weapons if w.alive and not w.fired]

    def commit_fire(self, ship: Ship, shots: list) -> list[tuple]:
        """Check every shot (once per turn, arcs, ranges) and pay for it; returns the paid shots."""
        target = self.enemy(ship.side)
        paid, used = [], set()
        for wid, tgt, mode, only_if_alive in shots:
            w = self._weapon(ship, wid)
            if w.id in used or w.fired or not w.alive:
                raise IllegalAction(f"{wid} cannot fire (each weapon fires once per turn)", "FC.GEN.ARC")
            used.add(w.id)
            if tgt != "ship":
                drone = self._drone(tgt)
                if not w.phaser:
                    raise IllegalAction("only phasers fire at drones", "FC.5A")
                if not self.in_arc(ship, w.arc, drone.pos):
                    raise IllegalAction(f"drone {tgt} is not in the {w.arc} arc of {wid}", "FC.GEN.ARC")
                pos = drone.pos
            else:
                if not self.in_arc(ship, w.arc, target.pos):
                    raise IllegalAction(f"the enemy ship is not in the {w.arc} arc of {wid}", "FC.GEN.ARC")
                pos = target.pos
            if tgt != "ship" and mode not in ("", "as3") or tgt == "ship" and mode not in ("", "as3", "overload"):
                raise IllegalAction(f"'{mode}' is not a fire mode of {wid}", "FC.GEN.ARC")
            rng = distance(ship.pos, pos)
            cost = self.weapon_cost(w, mode, rng)
            if cost is None:
                raise IllegalAction(f"{wid} cannot fire {mode or 'standard'} at range {rng}", "FC.GEN.ARC")
            if not ship.spend(cost):
                raise IllegalAction(f"no power to fire {wid} ({cost:g} needed)", "FC.GEN.POWER")
            w.fired = True
            paid.append((w, tgt, mode, bool(only_if_alive), cost))
        return paid

    def resolve_fire(self, ship: Ship, paid: list[tuple]) -> None:
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
            self.apply_volley(target, volley, shield, "direct")

    def weapon_cost(self, w, mode: str, rng: int) -> float | None:
        """Energy to fire ``w`` in ``mode`` at range ``rng``; None if it cannot fire so."""
        r = self.rules
        if w.phaser:
            kind = "phaser-3" if mode == "as3" else w.kind
            return r.phaser_cost[kind] if band_index(self._phaser_chart(kind).bands, rng) >= 0 else None
        if w.kind == "disruptor":
            t = self.tables.disruptor
            if mode == "overload":
                return r.disruptor_overload_cost if band_index(t.overload_bands, rng) >= 0 else None
            col = band_index(t.bands, rng)
            return r.disruptor_cost if col >= 0 and t.hit[col] > 0 else None
        if w.kind == "photon":
            if w.arm != 2 or band_index(self.tables.photon.bands, rng) < 0:
                return None
            if mode == "overload":
                return r.photon_overload_cost if rng <= self.tables.photon.overload_range else None
            return 0.0
        return None

    def fire_at_ship(self, ship: Ship, w, target: Ship, mode: str) -> int:
        rng = distance(ship.pos, target.pos)
        roll = self.dice.d6(f"{w.id} {mode} at range {rng}".replace("  ", " "), ship.side)
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
        self.emit("fired", ship.side, weapon=w.id, target="ship", mode=mode, range=rng, roll=roll, damage=dmg)
        return dmg

    # ------------------------------------------------------------------------------- launch
    def launch_step(self) -> None:
        for side in self.order:
            ship = self.ships[side]
            if not ship.ready_racks():
                continue
            targets = self.ask("launch", side)
            for tgt in targets:
                racks = ship.ready_racks()
                if not racks:
                    raise IllegalAction("no drone rack is ready (one launch per rack per turn)", "FC.6A")
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

    def drone_target_pos_of(self, side: str, tgt: str) -> Hex:
        if tgt == "ship":
            return self.enemy(side).pos
        d = self._drone(tgt)
        if not d.alive or d.target != side:
            raise IllegalAction(f"{tgt} is not a drone seeking this ship", "FC.6D")
        return d.pos

    # ------------------------------------------------------------------------------- end of turn
    def end_of_turn(self) -> None:
        for side in self.order:
            ship = self.ships[side]
            store = float(self.ask("batteries", side))
            room = ship.battery_cap() - ship.battery
            if store < 0 or store > min(room, ship.energy) + 1e-9:
                raise IllegalAction(f"can store 0 to {min(room, ship.energy):g} in batteries", "FC.7A")
            ship.battery += store
            self.emit("batteries", side, stored=store, battery=ship.battery)
            ship.energy = 0.0
            self.repair(ship)
            self.transfer(ship)
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

    def damaged_systems(self, ship: Ship) -> list[str]:
        out = [k for k, n in ship.spec.systems if ship.boxes.get(k, 0) < n and k != "frame"]
        out += [w.id for w in ship.weapons if not w.alive]
        out += [f"rack-{i + 1}" for i, r in enumerate(ship.racks) if not r.alive]
        return out

    def repair_cost(self, item: str) -> int:
        c = self.rules.repair_cost
        if item.startswith("reload"):
            return self.rules.reload_cost
        if item.startswith(("ph", "disr", "phot", "rack")):
            return c["weapon"]
        if item in ("warp", "impulse", "reactor", "battery"):
            return c["power"]
        if item == "control":
            return c["control"]
        if item in ("fhull", "rhull", "cargo"):
            return c["hull"]
        return c["system"]

    def repair(self, ship: Ship) -> None:
        points = ship.spec.damage_control
        if not self.damaged_systems(ship) and not self.reload_options(ship) and not ship.repair_target:
            return
        order = list(self.ask("repair", ship.side, {"points": points}))
        if ship.repair_target:  # a started box is finished first (5G)
            order.insert(0, ship.repair_target)
        for item in order:
            if points <= 0:
                break
            if item not in self.damaged_systems(ship) and item not in self.reload_options(ship):
                continue
            cost = self.repair_cost(item)
            progress = ship.repair_done if ship.repair_target == item else 0
            spend = min(points, cost - progress)
            points -= spend
            if progress + spend >= cost:
                self._restore(ship, item)
                ship.repair_target, ship.repair_done = "", 0
                self.emit("repaired", ship.side, item=item)
            else:
                ship.repair_target, ship.repair_done = item, progress + spend

    def reload_options(self, ship: Ship) -> list[str]:
        out = ["reload-add"] if ship.spec.add_shots and ship.add_shots == 0 else []
        if ship.reloads <= 0:
            return out
        return out + [f"reload-{i + 1}" for i, r in enumerate(ship.racks) if r.alive and r.ammo < ship.spec.per_rack]

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

    def transfer(self, ship: Ship) -> None:
        moves = self.ask("transfer", ship.side)
        for a, b, n in moves:
            a, b, n = int(a), int(b), int(n)
            if (a - b) % 6 not in (1, 5):
                raise IllegalAction(f"shields #{a} and #{b} are not adjacent", "FC.7C")
            room = ship.shield_max[b - 1] - ship.shields[b - 1]
            if not 0 < n <= min(self.rules.shield_transfer_max, room, ship.shields[a - 1]):
                raise IllegalAction(f"cannot move {n} boxes from shield #{a} to #{b}", "FC.7C")
            ship.shields[a - 1] -= n
            ship.shields[b - 1] += n
            self.emit("transfer", ship.side, source=a, to=b, boxes=n)

    # ------------------------------------------------------------------------------- lookups
    def _weapon(self, ship: Ship, wid: str):
        for w in ship.weapons:
            if w.id == wid:
                return w
        raise IllegalAction(f"{ship.spec.name} has no weapon '{wid}'", "FC.GEN.ARC")

    def _drone(self, did: str) -> Drone:
        for d in self.drones:
            if d.id == did:
                return d
        raise IllegalAction(f"there is no drone '{did}'", "FC.4A")

    def _phaser_chart(self, kind: str):
        p = self.tables.phasers
        return {"phaser-1": p.phaser_1, "phaser-2": p.phaser_2, "phaser-3": p.phaser_3}[kind]


def seek_facing(pos: Hex, facing: int, target: Hex) -> int:
    """A seeking weapon's facing for its next move: straight if that is among the best, else one hexside."""
    best = None
    for turn in (0, -1, 1):  # straight first: a drone only turns when it has to (FC.GEN.DRONES)
        f = (facing + turn) % 6
        d = distance(neighbour(pos, f), target)
        if best is None or d < best[0]:
            best = (d, f)
    return best[1]


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
