"""FC's End of Turn (FC.7): batteries, repairs and shield transfers; a part of the engine (game.py's Game inherits it)."""
from __future__ import annotations

from .base import Steps
from .end_requests import batteries_request, repair_request, transfer_request
from .lookups import Lookups
from .state import Ship


class EndOfTurn(Lookups):
    # ------------------------------------------------------------------------------- end of turn
    def end_of_turn(self) -> Steps:
        for side in self.order:
            ship = self.ships[side]
            store = (yield batteries_request(self, ship)).action
            ship.battery += store
            if self.rec:  # emit() checks it too; here the event's data is not even built (a silent game)
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

    def repair(self, ship: Ship) -> Steps:
        points = ship.spec.damage_control
        if not self.damaged_systems(ship) and not self.reload_options(ship) and not ship.repair_target:
            return
        order = list((yield repair_request(self, ship, points)).action)
        if ship.repair_target:  # a started box is finished first (5G)
            order.insert(0, ship.repair_target)
        repairable: set[str] | None = None  # what can be repaired now: the same until a box is restored
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
                if self.rec:
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

    def transfer(self, ship: Ship) -> Steps:
        moves = (yield transfer_request(self, ship)).action
        for a, b, n in moves:  # checked by options.transfer_check (FC.7C)
            ship.shields[a - 1] -= n
            ship.shields[b - 1] += n
            if self.rec:
                self.emit("transfer", ship.side, source=a, to=b, boxes=n)
