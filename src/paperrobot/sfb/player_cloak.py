"""The heuristic captain's plasma and cloak habits (used by player.Policy).

Arms every tube on schedule and holds what it cannot use yet (when it can pay); cloaks on turns its
torpedoes cannot be launched anyway, if it can still afford a fighting speed; launches at a target in arc
when the torpedo would arrive strong (within about a third of its endurance), or when holding it next turn
would be unaffordable; shoots phasers at torpedoes coming for it.
"""
from __future__ import annotations

from ..core.hexgrid import distance
from . import plasma as pl

CLOAK_MIN_SPEED = 8  # cloak only if it can still move at least this fast


def plasma_points(ship, budget: float) -> tuple[list[tuple[str, int]], float]:
    """(arm lines for the tubes, budget left): keep arming, hold armed torpedoes, else let them go."""
    lines = []
    for w in ship.weapons:
        if w.tube is None or not w.alive:
            continue
        points = pl.default_points(w.tube.ptype, w.tube.state)
        if points > budget:
            points = 0
        lines.append((w.key, points))
        budget -= points
    return lines, budget


def cloak_points(ship, budget: float, arm: list[tuple[str, int]]) -> int:
    """Cloak when none of its torpedoes will be launchable this turn and it can still keep a fighting speed."""
    if ship.cloak is None or budget - ship.cloak.cost < CLOAK_MIN_SPEED:
        return 0
    points = dict(arm)
    for w in ship.weapons:
        if w.tube is None or not w.alive:
            continue
        try:
            state, _ = pl.next_state(w.tube.ptype, w.tube.state, points.get(w.key, 0))
        except Exception:  # noqa: BLE001 - an illegal line is the engine's to reject, not ours
            continue
        if state in (pl.ARMED, pl.HELD):
            return 0  # a torpedo to launch: stay visible
    return ship.cloak.cost


def launch_now(game, ship, w, target) -> bool:
    """Launch if the torpedo would arrive strong, or if it cannot be held next turn anyway."""
    rng = distance(ship.hex, target.hex)
    ptype = w.tube.ptype
    if rng <= max(2, ptype.endurance // 3):
        return True
    last = game.impulse == game.impulses
    if last and rng <= ptype.endurance // 2:
        return True  # better a weaker torpedo than paying to hold it again
    return False


def incoming(game, ship) -> list:
    return [t for t in game.plasmas if t.alive and t.target == ship.name and t.side != ship.side]
