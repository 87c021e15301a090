"""Hex maps that fit a terminal (80x24): a window around the counters, drawn at the finest scale that fits.

Three scales, the first that fits the space is used:
- detailed: two text lines per map row (odd columns, then the even ones half a hex lower), three characters
  per column; a counter is its mark and facing letter (``KB`` = the Klingon facing B);
- compact: one text line per map row, two characters per column (the half-hex offset is not drawn);
- scaled: one two-character cell for k x k hexes, when even the compact map would not fit (FC's floating
  map with the ships far apart).
Counters sharing a hex (or a scaled cell) show the top one with ``+``; every such stack is listed under the
map, and the legend names every symbol, so nothing vanishes when it comes close. Labels are the game's own
(``hexgrid.label``), negative columns and rows included (FC's map floats).
"""
from __future__ import annotations

import math
import textwrap
from typing import Iterable, NamedTuple

from .hexgrid import Hex, facing_letter, label, to_offset

WIDTH, HEIGHT = 80, 24
PREFIX = 4  # the row label and a space


class Counter(NamedTuple):
    hex: Hex
    mark: str  # one character
    facing: int | None
    text: str  # the legend's words for it: "klingon (robot) at 0216 facing B, speed 12"
    rank: int = 0  # the lowest rank is drawn on top of a stack (ships over seekers)


def symbol(c: Counter) -> str:
    return c.mark[:1] + (facing_letter(c.facing) if c.facing is not None else " ")


def draw(counters: Iterable[Counter], board: tuple[int, int] | None = None, whole: bool = False,
         width: int = WIDTH, height: int = HEIGHT) -> list[str]:
    """The map with its legend and stacks, at most ``width`` columns and, unless the legend alone is too long,
    ``height`` lines. ``board`` = (cols, rows) of a fixed map, None for a floating one; ``whole`` draws the
    whole board (or, floating, every counter with room around), else a window around the counters."""
    counters = sorted(counters, key=lambda c: c.rank)
    cells: dict[tuple[int, int], list[Counter]] = {}
    for c in counters:
        cells.setdefault(to_offset(c.hex), []).append(c)
    notes = _legend(counters, cells, width)
    room = max(7, height - len(notes) - 1)
    if whole and board is not None:
        area = (1, board[0], 1, board[1])
    else:
        area = _bounds(list(cells) or [(1, 1)], board, 2 if whole else 0)
    picture, where = _detailed(cells, area, board, width, room, whole)
    if picture is None:
        picture, where = _scaled(cells, area, board, width, room, whole)
    return picture + [where] + notes


def _bounds(places: list[tuple[int, int]], board, margin: int) -> tuple[int, int, int, int]:
    cols = [p[0] for p in places]
    rows = [p[1] for p in places]
    c0, c1, r0, r1 = min(cols) - margin, max(cols) + margin, min(rows) - margin, max(rows) + margin
    if board is not None:
        c0, c1, r0, r1 = max(1, c0), min(board[0], c1), max(1, r0), min(board[1], r1)
    return c0, c1, r0, r1


def _grow(lo: int, hi: int, size: int, limit: tuple[int, int] | None) -> tuple[int, int]:
    """``lo..hi`` widened to ``size`` around its middle, kept inside ``limit`` (when the map has edges)."""
    extra = size - (hi - lo + 1)
    lo, hi = lo - extra // 2, hi + extra - extra // 2
    if limit is not None:
        if lo < limit[0]:
            lo, hi = limit[0], hi + limit[0] - lo
        if hi > limit[1]:
            lo, hi = max(limit[0], lo - (hi - limit[1])), limit[1]
    return lo, hi


def _name(n: int) -> str:
    return f"{n:02d}" if n >= 0 else str(n)


def _detailed(cells, area, board, width, room, whole):
    """Two lines per row, when the area fits; a window is widened by a margin (up to 4 columns, 3 rows)."""
    c0, c1, r0, r1 = area
    most_cols, most_rows = (width - PREFIX) // 3, (room - 1) // 2
    if c1 - c0 + 1 > most_cols or r1 - r0 + 1 > most_rows:
        return None, ""
    if not whole:
        want_c = min(most_cols, c1 - c0 + 9)
        want_r = min(most_rows, r1 - r0 + 7)
        c0, c1 = _grow(c0, c1, want_c, None if board is None else (1, board[0]))
        r0, r1 = _grow(r0, r1, want_r, None if board is None else (1, board[1]))
        if board is not None:
            c1, r1 = min(c1, board[0]), min(r1, board[1])
    lines = [" " * PREFIX + "".join(_name(c).ljust(3) for c in range(c0, c1 + 1)).rstrip()]
    for row in range(r0, r1 + 1):
        for parity in (1, 0):  # odd columns first, then the even ones half a hex lower
            text = [f"{_name(row):>3} " if parity == 1 else " " * PREFIX]
            for col in range(c0, c1 + 1):
                stack = cells.get((col, row))
                cell = " ." if not stack else symbol(stack[0]) + ("+" if len(stack) > 1 else "")
                text.append(cell.ljust(3) if col % 2 == parity else "   ")
            lines.append("".join(text).rstrip())
    return lines, _where(c0, c1, r0, r1, board)


def _scaled(cells, area, board, width, room, whole):
    """One line per row of cells, two characters a cell, each cell kc columns by kr rows (1 x 1: the compact
    map); the two scales apart, so a long thin view stays long and thin."""
    c0, c1, r0, r1 = area
    kc = max(1, math.ceil((c1 - c0 + 1) / ((width - PREFIX) // 2)))
    kr = max(1, math.ceil((r1 - r0 + 1) / (room - 1)))
    if not whole:  # room around the counters, as far as this scale allows
        c0, c1 = _grow(c0, c1, min((width - PREFIX) // 2 * kc, c1 - c0 + 9), None if board is None else (1, board[0]))
        r0, r1 = _grow(r0, r1, min((room - 1) * kr, r1 - r0 + 7), None if board is None else (1, board[1]))
        if board is not None:
            c1, r1 = min(c1, board[0]), min(r1, board[1])
    ncols, nrows = math.ceil((c1 - c0 + 1) / kc), math.ceil((r1 - r0 + 1) / kr)
    grid: dict[tuple[int, int], list[Counter]] = {}
    for (col, row), stack in cells.items():
        if c0 <= col <= c1 and r0 <= row <= r1:
            grid.setdefault(((col - c0) // kc, (row - r0) // kr), []).extend(stack)
    header = "".join(_name(c0 + i * kc).ljust(4) for i in range(0, ncols, 2))
    lines = [" " * PREFIX + header.rstrip()]
    for j in range(nrows):
        text = [f"{_name(r0 + j * kr):>3} "]
        for i in range(ncols):
            stack = sorted(grid.get((i, j), []), key=lambda c: c.rank)
            text.append(" ." if not stack else (symbol(stack[0]) if len(stack) == 1 else stack[0].mark[:1] + "+"))
        lines.append("".join(text).rstrip())
    return lines, _where(c0, c0 + ncols * kc - 1, r0, r0 + nrows * kr - 1, None, (kc, kr))


def _where(c0, c1, r0, r1, board, k=(1, 1)) -> str:
    """The line under the picture: which part of the map it shows, and at what scale."""
    kc, kr = k
    scale = "" if k == (1, 1) else f"; a cell: {kc} column{'s' * (kc > 1)} x {kr} row{'s' * (kr > 1)} (see the legend)"
    of = f" of {board[0]}x{board[1]}" if board is not None else ""
    return f"  columns {_name(c0)} to {_name(c1)}, rows {_name(r0)} to {_name(r1)}{of}{scale}"


def _legend(counters: list[Counter], cells, width: int) -> list[str]:
    """Every symbol in words, packed into lines of ``width``; then the stacks, one line each."""
    entries = [f"{symbol(c).strip()} {c.text}" for c in counters]
    entries.append(". empty hex; + several counters in the hex (listed below)" if any(
        len(s) > 1 for s in cells.values()) else ". empty hex")
    lines = pack(entries, width)
    for stack in (s for _, s in sorted(cells.items()) if len(s) > 1):
        words = f"{label(stack[0].hex)} holds: " + ", ".join(f"{symbol(c).strip()} {c.text.split(' at ')[0]}"
                                                             for c in stack)
        lines += textwrap.wrap(words, width, initial_indent="  ", subsequent_indent="    ", break_on_hyphens=False)
    return lines


def pack(entries: list[str], width: int, sep: str = "   ") -> list[str]:
    """Whole entries side by side while they fit the width (an entry too long alone is wrapped)."""
    lines: list[str] = []
    for entry in entries:
        if lines and len(lines[-1]) + len(sep) + len(entry) <= width:
            lines[-1] += sep + entry
        else:
            lines += textwrap.wrap(entry, width, initial_indent="  ", subsequent_indent="    ",
                                   break_on_hyphens=False)
    return lines
