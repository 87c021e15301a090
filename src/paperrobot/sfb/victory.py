"""How an SFB battle ends: a side destroyed, a ship leaving the map (exit, disengagement, or lost), #5's
disengagement by announcement, and the turn limit; the Outcome and the "result" event.

``Victory`` is a part of the engine class (game.Game inherits it; base.py lists the chain): the sequence of
play (game.py, impulse.py) and combat (combat.py) call ``check_end`` whenever a ship may be gone.
"""
from __future__ import annotations

from typing import Any, Generator

from ..core.contract import Request
from ..core.hexgrid import Hex
from ..core.outcome import Outcome
from .cloning import Cloning
from .state import Ship


class Victory(Cloning):
    """The battle's end: who is left, who left the map, and the Outcome."""

    def disengage_offered(self) -> bool:
        """#5: is disengagement offered at the end of impulses this turn? Only if some ship may be asked (not a
        robot's, not one whose controller's standing answer is "no"); else the step is not even started."""
        return self.scenario.leave_map == "disengage" and any(
            not ship.robot and "disengage" not in self.standing.get(ship.side, ()) for ship in self.ships)

    def end_turn(self) -> None:
        for ship in self.ships:
            for w in ship.weapons:
                if w.kind == "disruptor":
                    w.ready = False  # E3.2: bolts cannot be held
        if self.turn >= self.max_turns:
            self.finish(None, "time")

    def offer_disengagement(self) -> Generator[Request, Any, None]:
        """#5: a player ship may disengage by announcement at the end of any impulse (CTH #5; docs/sfb.md "Map
        edges and exits"). The robot cannot retreat. A side whose controller always answers "no" (the policy's
        standing answer) is not asked: "no" changes nothing."""
        for ship in self.ships:
            if ship.robot or not ship.active or "disengage" in self.standing.get(ship.side, ()):
                continue
            decision = yield self.disengage_request(ship)
            if decision.action == "yes":
                ship.gone = "disengaged"
                self.emit("left-map", ship.side, ship=ship.name, how="disengaged", edge=[])
                self.check_end()

    def leave_map(self, ship: Ship, dest: Hex) -> None:
        """Map edges per scenario: #5 leaving is disengaging; #4 only the Fed via 28xx after the Dakota."""
        edges = self.board.edges_crossed(dest)
        sc = self.scenario
        if sc.exit_edge and sc.exit_edge in edges and ship.objective:
            ship.gone = "exited"
            self.emit("left-map", ship.side, ship=ship.name, how="exited", edge=sorted(edges))
            self.finish(ship.side, "objective")
        elif sc.leave_map == "disengage":
            ship.gone = "disengaged"
            self.emit("left-map", ship.side, ship=ship.name, how="disengaged", edge=sorted(edges))
            self.check_end()
        else:
            ship.gone = "lost"
            ship.destroyed = True
            self.emit("left-map", ship.side, ship=ship.name, how="destroyed", edge=sorted(edges))
            self.check_end()

    def check_end(self) -> None:
        if self.outcome is not None:
            return
        player = robot = False  # a side with an active ship (two flags: compiled, a dict was built at every call)
        for ship in self.ships:
            if ship.active:
                if ship.side == "player":
                    player = True
                elif ship.side == "robot":
                    robot = True
        if player and robot:
            return
        if not player and not robot:
            self.finish(None, "destroyed")
            return
        loser = "player" if not player else "robot"
        winner = "robot" if loser == "player" else "player"
        if any(s.gone == "disengaged" for s in self.side_ships(loser)):
            self.finish(winner, "disengaged")  # #5: a draw for him, a tactical victory for the other
        else:
            self.finish(winner, "destroyed")

    def finish(self, winner: str | None, result: str) -> None:
        if self.outcome is not None:
            return
        metrics: dict[str, float] = {}
        for side in ("player", "robot"):
            ships = self.side_ships(side)
            metrics[f"{side}_internal"] = float(sum(s.internal for s in ships))
            metrics[f"{side}_shields"] = float(sum(sum(s.shields) for s in ships))
        self.outcome = Outcome(winner, result, self.turn, metrics)
        self.emit("result", "", winner=winner, result=result, turns=self.turn)
