"""The robot's scenario #6 rules as pure helpers: its plasma cadence (SFB.R8, SFB.R.PLASMA) and the
modified rules against a cloaking enemy (SFB.R.CLOAK1-4, seed 000 "CLOAK").

The robot controller (robot.py) calls these; they take plain values so they can be tested alone.
Interpretations: docs/sfb-plasma-cloak.md, sections "Robot plasma" and "Robot against a cloaking ship".
"""
from __future__ import annotations

from ..core.hexgrid import Hex, distance
from .movement import RIGHT, STRAIGHT, bearing_score, candidates

TORPEDO_RANGE = 2  # SFB.R.CLOAK2: phasers at a torpedo that has moved within two hexes


def r8_turn(turn: int) -> bool:
    """SFB.R8: the KR robot launches torpedo A on turns 1, 4, 7, ... (every third turn from the first)."""
    return turn % 3 == 1


def evade_choice(h: Hex, facing: int, can_turn: bool, threat: Hex, allowed=None) -> tuple[str, int, Hex] | None:
    """SFB.R.CLOAK3: turn away from the torpedo: the legal move that ends farthest from it.

    Ties: straight ahead (a turn is only made when it gains distance), then the turn whose new facing
    points more directly away from the torpedo, then the right turn (docs "Robot against a cloaking ship").
    ``allowed(steer, facing, hex)`` vetoes moves that would take it off the map (SFB.R3.MAP).
    """
    best = best_key = None
    for steer, new_facing, dest in candidates(h, facing, can_turn):
        if allowed is not None and not allowed(steer, new_facing, dest):
            continue
        key = (-distance(dest, threat), 0 if steer == STRAIGHT else 1, bearing_score(dest, new_facing, threat),
               0 if steer == RIGHT else 1)
        if best_key is None or key < best_key:
            best, best_key = (steer, new_facing, dest), key
    return best


def best_speed(impulses: int, warp_lost: int) -> int:
    """SFB.R.CLOAK3 "best speed": the scenario's top speed less the robot's warp damage (SFB.DMG3)."""
    return max(0, impulses - warp_lost)
