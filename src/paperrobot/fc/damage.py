"""FC's damage: volleys on the shields, internal damage by the Damage Allocation Chart, the owner's choices of what is
lost; a part of the engine (game.py's Game inherits it)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Generator

from . import requests as opt
from .base import Steps
from .end_requests import dac_phaser_request, dac_tractor_request
from .end_of_turn import EndOfTurn
from .state import Ship

if TYPE_CHECKING:
    from ..core.contract import Request

ASK: Final = "?ask"  # _take_now: the owner chooses what is lost; ask (the generator _take). No box is named so


class Damage(EndOfTurn):
    # ------------------------------------------------------------------------------- damage
    def apply_volley(self, ship: Ship, damage: int, shield: int, kind: str) -> Steps:
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
        if self.rec:  # emit() checks it too; here the event's data is not even built (a silent game)
            self.emit("damage", ship.side, shield=shield, damage=damage, reinforced=reinforce, shield_boxes=absorbed,
                      internal=internal, shield_left=ship.shields[shield - 1])
        if internal:
            yield from self.allocate_internal(ship, internal)

    def allocate_internal(self, ship: Ship, points: int) -> Steps:
        """The points down the Damage Allocation Chart (3D3), a table roll for each row of points. Once the ship has
        no box left (it is being destroyed), the rest of the points are rolled for as before and hit nothing:
        the dice go on as they did, no box is looked for (most of a destroying volley's points, ~60% of the calls)."""
        tables = self.tables.dac.tables
        hit: list[str] = []
        skipped = points
        empty = not _has_box(ship)
        for _ in range(3):  # skipped points are re-allocated with new table rolls (3D3d)
            points, skipped = skipped, 0
            while points > 0:
                t = self.dice.d6("damage allocation table", ship.side)
                row = tables[t - 1]
                if empty:  # nothing to hit: each entry of the row takes a point, skipped
                    n = min(points, len(row))
                    points -= n
                    skipped += n
                    continue
                for primary, alternate in row:
                    if points == 0:
                        break
                    points -= 1
                    if empty:
                        skipped += 1
                        continue
                    got = self._take_now(ship, primary)
                    if got == ASK:
                        got = yield from self._take(ship, primary)
                    if not got:
                        got = self._take_now(ship, alternate)
                        if got == ASK:
                            got = yield from self._take(ship, alternate)
                    if got:
                        hit.append(got)
                        empty = not _has_box(ship)
                    else:
                        skipped += 1
            if not skipped:
                break
        for _ in range(skipped):  # still nothing to hit: the point takes any remaining box
            if empty:
                break
            for k in ("frame", "fhull", "rhull", "warp", "phaser", "torpedo", "drone") + tuple(ship.boxes):
                got = self._take_now(ship, k)
                if got == ASK:
                    got = yield from self._take(ship, k)
                if got:
                    hit.append(got)
                    empty = not _has_box(ship)
                    break
        ship.internals += len(hit)
        if self.rec:
            self.emit("internal", ship.side, boxes=hit)
        if ship.internal_boxes() == 0 and not ship.destroyed:
            ship.destroyed = True
            self.over = True
            self.emit("destroyed", ship.side)

    def _take_now(self, ship: Ship, box: str) -> str | None:
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

    def _take(self, ship: Ship, box: str) -> Generator[Request, Any, str | None]:
        """Destroy one ``box``; returns what was hit or None. A generator: the owner may choose (``_take_now``
        does the rest without building a generator per damage point)."""
        got = self._take_now(ship, box)
        if got != ASK:
            return got
        if box == "phaser":
            candidates = [w.id for w in ship.weapons if w.alive and w.phaser]
            wid: str = (yield dac_phaser_request(self, ship, candidates)).action
            self._weapon(ship, wid).alive = False
            return wid
        held = [d for d in self.drones if d.alive and d.held_by == ship.side]  # a tractor, some holding drones
        free = ship.boxes["tractor"] - len(held)
        choice: str = (yield dac_tractor_request(self, ship, {"free": free > 0, "holding": True})).action
        if choice == "holding" or free <= 0:
            d = held[0]  # the lost tractor lets its drone go: it hits next defensive fire
            d.held_by, d.released, d.impacting = "", True, True
        ship.boxes["tractor"] -= 1
        return "tractor"


def _has_box(ship: Ship) -> bool:
    """Has ``ship`` a box a damage point can take (_take_now: a system box, a live weapon, a live drone rack)?"""
    for count in ship.boxes.values():
        if count > 0:
            return True
    for w in ship.weapons:
        if w.alive:
            return True
    for r in ship.racks:
        if r.alive:
            return True
    return False
