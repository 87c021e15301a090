"""The engine's requests: their options, the checks that turn an answer into the engine's action (or refuse it
with the rule it breaks), the JSON view of the table a side may know, and how decisions are logged."""
from __future__ import annotations

import math
from collections.abc import Callable
from itertools import combinations
from typing import TYPE_CHECKING, Any

from ..core.contract import Option
from ..core.errors import IllegalAction
from .measure import ShotOpt, shot_label, size_of
from .state import Squad
from .targets_view import attack_view

if TYPE_CHECKING:
    from .base import GameBase
    from .state import Ship

Check = Callable[[Any], Any]  # a request's check: an answer -> the engine's action (or IllegalAction)


STYLES = ("aggressive", "cautious", "normal")
STYLE_OPTIONS = tuple(Option(k, f"{k} commander") for k in STYLES)
DEPLOY_ZONES = ("centre", "west", "east")
ZONE_OPTIONS = tuple(Option(k, f"the {k} of the far deployment zone") for k in DEPLOY_ZONES)
SQUADRON_DEPLOYS = ("contact", "distance 2")
SQUADRON_DEPLOY_OPTIONS = (Option("contact", "squadrons touching their ships"),
                           Option("distance 2", "squadrons within distance 2 of their ships"))
COMMANDS = ("navigate", "squadron", "concentrate", "repair")
COMMAND_OPTIONS = tuple(Option(c, c) for c in COMMANDS)
AI_COMMAND_OPTIONS = tuple(Option(f"{how}:{c}", f"{c} {'dial' if how == 'dial' else 'token (no dial)'}", (how, c))
                           for how in ("dial", "token") for c in COMMANDS)
AI_COMMANDS = {o.key: o.value for o in AI_COMMAND_OPTIONS}
PASS_SQUADRON = Option("pass", "done")


def _short(answer: Any) -> str:
    text = str(answer)
    return text if len(text) <= 40 else text[:37] + "..."


def one_of(keys: tuple[str, ...], what: str, rule: str) -> Check:
    def check(answer: Any) -> Any:
        if answer in keys:
            return answer
        raise IllegalAction(f"'{_short(answer)}' is not a {what}; choose one of: {', '.join(keys)}", rule)
    return check


COMMAND_CHECK = one_of(COMMANDS, "command", "RRG Commands")


def AI_COMMAND_CHECK(answer: Any) -> Any:
    if isinstance(answer, str) and answer in AI_COMMANDS:
        return AI_COMMANDS[answer]
    raise IllegalAction(f"'{_short(answer)}' is not a command: give dial:COMMAND or token:COMMAND with a command of "
                        f"{', '.join(COMMANDS)}", "ARM.CMD.ROLL")


def pick(options: tuple[Option, ...], what: str, rule: str) -> Check:
    """A check that finds the option of a key (the engine reads its value)."""
    def check(answer: Any) -> Any:
        if isinstance(answer, str):
            for o in options:
                if o.key == answer:
                    return o
        shown = ", ".join(o.key for o in options[:12]) + (", ..." if len(options) > 12 else "")
        raise IllegalAction(f"'{_short(answer)}' is not {what}; choose one of: {shown}", rule)
    return check


def attack_options(shots: list[ShotOpt]) -> tuple[Option, ...]:
    """Each legal attack; for a zone that reaches several squadrons, also all of them at once; 'pass'."""
    out = [Option(o.key, shot_label(o), o) for o in shots]
    zones: dict[str | None, list[ShotOpt]] = {}
    for o in shots:
        if isinstance(o.target, Squad):
            zones.setdefault(o.zone, []).append(o)
    for zone, group in zones.items():
        if len(group) > 1:
            group = sorted(group, key=lambda o: (-len(o.colours), o.target.uid))
            out.append(Option("+".join(o.key for o in group), f"{zone} zone -> every squadron in reach ("
                              f"{', '.join(o.target.uid for o in group)})"))
    out.append(Option("pass", "no attack"))
    return tuple(out)


def attack_check(shots: list[ShotOpt]) -> Check:
    """'pass', one attack key, or several keys joined by '+' (one zone at several squadrons) -> [ShotOpt] or 'pass'."""
    def check(answer: Any) -> Any:
        if answer == "pass":
            return "pass"
        if isinstance(answer, str) and answer:
            keys = answer.split("+")
            found = [next((o for o in shots if o.key == k), None) for k in keys]
            chosen = [c for c in found if c is not None]
            if len(chosen) == len(found) and len(set(keys)) == len(keys):
                if len({c.zone for c in chosen}) != 1:
                    raise IllegalAction(f"'{_short(answer)}': one attack comes from one hull zone", "RRG Attack")
                if len(chosen) > 1 and not all(isinstance(c.target, Squad) for c in chosen):
                    raise IllegalAction("only attacks on squadrons may take several targets", "RRG Attack")
                return chosen
        shown = ", ".join(o.key for o in shots[:12]) + (", ..." if len(shots) > 12 else "")
        raise IllegalAction(f"'{_short(answer)}' is not a legal attack now; choose one of: {shown}, or pass "
                            f"(several squadrons of one zone: join their keys with '+')", "RRG Attack")
    return check


def token_options(kinds: list[str], exhausted: set[str]) -> tuple[Option, ...]:
    """Every set of distinct token kinds the defender may spend ('none' first)."""
    out = [Option("none", "spend no token")]
    for n in range(1, len(kinds) + 1):
        for group in combinations(kinds, n):
            out.append(Option("+".join(group), " + ".join(k + (" (exhausted: discarded)" if k in exhausted else "")
                                                           for k in group)))
    return tuple(out)


def token_check(kinds: list[str]) -> Check:
    """'none' or token kinds joined by '+' (in the order they are spent) -> [kind, ...]."""
    def check(answer: Any) -> Any:
        if answer == "none" or answer == "":
            return []
        if isinstance(answer, str):
            chosen = answer.split("+")
            if len(set(chosen)) == len(chosen) and all(k in kinds for k in chosen):
                return chosen
        raise IllegalAction(f"cannot spend '{_short(answer)}': pick distinct tokens you hold and that are not "
                            f"locked ({', '.join(kinds)}), joined by '+', or 'none'", "RRG Defense Tokens")
    return check


def logged_action(kind: str, action: Any) -> Any:
    """The decision events' action field (as the engine has always logged it)."""
    if kind == "attack" and action != "pass":
        keys = [o.key for o in action]
        return keys if isinstance(action[0].target, Squad) else keys[0]
    return jsonable(action)


def jsonable(x: Any) -> Any:
    if isinstance(x, (str, int, float, bool)) or x is None:
        return x
    if isinstance(x, (list, tuple)):
        return [jsonable(v) for v in x]
    if hasattr(x, "key"):
        return x.key
    if hasattr(x, "target") and hasattr(x, "zone"):
        return f"{x.zone}>{x.target}"
    return str(x)


def table_view(game: GameBase, side: str, kind: str = "", subject: Any = None, aids: bool = True) -> dict[str, Any]:
    """What ``side`` may know, as plain JSON data: the table, the score, and what the question is about.
    The other side's command dials are hidden (RRG 'Command Phase'). ``aids=False``: without what front ends draw
    (measures_view, a maneuver's course paths, an attack's targets and zone polygons), for agents (envs)."""
    ships = []
    for s in game.ships:
        v = s.to_view()
        v["command_tokens"] = sorted(s.cmd_tokens)
        v["activated"] = s.activated
        if s.side == side:
            v["dial"] = s.dial
        ships.append(v)
    squads = []
    for q in game.squads:
        v = q.to_view()
        v["activated"] = q.activated
        squads.append(v)
    out: dict[str, Any] = {"game": "armada", "side": side, "round": game.round, "first": game.first, "score": dict(game.score),
           "table": [game.width, game.depth], "style": game.style, "focal": [game.focal[0], game.focal[1]],
           "active": game.active.uid if game.active else None, "ships": ships, "squadrons": squads,
           "obstacles": [[o.kind, round(o.x, 1), round(o.y, 1)] for o in game.obstacles]}
    if aids:
        out.update(measures_view(game))
    if kind == "defend" and isinstance(subject, dict):
        shot = subject["shot"]
        out["attack"] = {"attacker": shot.attacker.uid, "zone": shot.zone, "defender": subject["ship"].uid,
                         "defending_zone": shot.tzone, "range": shot.band, "colours": list(subject["colours"]),
                         "faces": list(subject["faces"]), "locked": sorted(subject["locked"])}
    elif kind == "squadron" and isinstance(subject, dict):
        out["squadron"] = {"unit": subject["squad"].uid, "ordered": subject["ordered"],
                           "moved": subject["did_move"], "attacked": subject["did_attack"]}
    elif kind in ("command", "maneuver", "ai-command") and subject is not None:
        out["ship"] = subject.uid
        if kind == "maneuver" and aids:
            out["courses"] = course_view(game, subject)
    elif kind == "attack" and isinstance(subject, list) and aids:
        out.update(attack_view(subject))  # targets and hull zones, for front ends to draw
    elif kind == "focal" and subject is not None:
        out["rebel_ship_x"] = list(subject)
    return out


def measures_view(game: GameBase) -> dict[str, Any]:
    """For front ends to draw (pictures, not rules): the range bands (mm), each size class's base (width, length),
    the obstacles' radii, and the active ship's firing arcs (hull zone: apex, then a point on each bounding ray)."""
    g = game.geo
    out: dict[str, Any] = {"ranges": {"close": g.ruler.close, "medium": g.ruler.medium, "long": g.ruler.long},
           "bases": {name: list(size.base) for name, size in g.sizes.items()},
           "obstacle_radius": {"asteroid": g.obstacles.asteroid_radius, "debris": g.obstacles.debris_radius,
                               "station": g.obstacles.station_radius}}
    ship = game.active
    if ship is not None and not ship.destroyed:
        out["arcs"] = {zone: [[round(x, 1), round(y, 1)] for x, y in arc] for zone, arc in ship.fp.arcs.items()}
    return out


def course_view(game: Any, ship: Ship) -> list[dict[str, Any]]:
    """Each legal course of ``ship``: key, speed, yaw clicks, the tool's path (mm, the base's front and each
    segment's end) and where the base ends (x, y, heading in degrees), for front ends to draw. The end is the
    course as set; an overlap found when it is carried out shortens it (RRG 'Overlapping')."""
    from .maneuver_tool import tool_path
    out: list[dict[str, Any]] = []
    for option in game.courses(ship):
        speed, clicks, _ = option.value
        x, y, a = game.end_of(ship, speed, clicks)
        path = tool_path(ship.x, ship.y, ship.a, size_of(ship).base[1], speed, clicks, game.geo.tool)
        out.append({"key": option.key, "speed": speed, "clicks": list(clicks),
                    "path": [[round(px, 1), round(py, 1)] for px, py in path],
                    "end": [round(x, 1), round(y, 1), round(math.degrees(a), 1)]})
    return out


def focal_options(game: GameBase, xs: list[float]) -> tuple[Option, ...]:
    """Presets: the middle of the Rebel line, and moved 3 or 6 west or east (ARM.DEPLOY.FP)."""
    ordered = sorted(xs)
    n = len(ordered)
    middle = ordered[n // 2] if n % 2 else (ordered[n // 2 - 1] + ordered[n // 2]) / 2
    d3 = game.geo.ruler.distance[2]
    out: list[Option] = []
    seen: set[float] = set()
    for shift, label in ((0, "the middle of the Rebel line"), (-d3, "distance 3 west"), (d3, "distance 3 east"),
                         (-2 * d3, "distance 6 west"), (2 * d3, "distance 6 east")):
        x = min(max(middle + shift, 0.0), game.width)
        if x not in seen:
            seen.add(x)
            out.append(Option(repr(x), f"x = {x:.0f} mm: {label}", x))
    return tuple(out)

def check_focal(game: GameBase, answer: Any) -> float:
    try:
        x = float(answer) if isinstance(answer, (str, int, float)) and not isinstance(answer, bool) else None
    except ValueError:
        x = None
    if x is None or not (0.0 <= x <= game.width):
        raise IllegalAction(f"the focal point is a distance in mm along the Rebel edge, from 0 to "
                            f"{game.width:.0f}, not '{str(answer)[:40]}'", "ARM.DEPLOY.FP")
    return x
