"""SVG drawing helpers for the maps: hex maps with printed labels (SFB, FC) and a table in mm (Armada).

Everything drawn is one DOM element with a stable id (``hex-0608``, ``unit-<name>``, ``base-<name>``,
``squadron-<name>``) so pages can be tested and styled; every text is escaped here. The helpers know
nothing of any game: a game's renderer (``web/maps.py``) turns its request view into these calls.

Hex conventions (ARCHITECTURE.md): labels are ``CCRR``, column then row, from 01; columns run left to
right with even-numbered columns half a hex lower (flat-topped hexes); facings A-F run clockwise with A
toward lower row numbers (up the page).
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from functools import lru_cache
from html import escape

SQRT3 = math.sqrt(3.0)
READABLE = 0.86  # the smallest scale a hex map is drawn at: a ship counter (1.1 x 26 units) stays over 24 px
FACINGS = "ABCDEF"


def ident(text: str) -> str:
    """A string made safe for an id: letters, digits, '-' and '_' only."""
    return re.sub(r"[^A-Za-z0-9_-]+", "-", str(text)).strip("-") or "x"


def hex_label(col: int, row: int) -> str:
    return f"{col:02d}{row:02d}"


def parse_hex(label: str) -> tuple[int, int] | None:
    """``"0608"`` -> (6, 8); None if it is not a CCRR label."""
    text = str(label)
    if len(text) != 4 or not text.isdigit():
        return None
    return int(text[:2]), int(text[2:])


def hex_centre(col: int, row: int, size: float) -> tuple[float, float]:
    """Centre of hex (col, row) for hexes of circumradius ``size``; hex 0101 sits at the top left corner."""
    x = size + (col - 1) * 1.5 * size
    y = SQRT3 / 2 * size + (row - 1) * SQRT3 * size + (SQRT3 / 2 * size if col % 2 == 0 else 0.0)
    return x, y


def hex_points(x: float, y: float, size: float) -> str:
    return " ".join(f"{x + size * math.cos(math.radians(a)):.1f},{y + size * math.sin(math.radians(a)):.1f}"
                    for a in range(0, 360, 60))


def facing_angle(facing: str | int) -> float:
    """Degrees clockwise from 'up the page' of facing A-F (or 0-5)."""
    index = FACINGS.index(facing.upper()) if isinstance(facing, str) and facing.upper() in FACINGS else int(facing or 0)
    return 60.0 * (index % 6)


@dataclass
class Counter:
    """A unit on a hex map."""

    id: str
    hex: str                  # CCRR
    label: str = ""
    facing: str | int | None = None
    side: str = ""            # a CSS class: which side it belongs to
    title: str = ""           # tooltip
    kind: str = "ship"        # ship | drone | plasma | ... (a CSS class)
    col: int | None = None    # the hex by column and row, when ``hex`` is not a CCRR label (floating maps)
    row: int | None = None
    key: str = ""             # an option's key: the counter is that option, chosen by clicking it (web/moves.py)
    target: str = ""          # a target of the open fire question: clicking it fills the form (web/moves.py)
    fill: dict = field(default_factory=dict)  # what that click puts in the form: weapon -> value


@dataclass
class Shade:
    """A weapon's firing arc and range bands from a hex, drawn on demand (web/static/map.js shows one at a time)."""

    name: str                 # the weapon (what the control and the form call it)
    col: int
    row: int
    sectors: list = field(default_factory=list)  # [from, to] bearings, degrees clockwise from up the page
    bands: list = field(default_factory=list)    # the last range of each band, hexes
    low: int = 0              # the weapon's minimum range


@dataclass
class HexMap:
    cols: int
    rows: int
    counters: list[Counter] = field(default_factory=list)
    marked: dict[str, str] = field(default_factory=dict)  # hex label -> CSS class (a highlight)
    size: float = 26.0
    first_col: int = 1
    first_row: int = 1
    title: str = ""
    labels: object = None     # (col, row) -> the printed label, a module-level function; default CCRR
    shades: list[Shade] = field(default_factory=list)  # firing arcs to show on demand

    def label(self, col: int, row: int) -> str:
        return self.labels(col, row) if callable(self.labels) else hex_label(col, row)

    def svg(self) -> str:
        size = self.size
        width = size * (1.5 * self.cols + 0.5)
        height = SQRT3 * size * (self.rows + 0.5)
        # the viewBox scales the whole window into its box (CSS: width 100%, height by the aspect ratio, capped
        # by the screen's height); a small window is not blown up past 1.4 times its drawn size
        wide = " wide" if self.cols > 14 else ""  # drawn small on a phone: its counters are shown larger there
        # never drawn below READABLE of its size (counters ~24 px, labels legible): a larger window pans in its box
        out = [f'<svg class="map hexmap{wide}" id="map" viewBox="0 0 {width:.0f} {height:.0f}" '
               f'preserveAspectRatio="xMidYMid meet" style="max-width:{max(width * 1.4, 320):.0f}px;'
               f'min-width:{width * READABLE:.0f}px" '
               f'xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{escape(self.title or "hex map")}">']
        out.append(_grid(self.first_col, self.first_row, self.cols, self.rows, size, self.labels,
                         tuple(sorted(self.marked.items()))))
        out.append('</g>')
        if self.shades:
            out.append('<g class="arcs">')
            for shade in self.shades:
                c, r = shade.col - self.first_col, shade.row - self.first_row
                out.append(shade_svg(shade, *_centre(c, r, shade.col, size), size))
            out.append('</g>')
        out.append('<g class="counters">')
        stacked: dict[tuple[int, int], int] = {}
        for counter in self.counters:
            where = (counter.col, counter.row) if counter.col is not None and counter.row is not None \
                else parse_hex(counter.hex)
            if where is None:
                continue
            col, row = where
            c, r = col - self.first_col, row - self.first_row
            if not (0 <= c < self.cols and 0 <= r < self.rows):
                continue
            x, y = _centre(c, r, col, size)
            shift = stacked.get(where, 0)  # several units in one hex: fan them out a little
            stacked[where] = shift + 1
            out.append(counter_svg(counter, x + 0.35 * size * shift, y + 0.2 * size * shift,
                                   size if counter.kind in ("ship", "ghost") else size * 0.8))
        out.append("</g></svg>")
        return "".join(out)


@lru_cache(maxsize=128)
def _grid(first_col: int, first_row: int, cols: int, rows: int, size: float, labels, marked: tuple) -> str:
    """The hexes of a map window (cached: consecutive questions mostly show the same window)."""
    marks = dict(marked)
    corners = [(size * math.cos(math.radians(a)), size * math.sin(math.radians(a))) for a in range(0, 360, 60)]
    out = ['<g class="hexes">']
    for c in range(cols):
        col = first_col + c
        for r in range(rows):
            row = first_row + r
            label = labels(col, row) if callable(labels) else hex_label(col, row)
            x, y = _centre(c, r, col, size)
            points = " ".join(f"{x + dx:.1f},{y + dy:.1f}" for dx, dy in corners)
            out.append(f'<g id="hex-{ident(label)}" class="hex {escape(marks.get(label, ""))}"><polygon points="{points}"/>'
                       f'<text x="{x:.1f}" y="{y - size * 0.55:.1f}" class="hexlabel">{escape(label)}</text></g>')
    return "".join(out)


def _centre(c: int, r: int, col: int, size: float) -> tuple[float, float]:
    """Centre of the hex at offset (c, r) from the map's first hex; the printed column decides the half-hex drop."""
    x = size + c * 1.5 * size
    y = SQRT3 / 2 * size + r * SQRT3 * size + (SQRT3 / 2 * size if col % 2 == 0 else 0.0)
    return x, y


def counter_svg(counter: Counter, x: float, y: float, size: float) -> str:
    cls = f"counter {ident(counter.kind)} side-{ident(counter.side)}"
    title = f"<title>{escape(counter.title or counter.label or counter.id)}</title>"
    option = (f' data-key="{escape(counter.key)}" tabindex="0" role="button"' if counter.key else "")
    if counter.target:
        cls += " target"
        option += (f' data-target="{escape(counter.target)}" data-fill="{escape(json.dumps(counter.fill))}" '
                   'tabindex="0" role="button"')
    # the shapes sit in a "face" group around the hex centre, which a phone's stylesheet enlarges on wide maps
    body = [f'<g id="unit-{ident(counter.id)}" class="{cls}"{option} transform="translate({x:.1f},{y:.1f})">', title,
            '<g class="face">']
    if counter.target:  # a ring around a target of the fire question
        body.append(f'<circle class="ring" r="{size * 0.78:.1f}"/>')
    if counter.kind in ("ship", "ghost"):
        body.append(f'<circle r="{size * 0.55:.1f}"/>')
    else:
        body.append(f'<rect x="{-size * 0.3:.1f}" y="{-size * 0.3:.1f}" width="{size * 0.6:.1f}" '
                    f'height="{size * 0.6:.1f}" rx="3"/>')
    if counter.facing not in (None, ""):
        try:
            angle = facing_angle(counter.facing)
            body.append(f'<path class="facing" d="M0,{-size * 0.85:.1f} L{size * 0.22:.1f},{-size * 0.45:.1f} '
                        f'L{-size * 0.22:.1f},{-size * 0.45:.1f} Z" transform="rotate({angle:.0f})"/>')
        except (ValueError, TypeError):
            pass
    if counter.label:
        body.append(f'<text y="{size * 0.18:.1f}" class="counterlabel">{escape(counter.label[:4])}</text>')
    body.append("</g></g>")
    return "".join(body)


def shade_svg(shade: Shade, x: float, y: float, size: float) -> str:
    """A weapon's arc (its sectors) with its range bands as rings of hexes around (x, y): the hexes at range n lie
    within the hexagon of corner distance (n + 0.5) hex rows, corners toward the six hex rows (exact at the centres)."""
    step = SQRT3 * size  # from one hex centre to the next
    ring = lambda n: [(x + (n + 0.5) * step * math.sin(math.radians(b)),  # noqa: E731
                       y - (n + 0.5) * step * math.cos(math.radians(b))) for b in range(0, 360, 60)]
    top = max(shade.bands or [0])
    reach = (top + 2) * step
    name = ident(shade.name)
    clip = []
    for start, end in shade.sectors:
        points = [(x, y)] + [(x + reach * math.sin(math.radians(b)), y - reach * math.cos(math.radians(b)))
                             for b in _bearings(start, end)]
        clip.append('<polygon points="' + " ".join(f"{px:.1f},{py:.1f}" for px, py in points) + '"/>')
    out = [f'<g class="arcshade" id="arc-{name}" data-arc="{escape(shade.name)}"><title>{escape(shade.name)}: arc and '
           f'range bands {escape(", ".join(str(b) for b in shade.bands))}</title>'
           f'<clipPath id="clip-{name}">{"".join(clip)}</clipPath><g clip-path="url(#clip-{name})">']
    low = shade.low - 1
    for number, high in enumerate(shade.bands):
        if high <= low:
            continue
        outer, inner = ring(high), ring(low) if low >= 0 else []
        d = "M" + " L".join(f"{px:.1f},{py:.1f}" for px, py in outer) + " Z"
        if inner:
            d += " M" + " L".join(f"{px:.1f},{py:.1f}" for px, py in inner) + " Z"
        out.append(f'<path class="band band-{number % 2}" fill-rule="evenodd" d="{d}"/>')
        low = high
    out.append('</g>')
    for start, end in shade.sectors:  # the range at each band's outer edge, along the middle of the arc
        middle = math.radians((start + end) / 2)
        for high in shade.bands:
            r = (high + 0.5) * step * 0.9
            out.append(f'<text class="bandlabel" x="{x + r * math.sin(middle):.1f}" y="{y - r * math.cos(middle):.1f}">'
                       f'{high}</text>')
    out.append('</g>')
    return "".join(out)


def _bearings(start: float, end: float) -> list[float]:
    count = max(1, int((end - start) // 15))
    return [start + (end - start) * i / count for i in range(count + 1)]


# ---------------------------------------------------------------------------- a table in mm (Armada)
@dataclass
class Base:
    """A ship base on the table: centre (mm), size (mm), heading (degrees clockwise from up the page)."""

    id: str
    x: float
    y: float
    width: float
    length: float
    heading: float = 0.0
    label: str = ""
    side: str = ""
    title: str = ""
    arcs: list[float] = field(default_factory=list)  # hull-zone boundary bearings relative to the heading
    lines: list[tuple[float, float, float, float]] = field(default_factory=list)  # arc lines, base's own frame
    extra: str = ""           # more CSS classes (e.g. "active")


@dataclass
class Token:
    """A squadron (or any round token) on the table."""

    id: str
    x: float
    y: float
    radius: float = 17.5
    label: str = ""
    side: str = ""
    title: str = ""


@dataclass
class Table:
    width: float
    height: float
    bases: list[Base] = field(default_factory=list)
    tokens: list[Token] = field(default_factory=list)
    title: str = ""
    marks: list[tuple[str, float, float, float, str]] = field(default_factory=list)  # (id, x, y, radius, class)
    overlay: str = ""         # SVG drawn over the bases (web/moves.py: the courses to choose from)
    underlay: str = ""        # SVG drawn under the bases (web/moves.py: range rulers)
    window: tuple[float, float, float, float] | None = None  # the part shown (x, y, w, h); None: the whole table

    def svg(self) -> str:
        x0, y0, w, h = self.window or (0.0, 0.0, self.width, self.height)
        out = [f'<svg class="map table" id="map" viewBox="{x0:.0f} {y0:.0f} {w:.0f} {h:.0f}" '
               'preserveAspectRatio="xMidYMid meet" '
               f'xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{escape(self.title or "table")}">',
               f'<rect class="tablecloth" x="0" y="0" width="{self.width:.0f}" height="{self.height:.0f}"/>']
        for name, x, y, radius, cls in self.marks:  # obstacles, the focal point
            classes = " ".join(ident(c) for c in cls.split())
            out.append(f'<circle id="mark-{ident(name)}" class="mark {classes}" cx="{x:.1f}" cy="{y:.1f}" '
                       f'r="{radius:.1f}"><title>{escape(name)}</title></circle>')
        out.append(self.underlay)
        for base in self.bases:
            out.append(base_svg(base))
        for token in self.tokens:
            out.append(f'<g id="squadron-{ident(token.id)}" class="squadron side-{ident(token.side)}" '
                       f'transform="translate({token.x:.1f},{token.y:.1f})"><title>{escape(token.title or token.label)}'
                       f'</title><circle r="{token.radius:.1f}"/><text y="5" class="counterlabel">'
                       f'{escape(token.label[:3])}</text></g>')
        out.append(self.overlay)
        out.append("</svg>")
        return "".join(out)


def base_svg(base: Base) -> str:
    w, l = base.width / 2, base.length / 2
    parts = [f'<g id="base-{ident(base.id)}" class="base side-{ident(base.side)} {escape(base.extra)}" '
             f'transform="translate({base.x:.1f},{base.y:.1f}) rotate({base.heading:.1f})">',
             f'<title>{escape(base.title or base.label or base.id)}</title>',
             f'<rect x="{-w:.1f}" y="{-l:.1f}" width="{base.width:.1f}" height="{base.length:.1f}"/>',
             f'<path class="bow" d="M{-w:.1f},{-l:.1f} L0,{-l - 8:.1f} L{w:.1f},{-l:.1f}"/>']
    reach = max(base.width, base.length) * 1.6
    for bearing in base.arcs:  # arc lines from the centre, drawn long enough to read
        a = math.radians(bearing)
        parts.append(f'<line class="arc" x1="0" y1="0" x2="{reach * math.sin(a):.1f}" y2="{-reach * math.cos(a):.1f}"/>')
    for x1, y1, x2, y2 in base.lines:  # in the base's frame: bow up the page (-y), its left to -x
        parts.append(f'<line class="arc" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>')
    if base.label:  # upright whatever the heading; one line per "\n" of the label (a class name, then its number)
        lines = base.label.split("\n")[:3]
        top = 4 - 8 * (len(lines) - 1)
        spans = "".join(f'<tspan x="0" y="{top + 16 * n}">{escape(line[:24])}</tspan>' for n, line in enumerate(lines))
        parts.append(f'<text class="counterlabel" transform="rotate({-base.heading:.1f})">{spans}</text>')
    parts.append("</g>")
    return "".join(parts)
