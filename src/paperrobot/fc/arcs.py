"""FC firing arcs: the core grid's 60-degree arcs plus the half arcs FH and RH that FC cards use.

FH is everything forward of the beam line through the ship (the beam row itself included), RH
everything aft of it. For widths and "which 60-degree sectors does this phaser cover" (FC.7B), FH
counts as LF, RF, L, R and RH as L, R, LR, RR.
"""
from __future__ import annotations

from functools import lru_cache

from ..core import hexgrid
from ..core.hexgrid import DIRECTIONS, Hex

HALF_ARCS = {"FH": ("LF", "RF", "L", "R"), "RH": ("L", "R", "LR", "RR")}
_ORIGIN = Hex(0, 0)


@lru_cache(maxsize=None)
def arc_parts(arc: str) -> tuple[str, ...]:
    """The 60-degree sectors of an FC arc name (``FH``, ``RH`` and every core name, joined with '+')."""
    parts: list[str] = []
    for piece in arc.upper().replace(" ", "").split("+"):
        found = HALF_ARCS.get(piece) or hexgrid.arc_parts(piece)  # core raises a clear ValueError
        parts.extend(p for p in found if p not in parts)
    return tuple(parts)


def _dot(dq: int, dr: int, facing: int) -> int:
    """Four times the Cartesian dot product of a hex vector with the facing direction (flat-top hexes)."""
    fq, fr = DIRECTIONS[facing % 6]
    return 9 * dq * fq + 3 * (2 * dr + dq) * (2 * fr + fq)


@lru_cache(maxsize=262144)
def _in_arc(dq: int, dr: int, facing: int, arc: str) -> bool:
    for piece in arc.upper().split("+"):
        if piece == "FH":
            if _dot(dq, dr, facing) >= 0:
                return True
        elif piece == "RH":
            if _dot(dq, dr, facing) <= 0:
                return True
        elif hexgrid.in_arc(_ORIGIN, facing, piece, Hex(dq, dr)):
            return True
    return False


def in_arc(ship: Hex, facing: int, arc: str, target: Hex) -> bool:
    return _in_arc(target.q - ship.q, target.r - ship.r, facing % 6, arc)
