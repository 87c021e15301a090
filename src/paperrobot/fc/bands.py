"""A chart's column for a range (compiled: the engine asks it for every shot; data.py re-exports it)."""
from __future__ import annotations

from collections.abc import Sequence


def band_index(bands: Sequence[int], rng: int) -> int:
    """The column of a chart for a range; -1 when out of range."""
    for i, bound in enumerate(bands):
        if rng <= bound:
            return i
    return -1
