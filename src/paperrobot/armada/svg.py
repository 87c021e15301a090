"""Hand-written SVG pictures of the table: play area, obstacles, ship bases with arc lines, squadrons."""
from __future__ import annotations

import math
from html import escape

from .data import load_geometry
from .geometry import footprint
from .polygons import circle

COLOURS = {"imperial": "#3b6fb6", "rebel": "#c0392b"}
OBSTACLE = {"asteroid": "#8d6e63", "debris": "#9e9e9e", "station": "#26a69a"}


def _poly(points, **attrs) -> str:
    pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    extra = " ".join(f'{k.replace("_", "-")}="{v}"' for k, v in attrs.items())
    return f'<polygon points="{pts}" {extra}/>'


def picture(width: float, depth: float, ships: list[dict], squads: list[dict], obstacles: list, title: str,
            focal: tuple[float, float] | None = None, geometry: str | None = None) -> str:
    """An SVG document; y is flipped so north (the Imperial edge) is at the top. ``geometry``: the game's
    measurements file (its set-up option; the package's when empty)."""
    geo = load_geometry(geometry or None)
    def flip(points):
        return [(x, depth - y) for x, y in points]

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="-10 -40 {width + 20:.0f} {depth + 50:.0f}" '
           f'width="{(width + 20) / 2:.0f}" height="{(depth + 50) / 2:.0f}">',
           f'<rect x="0" y="0" width="{width:.1f}" height="{depth:.1f}" fill="#0b1020" stroke="#888"/>',
           f'<text x="0" y="-12" fill="#222" font-size="22" font-family="sans-serif">{escape(title)}</text>']
    for kind, x, y in obstacles:
        r = {"asteroid": geo.obstacles.asteroid_radius, "debris": geo.obstacles.debris_radius,
             "station": geo.obstacles.station_radius}[kind]
        out.append(_poly(flip(circle(x, y, r, 6 if kind != "station" else 8)), fill=OBSTACLE[kind], opacity="0.8"))
    if focal:
        out.append(f'<circle cx="{focal[0]:.1f}" cy="{depth - focal[1]:.1f}" r="10" fill="gold"/>')
    for s in ships:
        if s["destroyed"]:
            continue
        fp = footprint(geo.sizes[s["size"]], s["x"], s["y"], math.radians(s["heading"]))
        col = COLOURS[s["side"]]
        out.append(_poly(flip(fp.base), fill="none", stroke=col, stroke_width="2"))
        for zone, poly in fp.zones.items():
            out.append(_poly(flip(poly), fill=col, opacity="0.35" if zone != "front" else "0.6", stroke="white",
                             stroke_width="0.8"))
        for apex, a, b in fp.arcs.values():  # arc lines, extended a little beyond the token
            for p in (a, b):
                ex = (apex[0] + (p[0] - apex[0]) * 2.2, apex[1] + (p[1] - apex[1]) * 2.2)
                (x1, y1), (x2, y2) = flip([apex, ex])
                out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="white" '
                           f'stroke-width="0.6" opacity="0.7"/>')
        cx, cy = s["x"], depth - s["y"]
        label = f'{s["id"]} {s["damage"]}/{s["hull"]} sh {"/".join(map(str, s["shields"]))}'
        out.append(f'<text x="{cx:.1f}" y="{cy - 60:.1f}" fill="white" font-size="13" text-anchor="middle" '
                   f'font-family="sans-serif">{escape(label)}</text>')
    r = geo.squadron_base.radius
    for q in squads:
        if q["destroyed"]:
            continue
        col = COLOURS[q["side"]]
        out.append(f'<circle cx="{q["x"]:.1f}" cy="{depth - q["y"]:.1f}" r="{r:.1f}" fill="{col}" stroke="white"/>')
        out.append(f'<text x="{q["x"]:.1f}" y="{depth - q["y"] + 4:.1f}" fill="white" font-size="10" '
                   f'text-anchor="middle" font-family="sans-serif">{escape(q["squadron"][:5])} {q["hull"]}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
