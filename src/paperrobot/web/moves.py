"""Options with a place on the table, drawn on the map so they can be chosen there (issue 26).

A game's view carries where each option leads (plain data, from the game: no rules here):
- ``moves`` (SFB, FC): ``{"key", "hex"}`` or cube ``q``/``r``, and ``facing``: a ghost counter at the destination
  hex and facing, labelled with the move's short name;
- ``courses`` (Armada): ``{"key", "path": [[x, y], ...], "end": [x, y, heading]}``: the manoeuvre tool's path
  and the ship's base where it ends.
Every element carries ``data-key`` with the option's key, as the option buttons do; static/map.js previews
on hover (or a first tap) and answers on click by pressing the button of the same key.
"""
from __future__ import annotations

from html import escape
from typing import Any

from . import svg

SHORT = {"straight": "S", "left": "L", "right": "R", "decel": "D"}


def short(key: str) -> str:
    """A move's name in at most 3 letters for its ghost: straight S, turn-left TL, slip-right SR, het-B HB."""
    if key in SHORT:
        return SHORT[key]
    parts = [p for p in key.replace("_", "-").split("-") if p]
    return "".join(p[0] for p in parts[:-1]).upper() + (parts[-1].upper() if len(parts[-1]) == 1 else
                                                          parts[-1][0].upper()) if parts else key[:3]


def hex_ghosts(view: dict, where) -> list[svg.Counter]:
    """Ghost counters of ``view["moves"]``; ``where(item)`` gives an item's (col, row) or None (off the map)."""
    out = []
    for item in view.get("moves") or []:
        if not isinstance(item, dict) or "key" not in item:
            continue
        place = where(item)
        key = str(item["key"])
        if place is None:
            continue
        out.append(svg.Counter(f"move-{key}", "", short(key), item.get("facing"), "ghost",
                               f"{key}: to {item.get('hex') or '?'} facing {item.get('facing', '?')}", "ghost",
                               *place, key=key))
    return out


def mark_targets(view: dict, counters: list[svg.Counter]) -> int:
    """Mark the counters of ``view["targets"]`` (a fire question's: ``{"target", "fill": {weapon: value}}``, by the
    counter's unit name: a ship's name, a seeking weapon's label): clicking one fills the form. Returns how many."""
    found = 0
    for target in view.get("targets") or []:
        if not isinstance(target, dict) or not target.get("fill"):
            continue
        name = str(target.get("target"))
        for counter in counters:
            if counter.kind != "ghost" and (counter.id == name or counter.id.split("-", 1)[-1] == name):
                counter.target, counter.fill = name, {str(k): str(v) for k, v in target["fill"].items()}
                found += 1
                break
    return found


def hex_shades(view: dict, where) -> list[svg.Shade]:
    """The arcs of ``view["arcs"]`` (each weapon's ``sectors`` from its ship's hex, its range ``bands``)."""
    out = []
    for arc in view.get("arcs") or []:
        if not isinstance(arc, dict) or not arc.get("sectors"):
            continue
        place = where(arc)
        if place is None:
            continue
        out.append(svg.Shade(str(arc.get("weapon")), *place, sectors=arc["sectors"],
                             bands=[int(b) for b in arc.get("bands") or [arc.get("max", 0)]],
                             low=int(arc.get("min") or 0)))
    return out


def off_map(view: dict) -> list[str]:
    """Keys of the moves that leave the map (no place to draw them)."""
    return [str(m["key"]) for m in view.get("moves") or [] if isinstance(m, dict) and m.get("hex") is None
            and "q" not in m]


def courses_svg(view: dict, depth: float, length: float, width: float, default: str = "") -> str:
    """Each course of ``view["courses"]``: the tool's path and the base at its end, one ``<g data-key>`` each
    (table y up the page: ``depth - y``). The paths show on hover; the suggested one always."""
    out = ['<g class="courses">']
    for course in view.get("courses") or []:
        if not isinstance(course, dict) or "end" not in course:
            continue
        key = str(course["key"])
        points = [(float(x), depth - float(y)) for x, y in course.get("path") or []]
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        hx, hy = points[-1] if points else (0.0, 0.0)  # the tool's end: where the base's front ends
        x, y, heading = (float(v) for v in course["end"][:3])
        turn = 90.0 - heading
        w, l = width / 2, length / 2
        cls = "course" + (" suggested" if key == default else "")
        out.append(f'<g class="{cls}" data-key="{escape(key)}" id="course-{svg.ident(key)}" tabindex="0" '
                   f'role="button"><title>course {escape(key)}: speed {course.get("speed", "?")}, ends at '
                   f'{x:.0f}, {y:.0f} mm heading {heading:.0f}°</title>'
                   f'<polyline class="path" points="{path}"/>'
                   f'<g transform="translate({x:.1f},{depth - y:.1f}) rotate({turn:.1f})">'
                   f'<rect class="end" x="{-w:.1f}" y="{-l:.1f}" width="{width:.1f}" height="{length:.1f}"/>'
                   f'<path class="bow" d="M{-w:.1f},{-l:.1f} L0,{-l - 8:.1f} L{w:.1f},{-l:.1f}"/></g>'
                   f'<circle class="handle" cx="{hx:.1f}" cy="{hy:.1f}" r="5"/></g>')
    out.append("</g>")
    return "".join(out)


def course_window(view: dict, width: float, depth: float, margin: float = 150.0) -> tuple[float, float, float, float]:
    """The part of the table to show while a course is chosen (x, y, w, h in picture coordinates): the courses
    and the ship with ``margin`` mm around, at least 700 mm wide, the table's proportions, inside the table."""
    points = [(float(x), float(y)) for course in view.get("courses") or [] if isinstance(course, dict)
              for x, y in course.get("path") or []]
    return window(points, width, depth, margin)


def _points(poly) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in poly]


def attack_svg(view: dict, depth: float) -> tuple[str, str, list[str], list[tuple[float, float]]]:
    """An attack question's places (``view["targets"]``, ``zones``, ``arcs``, ``ranges``): the overlay under the
    ships (each hull zone's range ruler, shown on demand), the overlay over them (per attacking hull zone, a group
    of its targets, defending hull zones or squadrons, each ``data-key``; the attacker's zones to pick), the zones
    that attack, and the table points (mm) concerned."""
    targets = [t for t in view.get("targets") or [] if isinstance(t, dict) and "key" in t]
    zones_of = view.get("zones") or {}
    attacker = str(view.get("attacker", ""))
    mine = zones_of.get(attacker) or {}
    flip = lambda poly: " ".join(f"{x:.1f},{depth - y:.1f}" for x, y in _points(poly))  # noqa: E731
    squads = {str(q.get("id")): q for q in view.get("squadrons") or [] if isinstance(q, dict)}
    order = [z for z in ("front", "left", "right", "rear") if any(t.get("zone") == z for t in targets)]
    points = [p for poly in mine.values() for p in _points(poly)]
    over = ['<g class="attacks">']
    for number, zone in enumerate(order):
        over.append(f'<g class="attack-from{" shown" if number == 0 else ""}" data-zone="{escape(zone)}">')
        for t in (t for t in targets if t.get("zone") == zone):
            key, name = str(t["key"]), str(t.get("target"))
            words = f"{zone} zone attacks {name}" + (f" {t['tzone']} hull zone" if t.get("tzone") else "") + \
                f" at {t.get('band') or '?'} range"
            head = (f'class="zone-target" data-key="{escape(key)}" id="attack-{svg.ident(key)}" tabindex="0" '
                    f'role="button"')
            if t.get("squadron") and name in squads:
                x, y = float(squads[name]["x"]), float(squads[name]["y"])
                points.append((x, y))
                over.append(f'<circle {head} cx="{x:.1f}" cy="{depth - y:.1f}" r="24"><title>{escape(words)}</title>'
                            f'</circle>')
            elif (zones_of.get(name) or {}).get(t.get("tzone")):
                poly = zones_of[name][t["tzone"]]
                points += _points(poly)
                over.append(f'<polygon {head} points="{flip(poly)}"><title>{escape(words)}</title></polygon>')
        over.append("</g>")
    for zone, poly in mine.items():  # the attacker's hull zones: a click shows that zone's targets and its ruler
        over.append(f'<polygon class="zone-pick" data-arc="{escape(zone)}" points="{flip(poly)}"><title>'
                    f'{escape(zone)} hull zone: click for its range ruler and targets</title></polygon>')
    over.append("</g>")
    under = ['<g class="rulers">']
    ranges = view.get("ranges") or {}
    for zone, poly in mine.items():
        arc = (view.get("arcs") or {}).get(zone)
        if not arc or len(arc) < 3:
            continue
        (ax, ay), r1, r2 = _points(arc)[:3]
        far = lambda p: (ax + (p[0] - ax) * 40, ay + (p[1] - ay) * 40)  # noqa: E731 (a ray, drawn far past long range)
        name = svg.ident(f"ruler-{zone}")
        wedge = flip([(ax, ay), far(r1), far(r2)])
        under.append(f'<g class="ruler" data-arc="{escape(zone)}" id="{name}"><title>{escape(zone)} hull zone: '
                     f'range close, medium, long</title><clipPath id="clip-{name}"><polygon points="{wedge}"/>'
                     f'</clipPath><g clip-path="url(#clip-{name})">')
        for band in ("long", "medium", "close"):  # within a band's distance of the hull zone: the zone, widened
            reach = float(ranges.get(band) or 0)
            if reach:
                under.append(f'<polygon class="{band}" points="{flip(poly)}" stroke-width="{2 * reach:.1f}" '
                             f'stroke-linejoin="round"/>')
        under.append("</g></g>")
    under.append("</g>")
    return "".join(under), "".join(over), order, points


def window(points: list[tuple[float, float]], width: float, depth: float, margin: float = 150.0,
           least: float = 700.0) -> tuple[float, float, float, float]:
    """The part of the table (x, y, w, h in picture coordinates) around ``points`` (table mm, y up the table) with
    ``margin`` mm, at least ``least`` mm wide, the table's proportions, inside the table."""
    xs = [x for x, _ in points]
    ys = [depth - y for _, y in points]
    if not xs:
        return 0.0, 0.0, width, depth
    w = max(least, max(xs) - min(xs) + 2 * margin, (max(ys) - min(ys) + 2 * margin) * width / depth)
    w = min(w, width)
    h = w * depth / width
    x = min(max((min(xs) + max(xs)) / 2 - w / 2, 0.0), width - w)
    y = min(max((min(ys) + max(ys)) / 2 - h / 2, 0.0), depth - h)
    return x, y, w, h
