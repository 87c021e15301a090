"""The SFB impulse procedure's steps (CTH p.48): 1 move ships, 4 launch seeking weapons (drones and plasma
torpedoes), 5-6 direct fire, resolved together, 7 end of impulse. Steps 2-3 (seeking weapons move and strike)
are combat.Combat.move_seekers; game.Game.play_turns runs the steps in order on every impulse.

``ImpulseSteps`` is a part of the engine class (game.Game inherits it; base.py lists the chain).
"""
from __future__ import annotations

from typing import Any, ClassVar, Final, Generator

from ..core import hexgrid
from ..core.contract import Request
from ..core.controller import Decision
from ..core.hexgrid import distance
from .energy_phase import EnergyPhase
from .movement import LEFT, STRAIGHT, step
from .state import Ship, Weapon


def _move_order(ship: Ship) -> tuple[int, bool, str]:
    """C1.3's order (ImpulseSteps.movers): slower first, then the player side before the robot, then by name."""
    return ship.speed, ship.robot, ship.name


# what the robot's rules make it remember (robot.Robot.note), stored on its ship (remember)
ROBOT_MEMORY: Final = frozenset(("primary_done", "tie_side", "focus"))


class ImpulseSteps(EnergyPhase):
    """The steps of one impulse; each asks the sides through requests (requests.py) where the rules ask."""

    ROBOT_MEMORY: ClassVar[frozenset[str]] = ROBOT_MEMORY

    # ------------------------------------------------------------------------------ step 1
    def movers(self) -> list[Ship]:
        """The ships that move this impulse (the impulse chart, C1.44), in their order. C1.3: slower units move
        first; equal speeds: the player side first, so the robot follows it "as a seeking weapon" that moves after
        its target (docs/sfb.md "Movement order")."""
        if self.order_turn != self.turn:
            # a module function, not a lambda: compiled, a lambda here made a closure at every call of movers
            self.order = sorted(self.ships, key=_move_order)
            self.order_turn = self.turn
        impulse, chart = self.impulse, self.chart
        return [s for s in self.order if s.speed > 0 and not s.destroyed and not s.gone
                and chart[s.speed if s.speed < self.impulses else self.impulses][impulse]]

    def moved_unasked(self, movers: list[Ship] | None = None) -> bool:
        """Step 1 when no ship moving this impulse may turn (its turn mode not yet satisfied, C3.2): each goes
        straight ahead and nothing is asked, so the step is done here, as ``move_ships`` would do it, without a
        generator (about a sixth of the move steps of a search play-out at SFB #5). False, and nothing done, when a
        ship moving now may turn: a ship's move changes no other ship's turn mode, so the test holds for the whole
        step. ``movers``: ``self.movers()``, already worked out for this step (the sequence of play passes the same
        list on to ``move_ships``)."""
        if movers is None:
            movers = self.movers()
        for ship in movers:
            if ship.straight >= ship.tm_table[ship.speed]:  # Ship.turn_mode(), inlined
                return False
        for ship in movers:
            if ship.destroyed or ship.gone:  # Ship.active, inlined; it may have left the map this impulse
                continue
            self.execute_move(ship, STRAIGHT)
            if self.outcome is not None:
                return True
        return True

    def move_ships(self, movers: list[Ship] | None = None) -> Generator[Request, Any, None]:
        """Step 1, each ship that moves now asked its move where it may turn; ``movers``: ``self.movers()``, already
        worked out for this step."""
        for ship in (self.movers() if movers is None else movers):
            if ship.destroyed or ship.gone:  # Ship.active, inlined; it may have left the map this impulse
                continue
            if ship.straight >= ship.tm_table[ship.speed]:  # Ship.turn_mode(), inlined: every move
                decision: Decision = yield self.move_request(ship)  # typed: its fields read natively compiled
                if decision.memory:
                    self.remember(ship, decision.memory)
                steer = decision.action
            else:
                steer = STRAIGHT  # turn mode not yet satisfied: no choice to make (C3.2)
            self.execute_move(ship, steer)
            if self.outcome is not None:
                return

    def execute_move(self, ship: Ship, steer: str) -> None:
        facing = (ship.facing + (0 if steer == STRAIGHT else (-1 if steer == LEFT else 1))) % 6  # STEER[steer]
        dest = step(ship.hex, facing)
        ship.prev_hex = ship.hex
        ship.facing = facing
        ship.straight = ship.straight + 1 if steer == STRAIGHT else 1
        if not self.on_map(dest):  # dest not in self.cells
            self.leave_map(ship, dest)
            return
        ship.hex = dest
        if self.plasmas:
            self.plasma_moved(ship)  # FP1.8: feedback only before either leaves the launch hex
        if self.objective is not None and not ship.robot and distance(dest, self.objective) <= 1:
            ship.objective = True
        if self.rec:
            self.emit("moved", ship.side, ship=ship.name, steer=steer, to=hexgrid.label(dest),
                      facing=hexgrid.facing_letter(facing))

    # ------------------------------------------------------------------------------ steps 2-3
    # (seeking weapons move and strike in combat.Combat.move_seekers)

    # ------------------------------------------------------------------------------ step 4
    def launch_seekers(self) -> Generator[Request, Any, None]:
        if self.has_tubes:
            yield from self.launch_plasmas()
        for ship in self.ships:
            if not ship.has_drones or ship.destroyed or ship.gone:
                continue
            if ship.cloak is not None and not self.may_act(ship):
                continue  # SFB.CLOAK: no launch while cloaked or on impulse 1 after uncloaking
            racks = [w for w in ship.weapons if w.kind == "drone" and w.alive and w.ammo > 0 and self.rate_ok(w)]
            target = self.enemy_of(ship)
            if not racks or target is None:
                continue
            decision: Decision = yield self.launch_request(ship, "drones", racks, target)
            if decision.memory:
                self.remember(ship, decision.memory)
            for rack in decision.action:
                self.launch_drone(ship, rack, target)

    def launch_plasmas(self) -> Generator[Request, Any, None]:
        """SFB.PLASMA.LAUNCH: armed (or held) torpedoes whose target is in the launcher's arc; the robot by
        SFB.R8, the player side by its choice."""
        for ship in self.ships:
            if not ship.active:
                continue
            tubes = self.launchable(ship)
            target = self.enemy_of(ship) if tubes else None
            if target is None:
                continue
            tubes = [w for w in tubes if self.sees(ship, w, target)]
            if not tubes:
                continue
            decision: Decision = yield self.launch_request(ship, "plasma", tubes, target)
            if decision.memory:
                self.remember(ship, decision.memory)
            for tube in decision.action:
                self.launch_plasma(ship, tube, target)

    # ------------------------------------------------------------------------------ steps 5-6
    def remember(self, ship: Ship, memory: dict[str, Any]) -> None:
        """Store what the robot's rules make it remember (robot.Robot.note) as the ship's state."""
        for name, value in memory.items():  # each field set as itself (compiled, setattr is a lookup by name)
            if name == "primary_done":
                ship.primary_done = value
            elif name == "tie_side":
                ship.tie_side = value
            elif name == "focus":
                ship.focus = value
            else:
                raise ValueError(f"the robot cannot remember '{name}'")

    def fire_direct(self) -> Generator[Request, Any, None]:
        orders: list[tuple[Ship, Weapon, Any]] = []
        for ship in self.ships:
            if ship.destroyed or ship.gone:
                continue
            if ship.cloak is not None and not self.may_act(ship):
                continue  # SFB.CLOAK: a cloaked ship cannot fire; nor on impulse 1 after uncloaking
            if ship.side in self.forced_unasked and not self.any_ready(ship):
                continue  # nothing ready: holding fire is the only answer (a third of a policy's questions)
            decision: Decision = yield self.fire_request(ship)  # typed: its fields read natively compiled
            if decision.memory:
                self.remember(ship, decision.memory)
            if decision.action:
                orders.extend(decision.action)
        if orders:
            self.resolve_fire(orders)

    # ------------------------------------------------------------------------------ step 7
    def end_impulse(self) -> None:
        if self.has_tubes:
            self.tube_end_impulse()
        now = self.now
        for drone in self.drones:
            if drone.alive and now >= drone.expires:
                drone.alive = False
                self.emit("drone-lost", drone.side, drone=drone.label, why="endurance")
        if self.drones:
            self.drones = [d for d in self.drones if d.alive]
