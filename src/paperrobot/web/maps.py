"""Per-game pictures for the page: a map (SVG) and each unit's status, drawn from a request's JSON ``view``.

The hook: ``register(game, renderer)`` where ``renderer(view, side) -> Picture``. A renderer reads only
the view (plain JSON data the game builds for that side), never the engine; it draws with the helpers
in ``web/svg.py`` (hex maps with CCRR labels, a table in mm) so every hex and unit is a DOM element with
a stable id. A game without a renderer, or a renderer that fails on an unexpected view, gets the
generic picture: no map, the view's data as tables (the page never fails because of a picture).

Games' renderers are registered at the bottom of this module, each in its own function.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Callable

from ..core.words import in_words

logger = logging.getLogger(__name__)


@dataclass
class Status:
    """One unit's (or one section's) status: a title and rows of (name, value)."""

    title: str
    rows: list[tuple[str, str]] = field(default_factory=list)
    id: str = ""


@dataclass
class Picture:
    map: str | None = None  # SVG markup (escaped by the renderer), or None
    status: list[Status] = field(default_factory=list)
    note: str = ""
    legend: list[tuple[str, str]] = field(default_factory=list)  # (swatch CSS class, what it stands for)
    arcs: list[tuple[str, str]] = field(default_factory=list)  # (name, label): arcs and ranges to show on demand


Renderer = Callable[[Any, str], Picture]
RENDERERS: dict[str, Renderer] = {}


def register(game: str, renderer: Renderer) -> Renderer:
    RENDERERS[game] = renderer
    return renderer


def picture(game: str, view: Any, side: str = "") -> Picture:
    renderer = RENDERERS.get(game)
    if renderer is not None and view is not None:
        try:
            return renderer(view, side)
        except Exception as exc:  # a view shape the renderer does not know: show the data instead
            logger.warning("the %s map renderer failed: %s", game, exc)
            out = generic(view, side)
            out.note = f"The map could not be drawn from this view ({type(exc).__name__}); its data is shown instead."
            return out
    return generic(view, side)


def generic(view: Any, side: str = "") -> Picture:
    """The view's data as tables: scalars of the top level in one, each nested object in its own."""
    if view is None:
        return Picture()
    if not isinstance(view, dict):
        return Picture(status=[Status("view", [("", _text(view))])])
    top = Status("situation", id="status-situation")
    sections = [top]
    for key, value in view.items():
        if isinstance(value, dict):
            sections.append(Status(str(key), [(str(k), _text(v)) for k, v in value.items()], id=f"status-{key}"))
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            for number, item in enumerate(value[:20], 1):
                name = str(item.get("name") or item.get("id") or f"{key} {number}")
                sections.append(Status(name, [(str(k), _text(v)) for k, v in item.items()], id=f"status-{key}-{number}"))
        else:
            top.rows.append((str(key), _text(value)))
    return Picture(status=[s for s in sections if s.rows])


def _text(value: Any) -> str:
    if value is None or isinstance(value, bool):
        return in_words(value)
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (list, tuple)):
        return ", ".join(_text(v) for v in value) if len(value) < 40 else f"{len(value)} items"
    if isinstance(value, dict):
        return "; ".join(f"{k}={_text(v)}" for k, v in list(value.items())[:12])
    text = str(value)
    return text if len(text) <= 200 else text[:197] + "..."


# ------------------------------------------------------------------------------------------ hex games
def _offset(unit: dict) -> tuple[int, int] | None:
    """(col, row) of a unit of a view: from its cube ``q``/``r`` if given, else from a CCRR ``hex`` label."""
    from ..core.hexgrid import Hex, to_offset
    if isinstance(unit.get("q"), int) and isinstance(unit.get("r"), int):
        return to_offset(Hex(unit["q"], unit["r"]))
    from .svg import parse_hex
    return parse_hex(unit.get("hex", ""))


def _hex_label(col: int, row: int) -> str:
    from ..core.hexgrid import from_offset, label
    return label(from_offset(col, row))


def _units(value: Any) -> list[dict]:
    if isinstance(value, dict):
        return [dict(v, _key=k) for k, v in value.items() if isinstance(v, dict)]
    return [v for v in (value or []) if isinstance(v, dict)]


def _map_window(view: dict, places: list[tuple[int, int]], margin: int = 3) -> tuple[int, int, int, int]:
    """(first col, first row, cols, rows) to draw: the units with a margin, inside a fixed map's edges."""
    size = str(view.get("map") or "")
    fixed = None
    if "x" in size and all(p.isdigit() for p in size.split("x", 1)):
        fixed = tuple(int(p) for p in size.split("x", 1))
    if not places:
        return 1, 1, (fixed or (12, 10))[0], (fixed or (12, 10))[1]
    c0, c1 = min(p[0] for p in places) - margin, max(p[0] for p in places) + margin
    r0, r1 = min(p[1] for p in places) - margin, max(p[1] for p in places) + margin
    while c1 - c0 < 9:
        c0, c1 = c0 - 1, c1 + 1
    while r1 - r0 < 7:
        r0, r1 = r0 - 1, r1 + 1
    if fixed:  # slide the window inside the map's edges (it keeps its size near an edge), then clip it
        c0, c1 = _inside(c0, c1, fixed[0])
        r0, r1 = _inside(r0, r1, fixed[1])
    else:  # no size given: a map whose units all sit on printed hexes (01 and up) is not drawn beyond 01
        if min(p[0] for p in places) >= 1:
            c0 = max(1, c0)
        if min(p[1] for p in places) >= 1:
            r0 = max(1, r0)
    return c0, r0, c1 - c0 + 1, r1 - r0 + 1


def _inside(first: int, last: int, size: int) -> tuple[int, int]:
    """A window first..last moved to lie within 1..size (clipped where it is larger than the map)."""
    if last > size:
        first, last = first - (last - size), size
    if first < 1:
        first, last = 1, last + (1 - first)
    return first, min(last, size)


def hex_picture(view: dict, side: str, title: str = "") -> Picture:
    """Ships (a dict by side or a list) and seeking weapons (``drones``, ``plasmas``, ``seeking``) on hexes,
    from cube ``q``/``r`` or CCRR ``hex``, facing A-F. Used by fc; any hex game whose view has this shape."""
    from . import svg
    ships = _units(view.get("ships"))
    counters, places = [], []
    for ship in ships:
        where = _offset(ship)
        if where is None or ship.get("destroyed"):
            continue
        places.append(where)
        name = str(ship.get("ship") or ship.get("name") or ship.get("_key") or "ship")
        owner = str(ship.get("side") or ship.get("_key") or "")
        short = name.rsplit("-", 1)[-1] if len(name.rsplit("-", 1)[-1]) <= 4 else name[:4]
        unit = str(ship.get("name") or owner or name)  # a ship's name where the view gives one (sfb), else its side
        counters.append(svg.Counter(unit, "", short.upper(), ship.get("facing"), owner,
                                    f"{ship.get('title') or name} ({owner}) in {ship.get('hex', '')}, facing "
                                    f"{ship.get('facing', '?')}, speed {ship.get('speed', '?')}", "ship", *where))
    for key in ("drones", "plasmas", "seekers", "seeking", "torpedoes"):
        for number, weapon in enumerate(_units(view.get(key)), 1):
            where = _offset(weapon)
            if where is None:
                continue
            places.append(where)
            kind = str(weapon.get("kind") or key[:-1])
            ident = str(weapon.get("id") or weapon.get("label") or f"{key}-{number}")
            owner = str(weapon.get("owner") or weapon.get("side") or "")
            counters.append(svg.Counter(f"{kind}-{ident}", "", kind[0].upper(), weapon.get("facing"), owner,
                                        f"{kind} {ident} of {owner} at {weapon.get('hex', '')} toward "
                                        f"{weapon.get('target', '?')}", kind, *where))
    from .moves import hex_ghosts, hex_shades, mark_targets
    targeted = mark_targets(view, counters)  # a fire question's targets: clicking one fills the form
    shades = hex_shades(view, _offset)  # the firing weapons' arcs and range bands, shown on demand
    ghosts = hex_ghosts(view, _offset)  # the moves to choose from, at their destination hex and facing
    counters += ghosts
    places += [(g.col, g.row) for g in ghosts]
    c0, r0, cols, rows = _map_window(view, places)
    hexmap = svg.HexMap(cols, rows, counters, first_col=c0, first_row=r0, labels=_hex_label,
                        title=title or f"{view.get('game', '')} map", shades=shades)
    status = [Status("situation", [(k, _text(view[k])) for k in ("turn", "impulse", "subpulse", "range", "map")
                                   if k in view], id="status-situation")]
    for ship in ships:
        owner = str(ship.get("side") or ship.get("_key") or "")
        rows_ = [(k, _text(ship[k])) for k in ("hex", "facing", "speed", "baseline", "internals", "internal", "energy",
                                               "battery", "available", "power", "batteries", "capacitor") if k in ship]
        if "shields" in ship:
            shields = ship["shields"]
            top = ship.get("shields_max")
            rows_.append(("shields", " ".join(f"{n}:{v}" + (f"/{top[n - 1]}" if isinstance(top, list) and
                                                              len(top) >= n else "")
                                              for n, v in enumerate(shields, 1))))
        weapons = ship.get("weapons")
        if isinstance(weapons, list) and weapons:
            alive = [w for w in weapons if isinstance(w, dict) and w.get("alive", True)]
            fired = [w for w in alive if w.get("fired")]
            rows_.append(("weapons", f"{len(alive)} of {len(weapons)} working, {len(fired)} fired: " +
                          ", ".join(str(w.get("id") or w.get("key") or w.get("kind", "?")) for w in alive)[:160]))
        for flag in ("cloaked", "destroyed", "disengaged", "gone"):
            if ship.get(flag):
                rows_.append((flag, "yes"))
        status.append(Status(f"{owner}: {ship.get('title') or ship.get('name') or ship.get('ship') or ''}".strip(": "),
                             rows_, id=f"status-{svg.ident(ship.get('name') or owner or ship.get('ship', 'ship'))}"))
    seeking = _units(view.get("drones")) + _units(view.get("seekers"))
    if seeking:
        status.append(Status("seeking weapons", [
            (str(d.get("id") or d.get("label") or "?"),
             f"{d.get('kind', 'drone')} of {d.get('owner') or d.get('side', '')} → {d.get('target', '')} at "
             f"{d.get('hex', '')}" + (f", strength {d['strength']}" if "strength" in d else "")
             + (" (held)" if d.get("held_by") else "")) for d in seeking[:20]], id="status-seeking"))
    legend = [("ship side-player", "your side's ship (arrow: its facing)"), ("ship side-robot", "the robot's ship")]
    if any(c.kind != "ship" and c.kind != "ghost" for c in counters):
        legend.append(("seeker", "a seeking weapon (drone, plasma): d, p"))
    if ghosts:
        legend.append(("ghost", "where a move leads (click to choose; S straight, L/R left/right, T turn, "
                                "SL/SR slip, P pivot, H+letter HET, D decel)"))
    if targeted:
        legend.append(("target", "a target you may fire at (click: every weapon that bears on it aims there; "
                                 "with a weapon's field chosen, that weapon only)"))
    if shades:
        legend.append(("arcband", "a weapon's firing arc and range bands (choose it under the map, or choose its "
                                  "field in the form); the numbers are each band's last range"))
    legend.append(("hex", "hexes labelled CCRR (column, row); drag or scroll to pan a large map"))
    return Picture(hexmap.svg(), [s for s in status if s.rows], legend=legend,
                   arcs=[(s.name, s.name) for s in shades])


# ------------------------------------------------------------------------------------------ Armada
# Base and hull-zone measurements (mm) as in armada/data/geometry.toml (bases: RRG 1.5 "Size Class"; tokens and
# arc lines provisional). A picture only: the game's own file decides every measurement of play.
ARMADA_SIZES = {  # base (w, l), token (w, l), arc_centre, front_end, rear_end
    "small": ((43.0, 71.0), (38.5, 70.25), 43.1, 21.5, 64.75),
    "medium": ((63.0, 102.0), (58.5, 101.5), 47.0, 20.25, 78.0),
    "large": ((77.5, 129.0), (73.0, 128.4), 59.4, 25.6, 98.6),
}
ARMADA_OBSTACLE_RADIUS = {"asteroid": 45.0, "debris": 35.0, "station": 50.0}


def armada_label(uid: str) -> str:
    """A ship's label on its base: its class in words, then its number ("nebulon-b-escort-1" -> "Nebulon-B Escort"
    and "1" on the next line); pieces of one or two letters stay joined to the word before (Victory-II, CR90-A).
    The base's title gives the whole id and the ship."""
    parts = [p for p in uid.split("-") if p]
    number = parts.pop() if len(parts) > 1 and parts[-1].isdigit() else ""
    words: list[str] = []
    for part in parts:
        text = part.upper() if len(part) <= 3 or any(c.isdigit() for c in part) else part.capitalize()
        if words and len(part) <= 2:
            words[-1] += "-" + text
        else:
            words.append(text)
    return " ".join(words) + (f"\n{number}" if number else "")


def armada_picture(view: dict, side: str) -> Picture:
    """The table seen from above, the Imperial edge (north, high y) at the top; ship bases with their
    hull-zone arc lines, squadrons, obstacles and the focal point."""
    from . import svg
    width, depth = (float(v) for v in view.get("table", (1828.8, 914.4))[:2])
    bases = []
    for ship in _units(view.get("ships")):
        if ship.get("destroyed"):
            continue
        base, token, centre, front, rear = ARMADA_SIZES.get(str(ship.get("size")), ARMADA_SIZES["medium"])
        hw, hl = token[0] / 2, token[1] / 2
        apex = (0.0, -(hl - centre))  # local frame: bow up the page (-y), the ship's left to -x
        lines = []
        for u, v in ((hl - front, hw), (hl - front, -hw), (hl - rear, hw), (hl - rear, -hw)):
            x2, y2 = -v, -u
            lines.append((apex[0], apex[1], apex[0] + (x2 - apex[0]) * 2.2, apex[1] + (y2 - apex[1]) * 2.2))
        shields = "/".join(str(v) for v in ship.get("shields", []))
        bases.append(svg.Base(str(ship.get("id")), float(ship["x"]), depth - float(ship["y"]), base[0], base[1],
                              90.0 - float(ship.get("heading", 90.0)), armada_label(str(ship.get("id", ""))),
                              str(ship.get("side", "")),
                              f"{ship.get('id')} {ship.get('ship', '')}: damage {ship.get('damage', 0)}/"
                              f"{ship.get('hull', '?')}, shields {shields}, speed {ship.get('speed', '?')}",
                              lines=lines, extra="active" if ship.get("id") in (view.get("active"), view.get("ship"))
                              else ""))
    tokens = [svg.Token(str(q.get("id")), float(q["x"]), depth - float(q["y"]), 17.5, str(q.get("id", ""))[:3],
                        str(q.get("side", "")), f"{q.get('id')} {q.get('squadron', '')}: hull {q.get('hull', '?')}")
              for q in _units(view.get("squadrons")) if not q.get("destroyed")]
    marks = []
    for number, obstacle in enumerate(view.get("obstacles") or [], 1):
        if isinstance(obstacle, (list, tuple)) and len(obstacle) >= 3:
            kind = str(obstacle[0])
            marks.append((f"{kind}-{number}", float(obstacle[1]), depth - float(obstacle[2]),
                          ARMADA_OBSTACLE_RADIUS.get(kind, 40.0), f"obstacle {kind}"))
    focal = view.get("focal")
    if isinstance(focal, (list, tuple)) and len(focal) >= 2 and focal[0] is not None:
        marks.append(("focal point", float(focal[0]), depth - float(focal[1]), 12.0, "focal"))
    table = svg.Table(width, depth, bases, tokens, f"Armada table, round {view.get('round', '?')}", marks)
    if view.get("courses"):  # the courses to choose from: the tool's path and the base at its end
        from .moves import course_window, courses_svg
        active = next((s for s in _units(view.get("ships")) if s.get("id") == view.get("ship")), {})
        base = ARMADA_SIZES.get(str(active.get("size")), ARMADA_SIZES["medium"])[0]
        straight = next((c["key"] for c in view["courses"] if isinstance(c, dict) and not any(c.get("clicks") or [])
                         and c.get("speed") == active.get("speed")), "")
        table.overlay = courses_svg(view, depth, base[1], base[0], straight)
        table.window = course_window(view, width, depth)  # zoomed to the ship and its courses
    zones: list[str] = []
    if view.get("targets") and view.get("zones"):  # an attack: target hull zones to click, rulers on demand
        from .moves import attack_svg, window
        table.underlay, over, zones, points = attack_svg(view, depth)
        table.overlay += over
        table.window = window(points, width, depth, 100.0, 500.0)  # zoomed to the attacker and its targets
    status = [Status("situation", [(k, _text(view[k])) for k in ("round", "first", "score", "style", "active")
                                   if k in view and view[k] not in (None, "")], id="status-situation")]
    for ship in _units(view.get("ships")):
        rows = [("ship", str(ship.get("ship", ""))), ("damage", f"{ship.get('damage', 0)} of {ship.get('hull', '?')}"),
                ("shields", "/".join(str(v) for v in ship.get("shields", []))), ("speed", _text(ship.get("speed")))]
        for key in ("tokens", "command_tokens", "dial", "faceup"):
            if ship.get(key):
                rows.append((key.replace("_", " "), _text(ship[key])))
        if ship.get("activated"):
            rows.append(("activated", "yes"))
        if ship.get("destroyed"):
            rows.append(("destroyed", "yes"))
        status.append(Status(f"{ship.get('side', '')}: {ship.get('id', '')}", rows, id=f"status-{svg.ident(ship.get('id', 'ship'))}"))
    squads = _units(view.get("squadrons"))
    if squads:
        status.append(Status("squadrons", [(str(q.get("id")), f"{q.get('squadron', '')} hull {q.get('hull', '?')}"
                                            + (" (destroyed)" if q.get("destroyed") else ""))
                                           for q in squads], id="status-squadrons"))
    for key in ("attack", "squadron"):
        if isinstance(view.get(key), dict):
            status.append(Status(key, [(k, _text(v)) for k, v in view[key].items()], id=f"status-{key}"))
    legend = [("base side-rebel", "Rebel ship (bow mark ahead, dashed hull-zone lines)"),
              ("base side-imperial", "Imperial ship"), ("squadron", "squadron"), ("active", "the ship asked about")]
    kinds = sorted({str(o[0]) for o in view.get("obstacles") or [] if isinstance(o, (list, tuple)) and o})
    legend += [(f"obstacle {k}", f"obstacle: {k}") for k in kinds]
    legend.append(("focal", "focal point"))
    if view.get("courses"):
        legend.append(("course", "a course's end (point at it to see the tool's path, click to choose)"))
    if zones:
        legend.append(("target", "a hull zone or squadron the chosen hull zone may attack (click to attack it; "
                                 "the other zones' targets: choose the zone under the map or click it on your ship)"))
        legend.append(("ruler", "range from the chosen hull zone, inside its arc: close, medium, long"))
    rulers = [z for z in ("front", "left", "right", "rear") if z in (view.get("zones") or {}).get(
        str(view.get("attacker")), {})] if zones else []
    return Picture(table.svg(), [s for s in status if s.rows], legend=legend,
                   arcs=[(z, f"{z} hull zone" + ("" if z in zones else " (no target)")) for z in rulers])


register("fc", lambda view, side: hex_picture(view, side, "Federation Commander map"))
register("armada", armada_picture)
register("sfb", lambda view, side: hex_picture(view, side, "Star Fleet Battles map"))
