"""A scaled character sketch of the Armada table for the terminal (issue 26), drawn from a request's view.

The table (y up the page: the Rebel edge at the bottom) is drawn at about 30 mm a column and 60 mm a row
(a character is about twice as tall as it is wide), so a standard 6' x 3' table takes 60 x 15 characters and
the sketch with its legend fits 80x24. Ship bases are filled with the ship's letter and their bow marked by
an arrow; squadrons are lower-case letters; obstacles @ (asteroid), % (debris), # (station); the active
ship's firing arcs are drawn as ':' lines out to long range; '*' is where the suggested course ends.
Measured positions are in the legend and the 'table' listing: the sketch is for seeing, not measuring.
"""
from __future__ import annotations

import math
from ..core.words import in_words
from ..core.textmap import pack

OBSTACLE = {"asteroid": "@", "debris": "%", "station": "#"}
ARROWS = ">/^\\</v\\"  # bow marks for headings 0, 45, 90 ... 315 degrees (y up)


def letters(view: dict) -> dict[str, str]:
    """A letter for every ship (upper case) and squadron kind (lower case): the name's first free letter."""
    used: set[str] = set()
    out = {}
    for s in view.get("ships") or []:
        out[s["id"]] = _free(s["id"].upper(), used)
    kinds: dict[str, str] = {}
    for q in view.get("squadrons") or []:
        kind = q.get("squadron", q["id"])
        if kind not in kinds:
            kinds[kind] = _free(kind.lower(), used)
        out[q["id"]] = kinds[kind]
    return out


def _free(name: str, used: set[str]) -> str:
    pool = [c for c in name if c.isalpha()] + [chr(c) for c in range(ord("A"), ord("Z") + 1)] \
        + [chr(c) for c in range(ord("a"), ord("z") + 1)]
    for c in pool:
        if (c.upper() if name.isupper() else c.lower()) not in used and c.isalpha():
            c = c.upper() if name.isupper() else c.lower()
            used.add(c)
            return c
    return "?"


def sketch(view: dict, suggested: str | None = None, cols: int = 60, width: int = 80) -> list[str]:
    """The table as lines of at most ``width`` characters, then the legend (``suggested``: a course key whose
    end is marked)."""
    tw, td = (float(v) for v in view["table"][:2])
    rows = max(4, round(cols * td / tw / 2))
    mx, my = tw / cols, td / rows  # mm per column, per row
    grid = [[" "] * cols for _ in range(rows)]

    def cell(x: float, y: float) -> tuple[int, int] | None:
        c, r = int(x / mx), rows - 1 - int(y / my)
        return (c, r) if 0 <= c < cols and 0 <= r < rows else None

    def put(x: float, y: float, ch: str, over: str = " ") -> None:
        at = cell(x, y)
        if at is not None and grid[at[1]][at[0]] in over:
            grid[at[1]][at[0]] = ch

    marks = letters(view)
    radius = view.get("obstacle_radius") or {}
    for kind, x, y in view.get("obstacles") or []:
        r = float(radius.get(kind, 35.0))
        for c in range(cols):
            for row in range(rows):
                cx, cy = (c + 0.5) * mx, (rows - row - 0.5) * my
                if math.hypot(cx - x, cy - y) <= max(r, mx / 2):
                    grid[row][c] = OBSTACLE.get(kind, "o")
        put(x, y, OBSTACLE.get(kind, "o"), over=" @%#")
    arcs = view.get("arcs") or {}
    reach = float((view.get("ranges") or {}).get("long", 304.8))
    for apex, *rays in arcs.values():
        for px, py in rays:
            dx, dy = px - apex[0], py - apex[1]
            length = math.hypot(dx, dy) or 1.0
            for step in range(0, int(reach), int(min(mx, my) / 2) or 1):
                put(apex[0] + dx / length * step, apex[1] + dy / length * step, ":", over=" ")
    bases = view.get("bases") or {}
    for s in view.get("ships") or []:
        if s.get("destroyed"):
            continue
        bw, bl = bases.get(s.get("size"), (63.0, 102.0))
        a = math.radians(float(s["heading"]))
        ca, sa = math.cos(a), math.sin(a)
        for c in range(cols):
            for row in range(rows):
                dx, dy = (c + 0.5) * mx - s["x"], (rows - row - 0.5) * my - s["y"]
                u, v = dx * ca + dy * sa, -dx * sa + dy * ca  # along the heading, across it
                if abs(u) <= bl / 2 and abs(v) <= bw / 2:
                    grid[row][c] = marks[s["id"]]
        put(s["x"], s["y"], marks[s["id"]], over=" :@%#")  # a base smaller than a cell still shows
        bow = ARROWS[round((float(s["heading"]) % 360) / 45) % 8]
        put(s["x"] + ca * (bl / 2 + mx / 2), s["y"] + sa * (bl / 2 + my / 2), bow, over=" :")
    for q in view.get("squadrons") or []:
        if not q.get("destroyed"):
            put(q["x"], q["y"], marks[q["id"]], over=" :")
    course = next((c for c in view.get("courses") or [] if c.get("key") == suggested), None)
    if course is not None:
        put(course["end"][0], course["end"][1], "*", over=" :")
    top, bottom = f" Imperial edge ({tw:.0f} x {td:.0f} mm) ", " Rebel edge "
    lines = ["+-" + top + "-" * (cols - 1 - len(top)) + "+"] + ["|" + "".join(r) + "|" for r in grid] \
        + ["+-" + bottom + "-" * (cols - 1 - len(bottom)) + "+"]
    return lines + legend(view, marks, course is not None, width)


def legend(view: dict, marks: dict[str, str], course: bool, width: int = 80) -> list[str]:
    """Every symbol of the sketch in words, whole entries packed into lines."""
    entries = []
    for side in ("imperial", "rebel"):
        ships = [f"{marks[s['id']]} {s['id']} {s['x']:.0f},{s['y']:.0f} {float(s['heading']):.0f}°"
                 for s in view.get("ships") or [] if s["side"] == side and not s.get("destroyed")]
        entries += [f"{side.title()}: {text}" if i == 0 else text for i, text in enumerate(ships)]
    kinds: dict[str, list[str]] = {}
    for q in view.get("squadrons") or []:
        if not q.get("destroyed"):
            kinds.setdefault(f"{marks[q['id']]} {q.get('squadron', q['id'])} ({q['side']})", []).append(q["id"])
    entries += [f"{name} x{len(ids)}" if len(ids) > 1 else name for name, ids in kinds.items()]
    present = {o[0] for o in view.get("obstacles") or []}
    entries += [f"{OBSTACLE[k]} {k}" for k in OBSTACLE if k in present]
    if view.get("arcs"):
        entries.append(f": arcs of {in_words(view.get('active'))} to long range")
    if course:
        entries.append("* where the suggested course ends")
    entries.append("> / ^ \\ < v: a bow (ships at x,y mm, heading)")
    return pack(entries, width)
