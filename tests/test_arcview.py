"""core/arcview: an arc's sectors of bearings hold exactly the hex centres core.hexgrid.in_arc counts in the arc
(the picture of an arc agrees with the rule that decides a shot)."""
from __future__ import annotations

import math

import pytest

from paperrobot.core.arcview import arc_sectors
from paperrobot.core.hexgrid import from_offset, in_arc
from paperrobot.web.svg import hex_centre


def inside(bearing: float, sectors) -> bool | None:
    """True inside a sector, False outside all, None on a boundary ray (both neighbouring arcs hold it)."""
    for start, end in sectors:
        for b in (bearing, bearing + 360, bearing - 360):
            if abs(b - start) < 1e-6 or abs(b - end) < 1e-6:
                return None
            if start < b < end:
                return True
    return False


@pytest.mark.parametrize("arc", ["RF", "LF", "FA", "RA", "LS", "RS", "FX", "RX", "L+FA", "FH", "RH", "360"])
@pytest.mark.parametrize("facing", range(6))
def test_sectors_hold_the_hexes_in_arc(arc, facing):
    ship_col, ship_row = 20, 20
    sx, sy = hex_centre(ship_col, ship_row, 1.0)
    ship = from_offset(ship_col, ship_row)
    sectors = arc_sectors(facing, arc)
    checked = 0
    for col in range(12, 29):
        for row in range(12, 29):
            if (col, row) == (ship_col, ship_row):
                continue
            x, y = hex_centre(col, row, 1.0)
            bearing = math.degrees(math.atan2(x - sx, -(y - sy))) % 360
            expected = inside(bearing, sectors)
            if expected is None:
                continue
            assert in_arc(ship, facing, arc, from_offset(col, row)) == expected, (arc, facing, col, row, bearing)
            checked += 1
    assert checked > 200


def test_merged_and_whole():
    assert arc_sectors(0, "FA") == [[300, 420]] and arc_sectors(0, "360") == [[0, 360]]
    assert arc_sectors(1, "RF") == [[60, 120]] and arc_sectors(0, "FH") == [[-90, 90]]
