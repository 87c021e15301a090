"""FC's fire: Defensive Fire at drones (ADD, phasers, tractors, impacts), Offensive Fire (both sides decide, then
resolve) and drone launches; a part of the engine (game.py's Game inherits it)."""
from __future__ import annotations

from typing import Any

from ..core.hexgrid import distance, facing_toward
from .base import Steps
from .bands import band_index
from .fire_requests import fire_request, launch_request
from . import requests as opt
from .damage import Damage
from .state import Drone, Ship, Weapon

# A shot paid for at declaration: (weapon, target: "ship" or a drone id, mode, only if the target lives, its cost)
Paid = tuple[Weapon, str, str, bool, float]


class Fire(Damage):
    # ------------------------------------------------------------------------------- defensive fire
    def defensive_fire(self) -> Steps:
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
            for _, _, d in sorted([(d.id, i, d) for i, d in enumerate(impacted) if d.alive and not d.held_by]):
                yield from self.impact(ship, d)  # by id (the index keeps sorted's stable order)
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
                if self.rec:  # emit() checks it too; here the event's data is not even built (a silent game)
                    self.emit("add", ship.side, drone=drone.id, roll=roll, hit=hit)
            return
        if step == "tractor":
            free = ship.tractors() - sum(1 for d in self.drones if d.alive and d.held_by == ship.side)
            if free > 0 and ship.spend(self.rules.tractor_use_cost):
                drone.held_by, drone.impacting = ship.side, False
                if self.rec:
                    self.emit("tractored", ship.side, drone=drone.id)
            return
        kind, as3 = (step[:-4], True) if step.endswith("-as3") else (step, False)
        for w in ship.live_weapons(kind):
            if not drone.alive:
                return
            if not w.fired and self.in_arc(ship, w.arc, drone.pos):
                self.fire_phaser_at_drone(ship, w, drone, "as3" if as3 else "")

    def fire_phaser_at_drone(self, ship: Ship, w: Weapon, drone: Drone, mode: str, paid: bool = False) -> bool:
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
        if self.rec:
            self.emit("fired", ship.side, weapon=w.id, target=drone.id, mode=mode, range=rng, roll=roll, damage=dmg,
                      destroyed=not drone.alive)
        return True

    def impact(self, ship: Ship, drone: Drone) -> Steps:
        drone.alive = False
        shield = self.drone_shield(ship, drone)
        warhead = self.rules.drone_warhead
        if self.rec:
            self.emit("impact", drone.owner, drone=drone.id, target=ship.side, shield=shield, damage=warhead)
        yield from self.apply_volley(ship, warhead, shield, "drone")

    # ------------------------------------------------------------------------------- offensive fire
    def offensive_fire(self) -> Steps:
        orders: dict[str, Any] = {}
        for side in self.order:  # decided simultaneously: nothing is paid before both have decided
            orders[side] = (yield fire_request(self, self.ships[side])).action
        # weapons are paid for when fire is declared, before any volley lands (reinforcement comes later)
        committed = {side: self.commit_fire(self.ships[side], orders[side]) for side in self.order if orders[side]}
        for side in self.order:  # simultaneous: both volleys land even if the first destroys a ship
            if side in committed:  # held fire: nothing to resolve
                yield from self.resolve_fire(self.ships[side], committed[side])

    def fire_options(self, ship: Ship) -> list[str]:
        return [w.id for w in ship.weapons if w.alive and not w.fired]

    def commit_fire(self, ship: Ship, shots: list[Any]) -> list[Paid]:
        """Pay for every shot that ``options.fire_check`` accepted; returns the paid shots."""
        target = self.enemy(ship.side)
        paid: list[Paid] = []
        for wid, tgt, mode, only_if_alive in shots:
            w = self._weapon(ship, wid)
            pos = target.pos if tgt == "ship" else self._drone(tgt).pos
            cost = self.weapon_cost(w, mode, distance(ship.pos, pos))
            assert cost is not None  # the fire request's check found the shot possible
            ship.spend(cost)
            w.fired = True
            paid.append((w, tgt, mode, bool(only_if_alive), cost))
        return paid

    def resolve_fire(self, ship: Ship, paid: list[Paid]) -> Steps:
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

    def fire_at_ship(self, ship: Ship, w: Weapon, target: Ship, mode: str) -> int:
        rng = distance(ship.pos, target.pos)
        # the purpose in full where it is read: the event log (rec), a person rolling (asker); a silent game's
        # record keeps the weapon's id
        roll = self.dice.d6(f"{w.id} {mode} at range {rng}".replace("  ", " ") if self.rec or self.dice.asker
                            else w.id, ship.side)
        dmg: int
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
            p = self.tables.photon
            col = band_index(p.bands, rng)
            dmg = (p.overload_damage if mode == "overload" else p.damage) if roll <= p.hit[col] else 0
            w.arm = 0
        if self.rec:
            self.emit("fired", ship.side, weapon=w.id, target="ship", mode=mode, range=rng, roll=roll, damage=dmg)
        return dmg

    # ------------------------------------------------------------------------------- launch
    def launch_step(self) -> Steps:
        for side in self.order:
            ship = self.ships[side]
            if not ship.ready_racks():
                continue
            targets = (yield launch_request(self, ship)).action
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
                if self.rec:
                    self.emit("launched", side, drone=did, target=tgt)
