"""What the FC engine looks up while it runs the sequence of play: the enemy, ranges, arcs and shields, turn
modes and sub-pulses, the legal moves, the cost of speed, weapons and repairs, the damaged systems, charts.

The first part of ``Game`` after its fields (base.py; it reads ``ships``, ``drones``, ``tables``, ``rules``, ``order``): pure lookups that change
nothing, so the requests' checks (requests.py) and the controllers may call them.
"""
from __future__ import annotations

from ..core.errors import IllegalAction
from typing import Any, Final, cast

from ..core.hexgrid import Hex, distance, in_arc, shield_facing_direction, shields_facing
from .bands import band_index
from .data import Chart
from .base import GameBase
from .state import Drone, Ship, Weapon

_UNKNOWN: Final = object()  # weapon_cost's memo has no entry (its values may be None)
_RANGE_BOUND: Final = 1 << 24  # ranges packed into weapon_cost's int key (beyond: a tuple key)
SPEEDS = (0, 8, 16, 24)
# Sub-pulse movement chart (reference fedcom.md section 1): base speed -> sub-pulses; +1 adds one.
BASE_SUBPULSES = {0: (), 8: (4,), 16: (2, 4), 24: (2, 3, 4)}
ACCEL_SUBPULSE = {0: 4, 8: 2, 16: 3, 24: 1}
PHASER_CHARTS = {"phaser-1": "phaser_1", "phaser-2": "phaser_2", "phaser-3": "phaser_3"}  # kind -> Tables field
SLIPS, PIVOTS = ("slip-left", "slip-right"), ("pivot-left", "pivot-right")
# phaser kind -> (the tables, its chart there): every phaser shot and cost asks it, and the chart is a field named by a
# string (a module dictionary's lookup, two reads by name and a getattr); the tables are held, so checked by identity
_CHARTS: Final[dict[str, tuple[Any, Chart]]] = {}
_MOVES: Final[dict[int, tuple[str, ...]]] = {}  # legal_moves by what decides them
HETS = tuple(tuple(f"het-{'ABCDEF'[f]}" for f in range(6) if f != facing) for facing in range(6))  # by facing


class Lookups(GameBase):
    def enemy(self, side: str) -> Ship:
        return self.enemies[side]

    def range(self) -> int:
        a, b = self.ships.values()
        return distance(a.pos, b.pos)

    def turn_mode(self, ship: Ship) -> int:
        speed = 0 if ship.stopped else ship.baseline + (1 if ship.accel else 0)  # ship.speed_now()
        key = (ship.spec.turn_mode, speed)
        found = self._turn_modes.get(key)
        if found is None:
            table = self.tables.turn_modes
            row = table.modes[ship.spec.turn_mode]
            found = row[-1]
            for i, bound in enumerate(table.speeds):
                if speed <= bound:
                    found = row[i]
                    break
            self._turn_modes[key] = found
        return found

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
        best, most = found[0], ship.shields[found[0] - 1]  # max((boxes, -n)): the most boxes, the lowest number
        for n in found[1:]:
            boxes = ship.shields[n - 1]
            if boxes > most or (boxes == most and n < best):
                best, most = n, boxes
        return best

    def drone_shield(self, ship: Ship, drone: Drone) -> int:
        if drone.approach < 0:
            return self.shield_toward(ship, drone.pos)
        return shield_facing_direction(ship.facing, drone.approach)

    def incoming(self, side: str) -> list[Drone]:
        return [d for d in self.drones if d.alive and d.target == side]

    def in_arc(self, ship: Ship, arc: str, target: Hex) -> bool:
        return in_arc(ship.pos, ship.facing, arc, target)

    def allocation_cost(self, ship: Ship, action: dict[str, Any]) -> float:
        cost = int(action.get("speed", 0)) * ship.spec.move_cost
        cost += self.rules.regen_cost * len(action.get("regen", ()))
        cost += self.rules.tractor_hold_cost * len(action.get("hold", ()))
        for wid in action.get("photons", ()):
            w = self._weapon(ship, wid)
            cost += self.rules.photon_hold_cost if w.arm == 2 else self.rules.photon_load_cost
        return cost

    def legal_moves(self, ship: Ship) -> tuple[str, ...]:
        """The legal moves now (FC.3A), in a fixed order: one shared tuple per combination of what decides them
        (turn mode, slip mode, power for a deceleration and for an HET, facing), never changed by anyone."""
        het_used = ship.het_used
        turn = not het_used and ship.since_turn >= self.turn_mode(ship)
        slip = ship.slip_ok and not het_used
        power = ship.energy + ship.battery  # ship.available()
        decel = power >= self.rules.decel_cost
        het = power >= ship.spec.het_cost
        key = ((((ship.facing % 6) << 1 | het) << 1 | decel) << 1 | slip) << 1 | turn
        found = _MOVES.get(key)
        if found is None:
            moves = ["straight", "turn-left", "turn-right"] if turn else ["straight"]
            if slip:
                moves += SLIPS
            if decel:
                moves.append("decel")
                if turn:  # the low-energy turn: turn one hexside, then cancel the move (2B2b)
                    moves += PIVOTS
            if het:
                moves += HETS[ship.facing % 6]
            found = _MOVES[key] = tuple(moves)
        return found

    def drone_target_pos(self, drone: Drone) -> Hex | None:
        if drone.target in self.ships:
            return self.ships[drone.target].pos
        for d in self.drones:
            if d.id == drone.target and d.alive:
                return d.pos
        return None

    def weapon_cost(self, w: Weapon, mode: str, rng: int) -> float | None:
        """Energy to fire ``w`` in ``mode`` at range ``rng``; None if it cannot fire so. Memoised per game (the
        robot, the policy and the checks ask it hundreds of times a battle; the charts do not change)."""
        # the key: one int (no tuple built and hashed per call) for the known kinds, modes and armings, else a tuple
        m = 0 if mode == "" else 1 if mode == "overload" else 2 if mode == "as3" else -1
        arm = w.arm
        key: Any
        if w.code and m >= 0 and 0 <= arm < 4 and 0 <= rng < _RANGE_BOUND:
            key = ((rng << 3 | w.code) << 2 | arm) << 2 | m
        else:
            key = (w.kind, arm, mode, rng)
        costs = self.costs
        found = costs.get(key, _UNKNOWN)
        if found is _UNKNOWN:
            found = costs[key] = self._weapon_cost(w, mode, rng)
        return cast("float | None", found)  # a string type: no union built per call in pure Python

    def _weapon_cost(self, w: Weapon, mode: str, rng: int) -> float | None:
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

    def drone_target_pos_of(self, side: str, tgt: str) -> Hex:
        if tgt == "ship":
            return self.enemy(side).pos
        d = self._drone(tgt)
        if not d.alive or d.target != side:
            raise IllegalAction(f"{tgt} is not a drone seeking this ship", "FC.6D")
        return d.pos

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

    def reload_options(self, ship: Ship) -> list[str]:
        out = ["reload-add"] if ship.spec.add_shots and ship.add_shots == 0 else []
        if ship.reloads <= 0:
            return out
        return out + [f"reload-{i + 1}" for i, r in enumerate(ship.racks) if r.alive and r.ammo < ship.spec.per_rack]

    def _weapon(self, ship: Ship, wid: str) -> Weapon:
        for w in ship.weapons:
            if w.id == wid:
                return w
        raise IllegalAction(f"{ship.spec.name} has no weapon '{wid}'", "FC.GEN.ARC")

    def _drone(self, did: str) -> Drone:
        for d in self.drones:
            if d.id == did:
                return d
        raise IllegalAction(f"there is no drone '{did}'", "FC.4A")

    def _phaser_chart(self, kind: str) -> Chart:
        tables = self.tables
        found = _CHARTS.get(kind)
        if found is None or found[0] is not tables:
            found = _CHARTS[kind] = (tables, getattr(tables.phasers, PHASER_CHARTS[kind]))
        return found[1]
