"""Firing arcs as a picture sees them (front ends draw them; the games' in_arc decides every shot).

A hex game's arc name (``FA``, ``LS``, ``RF+L``, FC's half arcs ``FH``/``RH``) of a ship facing ``facing``, as
sectors of bearings: degrees clockwise from up the page (facing A), ``[from, to]`` with ``to > from``. A 60-degree
piece runs between two straight hex rows out of the ship, whose hex centres lie on the rays at multiples of 60
degrees (flat-topped hexes): the sector holds exactly the hex centres ``core.hexgrid.in_arc`` counts in the arc.
"""
from __future__ import annotations

from .hexgrid import BASIC_ARCS, HALF_ARCS, arc_parts


def arc_sectors(facing: int, arc: str) -> list[list[int]]:
    """The sectors of ``arc`` for a ship facing ``facing`` (0-5), adjoining ones merged: FA -> [[300, 420]]."""
    pieces: list[list[int]] = []
    for piece in arc.upper().replace(" ", "").split("+"):
        if piece in HALF_ARCS:  # a half-plane: the beam line through the ship and everything ahead of (aft of) it
            start = 60 * facing - 90 + (180 if piece == "RH" else 0)
            pieces.append([start, start + 180])
            continue
        for part in arc_parts(piece):
            first, second = BASIC_ARCS[part]
            start = 60 * ((facing + first) % 6)
            pieces.append([start, start + 60])
    pieces.sort()
    merged: list[list[int]] = []
    for start, end in pieces:
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    if len(merged) > 1 and merged[-1][1] >= merged[0][0] + 360:  # the last one runs on into the first
        merged[0] = [merged[-1][0], max(merged[-1][1], merged[0][1] + 360)]
        merged.pop()
    if merged and merged[0][1] - merged[0][0] >= 360:
        return [[0, 360]]
    return merged
