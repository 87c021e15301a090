"""A sensible Rebel player policy for simulations: greedy, but not foolish (docs 'Player policy')."""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from ..core.contract import Decision, Option, Request
from .geometry import Footprint
from . import dice as D
from .measure import ShotOpt
from .sides import IMPERIAL
from .geometry import ADJACENT, ZONES
from .tactics import angle_diff, arc_dice, course_table, dice_cap, nearest, nearest_ship
from .state import Ship, Squad

if TYPE_CHECKING:
    from .table import Measures

# math functions as constants (Final): compiled, called without looking them up in the math module each time
_atan2: Final = math.atan2
_degrees: Final = math.degrees

WHY = ()  # the policy is not a robot of the seed: its choices are not logged as decisions


def expected(o: ShotOpt) -> float:
    """The shot's expected hits: each die's mean added in order (a float loop: compiled, unboxed; the same sum)."""
    total = 0.0
    if isinstance(o.target, Squad):
        for c in o.colours:
            total += 0.5 if c != "K" else 0.75
    else:
        for c in o.colours:
            total += D.MEAN[c]
    return total


def _score(parts: tuple[float, float, float | None, float], dice: int) -> float:
    """A course's score as _maneuver sums it, term by term in this order (the order fixes the rounding)."""
    off, bump, turn, nav = parts
    s = off
    s += bump
    s -= 40.0 * dice
    if turn is not None:
        s += turn
    s += nav
    return s


class Policy:
    """The Rebel captain of simulations: answers each request with an option key (reads, never changes, the game)."""

    def __init__(self) -> None:
        self._kinds: dict[str, Callable[[Request], str]] = {"command": self._command, "activate": self._activate, "attack": self._attack,
                       "defend": self._defend, "maneuver": self._maneuver, "squadron-pick": self._squadron_pick,
                       "squadron": self._squadron}

    def decide(self, request: Request) -> Decision:
        return Decision(self._kinds[request.kind](request), WHY)

    def _command(self, request: Request) -> str:
        ship: Ship = request.subject
        if any(a < b for a, b in zip(ship.shields, ship.spec.shields)) and ship.damage >= 2:
            return "repair"
        return "concentrate" if ship.speed > 0 else "navigate"

    def _activate(self, request: Request) -> str:
        game: Measures = request.state
        ships: list[Ship] = request.subject
        if len(ships) == 1:
            return ships[0].uid  # the only choice: nothing to measure (its shots are measured when it attacks)
        best_uid: str | None = None
        best = 0.0
        for s in ships:  # the first of the greatest (expected hits, uid), as max() takes it
            hits = 0.0
            for o in game.ship_shots(s):
                hits += expected(o)
            if best_uid is None or hits > best or (hits == best and s.uid > best_uid):
                best, best_uid = hits, s.uid
        assert best_uid is not None
        return best_uid

    def _attack(self, request: Request) -> str:
        shots: list[ShotOpt] = request.subject  # typed: compiled, each shot's fields read natively, not by name
        if not shots:
            return "pass"
        # the first of the greatest (at a ship, expected hits, fewest shields, key), as max() takes it; a shot's key
        # (a string built) is read only where the rest ties
        best: ShotOpt | None = None
        best_k: tuple[bool, float, int] = (False, 0.0, 0)
        best_key = ""
        for o in shots:
            t, tz = o.target, o.tzone
            # a shot at a ship names the defending zone; one at a squadron none (its shields count 0)
            k = (isinstance(t, Ship), expected(o), -(t.zone_shields(tz) if isinstance(t, Ship) and tz else 0))
            if best is None or k > best_k:
                best, best_k, best_key = o, k, ""
            elif k == best_k:
                if not best_key:
                    best_key = best.key
                key = o.key
                if key > best_key:
                    best, best_key = o, key
        assert best is not None
        return best_key or best.key

    def _defend(self, request: Request) -> str:
        return "+".join(self.tokens(request.subject)) or "none"

    def tokens(self, view: dict[str, Any]) -> tuple[str, ...]:
        ship: Ship = view["ship"]
        faces = view["faces"]
        dmg = D.damage(faces, view["squad_attack"] and not view["bomber"])
        kinds = {k for k, _ in ship.tokens if k not in view["locked"]}
        zone = view["shot"].tzone
        ready = {k for k, e in ship.tokens if not e}
        out = []
        if "evade" in kinds and view["shot"].band == "long" and len(faces) == 1 and "evade" in ready:
            return ("evade",)  # cancelling the only die leaves nothing for other tokens to do
        cards = dmg > ship.zone_shields(zone)
        for k in ("scatter", "evade", "brace", "redirect", "contain"):
            if k not in kinds or (k not in ready and not cards):
                continue
            if k == "scatter" or (k == "brace" and dmg >= 2) or (k == "contain" and D.has_crit(faces) and cards) \
                    or (k == "redirect" and dmg >= ship.zone_shields(zone) and
                        max(ship.zone_shields(z) for z in ADJACENT[zone]) > 0) \
                    or (k == "evade" and view["shot"].band in ("long", "medium")):
                out.append(k)
                if k == "scatter":
                    break
        return tuple(out)

    def _maneuver(self, request: Request) -> str:
        """End where the two best-armed zones have the most dice on Imperial ships; otherwise close in.

        The score of a course is (off the table 1e6, overlapping a ship 1e4) - 40 x (dice of its two best zones)
        + (degrees off the nearest enemy) / 10 + (5 if it spends navigate); the lowest wins, the first listed among
        equals. The dice are measured only for courses that could still win: a course's score with its zones'
        full batteries in place of the dice measured is a floor (float rounding is monotone, so the same sum
        with a larger number subtracted is never above it), and courses are measured from the lowest floor up
        until the next floor is above the best score (or equal to it, listed later). Before its dice are measured, a
        course gets a second floor, with tactics.dice_cap's bound on its dice (from the centres alone): a course
        whose second floor is above the best score (or equal, listed later) is passed over, and one whose bound is
        0 has no dice to measure."""
        game: Measures = request.state  # typed as its class: compiled, read natively
        options: tuple[Option, ...] = request.options
        ship: Ship = request.subject
        enemies = game.live_ships(IMPERIAL)
        target = nearest_ship(enemies, ship.x, ship.y)
        most = sum(sorted(ship.arms().totals)[-2:])
        floors: list[float] = []
        terms: list[tuple[float, float, float | None, float]] = []
        fps: list[Footprint] = []
        for i, (o, ((x, y, a), fp, on, bump)) in enumerate(zip(options, course_table(game, ship, options))):
            turn = None if target is None else _degrees(angle_diff(a, _atan2(target.y - y, target.x - x))) / 10
            parts = (0.0 if on else 1e6, 1e4 if bump else 0.0, turn, 5.0 if o.value[2] else 0.0)
            floors.append(_score(parts, most))
            terms.append(parts)
            fps.append(fp)
        # by (floor, index): a stable sort by the floor alone (float keys: compared as floats, not as tuples)
        order = sorted(range(len(floors)), key=floors.__getitem__)
        best: int | None = None
        score = math.inf
        ruler = game.geo.ruler
        for i in order:
            floor, parts, fp = floors[i], terms[i], fps[i]
            if best is not None and (floor > score or (floor == score and i > best)):
                break
            # a tighter floor from the centres alone (tactics.dice_cap: no fewer dice than arc_dice's), and the
            # score itself when it finds no dice
            cap = dice_cap(ship, fp, enemies, ruler)
            if best is not None and cap:
                low = _score(parts, cap)
                if low > score or (low == score and i > best):
                    continue
            s = _score(parts, sum(sorted(arc_dice(ship, fp, enemies, ruler).values())[-2:]) if cap else 0)
            if s < score or (s == score and best is not None and i < best):
                best, score = i, s
        assert best is not None
        return options[best].key

    def _squadron_pick(self, request: Request) -> str:
        first: Squad = request.subject[0]
        return first.uid

    def _squadron(self, request: Request) -> str:
        view, options = request.subject, request.options
        q: Squad = view["squad"]
        game = view["game"]
        shots = [o for o in options if isinstance(o.value, ShotOpt)]
        if shots:
            least: tuple[bool, int, str] | None = None
            for o in shots:  # the first of the least, as min() takes it
                k = (isinstance(o.value.target, Ship), getattr(o.value.target, "hull", 0), o.key)
                if least is None or k < least:
                    least = k
            assert least is not None
            return least[2]
        if view["did_move"]:
            return "pass"
        foe = nearest(game.live_squads(IMPERIAL), q.x, q.y) or nearest_ship(game.live_ships(IMPERIAL), q.x, q.y)
        if foe is None:
            return "stay"
        key = f"move:{foe.uid}"
        return key if any(o.key == key for o in options) else "stay"
