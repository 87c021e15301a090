"""FC firing arcs: the core grid's 60-degree arcs plus the half arcs FH and RH that FC cards use.

FH is everything forward of the beam line through the ship (the beam row itself included), RH
everything aft of it (core.hexgrid.HALF_ARCS; ``in_arc`` is core's, memoised there for every hex game).
For widths and "which 60-degree sectors does this phaser cover" (FC.7B), FH counts as LF, RF, L, R and
RH as L, R, LR, RR.
"""
from __future__ import annotations

from functools import lru_cache

from ..core import hexgrid
from ..core.hexgrid import HALF_ARCS, in_arc  # noqa: F401 (FC's arc test is core's)


@lru_cache(maxsize=None)
def arc_parts(arc: str) -> tuple[str, ...]:
    """The 60-degree sectors of an FC arc name (``FH``, ``RH`` and every core name, joined with '+')."""
    parts: list[str] = []
    for piece in arc.upper().replace(" ", "").split("+"):
        found = HALF_ARCS.get(piece) or hexgrid.arc_parts(piece)  # core raises a clear ValueError
        parts.extend(p for p in found if p not in parts)
    return tuple(parts)
