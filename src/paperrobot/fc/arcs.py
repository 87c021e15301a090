"""FC firing arcs: the core grid's 60-degree arcs plus the half arcs FH and RH that FC cards use.

FH is everything forward of the beam line through the ship (the beam row itself included), RH
everything aft of it (core.hexgrid.HALF_ARCS; ``in_arc`` is core's, memoised there for every hex game).
For widths and "which 60-degree sectors does this phaser cover" (FC.7B), FH counts as LF, RF, L, R and
RH as L, R, LR, RR.
"""
from __future__ import annotations

from typing import Final

from ..core import hexgrid
from ..core.hexgrid import HALF_ARCS, in_arc  # noqa: F401 (FC's arc test is core's)


# arc name -> its sectors. A Final dict, not functools.lru_cache: compiled callers (the repair steps, the arc widths)
# call a compiled function natively, where an lru_cache wrapper is a Python object called through the interpreter's
# call protocol. The arc names are the ship cards' few.
_PARTS: Final[dict[str, tuple[str, ...]]] = {}


def arc_parts(arc: str) -> tuple[str, ...]:
    """The 60-degree sectors of an FC arc name (``FH``, ``RH`` and every core name, joined with '+')."""
    found = _PARTS.get(arc)
    if found is None:
        found = _PARTS[arc] = _arc_parts(arc)  # a name that is no arc raises (core's ValueError) and is not kept
    return found


def _arc_parts(arc: str) -> tuple[str, ...]:
    parts: list[str] = []
    for piece in arc.upper().replace(" ", "").split("+"):
        found = HALF_ARCS.get(piece) or hexgrid.arc_parts(piece)  # core raises a clear ValueError
        parts.extend(p for p in found if p not in parts)
    return tuple(parts)


# The fire plans ask one target's bearing of every weapon of a ship (a dozen arcs, a fixed hex vector). Core's
# in_arc memo is keyed by the vector, and FC's floating map gives so many vectors that it often misses; here
# the vector's 60-degree wedges are worked out once, by the signs of its cube coordinates, and each arc is a
# bit mask of wedges per facing. Equal to hexgrid.in_arc for every arc made of 60-degree pieces (tests/fc).
def wedges(dq: int, dr: int) -> int:
    """Bit k set: the hex vector (dq, dr) lies in the wedge between directions k and k+1 (hexgrid._wedge; a
    vector on a direction row is in both wedges beside it, the zero vector in all six)."""
    ds = -dq - dr
    return ((dq >= 0 and ds >= 0) | (dr <= 0 and ds <= 0) << 1 | (dq >= 0 and dr >= 0) << 2
            | (dq <= 0 and ds <= 0) << 3 | (dr >= 0 and ds >= 0) << 4 | (dq <= 0 and dr <= 0) << 5)


# arc name -> its masks (arc_masks): a Final dict, as _PARTS (every Weapon built, 25 a fork, looks its arc up here)
_MASKS: Final[dict[str, tuple[int, ...] | None]] = {}


def arc_masks(arc: str) -> tuple[int, ...] | None:
    """The wedges (bit mask) of ``arc`` for each facing 0-5; None for an arc with a half (FH, RH), which is
    a half-plane, not a union of wedges: test it with in_arc."""
    if arc in _MASKS:
        return _MASKS[arc]
    found = _MASKS[arc] = _arc_masks(arc)  # a name that is no arc raises (core's ValueError) and is not kept
    return found


def _arc_masks(arc: str) -> tuple[int, ...] | None:
    masks = []
    for facing in range(6):
        mask = 0
        for piece in arc.upper().replace(" ", "").split("+"):
            if piece in HALF_ARCS:
                return None
            for part in hexgrid.arc_parts(piece):
                mask |= 1 << ((facing + hexgrid.BASIC_ARCS[part][0]) % 6)
        masks.append(mask)
    return tuple(masks)
