"""Balance in words for people (issue 25): the plain answer a sweep's report starts with, in the game's own things
at the table ("for an even fight give the player 5 extra shield boxes"), and the report files' readable names.

The things come from the game (its registry entry's ``at_the_table``: shield boxes for SFB and FC, squadrons for
Armada); a game without it is answered in its points (``handicap_unit``). Nothing here names a game.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any, Callable


def _things(matchup) -> Callable[[float], str]:
    """handicap points -> "5 shield boxes" (for the side that gets them), from the game's registry entry."""
    spec = matchup.spec or {}
    hook = None
    if spec.get("game"):
        import paperrobot
        try:
            hook = getattr(paperrobot.game_info(spec["game"]), "at_the_table", None)
        except Exception:  # a report of a game not registered here (a plug-in's): its points instead
            hook = None
    setup = dict(spec.get("setup") or {})
    unit = matchup.unit
    if hook is None:
        return lambda points: f"{abs(points):.1f} {unit}"
    return lambda points: hook(points, setup)


def _side(points: float) -> str:
    return "the robot" if points > 0 else "the player"


def _nothing(text: str) -> bool:
    try:
        return float(text.split(" ", 1)[0]) == 0
    except ValueError:
        return False


def _bound(things, points: float) -> tuple[float, str]:
    """A bound of the interval as (signed count for ordering, words)."""
    text = things(points)
    if _nothing(text):
        return 0, "nothing"
    count = float(text.split(" ", 1)[0])
    return (count if points > 0 else -count), f"{text} to {_side(points)}"


def _between(things, low: float, high: float) -> str:
    (a, first), (b, second) = sorted((_bound(things, low), _bound(things, high)))
    if (a > 0) == (b > 0) and a and b:  # one side: "between 3 and 7 shield boxes to the player"
        if a < 0:
            first, second = second, first
        return f"between {first.split(' ', 1)[0]} and {second}"
    return f"between {first} and {second}"


def plain_answer(sweep) -> str:
    """The answer first, in the game's own things: "For an even fight give the player 5 extra shield boxes
    (-6.1 BPV); 95% sure it lies between 3 and 7 shield boxes to the player." Then come the statistics."""
    fit, matchup = sweep.fit, sweep.matchup
    unit = matchup.unit
    if not fit.slope_positive or fit.h50 is None or not _finite(fit.h50):
        return ("At the table: no plain answer: the robot's score does not clearly rise with the handicap, so no "
                "even point can be given (the statistics below say why).")
    things = _things(matchup)
    given = things(fit.h50)
    if _nothing(given):
        answer = f"At the table: the fight is even as it is (h50 {fit.h50:+.1f} {unit} buys nothing at the table)"
    else:
        answer = f"At the table: for an even fight give {_side(fit.h50)} {_extra(given)} ({fit.h50:+.1f} {unit})"
    low, high = fit.interval.low, fit.interval.high
    if low is not None and high is not None and _finite(low) and _finite(high):
        answer += f"; 95% sure it lies {_between(things, low, high)}"
    return answer + "."


def _extra(text: str) -> str:
    count, _, rest = text.partition(" ")
    return f"{count} extra {rest}" if rest else text


def _finite(x: Any) -> bool:
    try:
        return abs(float(x)) < float("inf")
    except (TypeError, ValueError):
        return False


# ------------------------------------------------------------------------------------------- file names
def _clean(text: str) -> str:
    return "".join(c if c.isalnum() or c in "-." else "-" for c in text).strip("-")


def report_name(matchup) -> str:
    """A report's file stem that says what was swept: ``sfb-scenario5-policy``, ``fc-robotshipd7-playershipkzinti-bc-
    robot`` (the game; its first set-up option when that is a choice, the game's main one, and each other option
    that differs from its default, as name and value; the opponent). A short hash of
    the whole set-up is added only where the words could name two set-ups: a value that had to be cleaned for a
    file name (search:N, a fleet list), the robot's rules (a variant's text), or a name over 80 characters."""
    spec = matchup.spec or {}
    game, setup = spec.get("game"), dict(spec.get("setup") or {})
    if not game:  # a matchup made by hand (tests, plug-ins): its store key
        return _clean(f"{matchup.key.replace('/', '-')}-{matchup.opponent}")
    defaults, main = {}, None
    try:
        import paperrobot
        options = paperrobot.game_info(game).options
        defaults = {o.name: o.default for o in options}
        main = options[0].name if options and options[0].kind == "choice" else None
    except Exception:  # a report of a game not registered here: every option named
        pass
    parts, lossy = [game], False
    for name in sorted(setup, key=lambda n: (n != main, n)):
        value = setup[name]
        if name != main and name in defaults and value == defaults[name]:
            continue
        if name == "robot_rules" and value:
            lossy = True
            continue
        word = f"{name.replace('_', '')}{value}"
        clean = _clean(word)
        lossy |= clean != word or not clean
        parts.append(clean)
    opponent = _clean(matchup.opponent)
    lossy |= opponent != matchup.opponent
    parts.append(opponent)
    name = "-".join(p for p in parts if p)
    if lossy or len(name) > 80:
        digest = hashlib.sha256(json.dumps(spec, sort_keys=True, default=str).encode()).hexdigest()[:6]
        name = f"{name[:80]}-{digest}"
    return name
