"""Text pictures for the terminal: a hex map in printed CCRR labels.

Each map row takes two text lines: odd columns on the first, even columns (half a hex lower) on the
second. A unit shows as two characters, its mark and its facing letter (``KB`` = the Klingon facing B).
"""
from __future__ import annotations

from typing import Iterable, NamedTuple

from ..core.hexgrid import Hex, facing_letter, label, to_offset


class Mark(NamedTuple):
    hex: Hex
    mark: str  # one character
    facing: int | None
    legend: str  # "K = Klingon 'Destruction' (robot) at 0216 facing B, speed 12"


def hex_map(cols: int, rows: int, marks: Iterable[Mark], window: tuple[int, int, int, int] | None = None) -> list[str]:
    """The map as lines; ``window`` = (col_min, col_max, row_min, row_max) to draw only part of it."""
    c0, c1, r0, r1 = window or (1, cols, 1, rows)
    cells: dict[tuple[int, int], str] = {}
    for m in marks:
        col, row = to_offset(m.hex)
        text = m.mark[:1] + (facing_letter(m.facing) if m.facing is not None else " ")
        key = (col, row)
        cells[key] = "**" if key in cells else text  # two units in one hex
    width = 3
    header = "     " + "".join(f"{c:02d}".ljust(width) for c in range(c0, c1 + 1))
    lines = [header]
    for row in range(r0, r1 + 1):
        for parity in (1, 0):  # odd columns first, then the even ones half a hex lower
            text = [f"{row:02d}   " if parity == 1 else "     "]
            for col in range(c0, c1 + 1):
                if col % 2 == parity:
                    text.append(cells.get((col, row), " .").rjust(2).ljust(width))
                else:
                    text.append(" " * width)
            lines.append("".join(text).rstrip())
    return lines


def window_around(hexes: list[Hex], cols: int, rows: int, margin: int = 3) -> tuple[int, int, int, int]:
    """The smallest part of the map holding every hex, plus a margin, clipped to the map."""
    offsets = [to_offset(h) for h in hexes] or [(1, 1)]
    c = [o[0] for o in offsets]
    r = [o[1] for o in offsets]
    return (max(1, min(c) - margin), min(cols, max(c) + margin), max(1, min(r) - margin), min(rows, max(r) + margin))


def hex_label(h: Hex) -> str:
    return label(h)
