"""The robot's scenario #6 rules as pure helpers: its plasma cadence (SFB.R8, SFB.R.PLASMA) and the
modified rules against a cloaking enemy (SFB.R.CLOAK1-4, seed 000 "CLOAK").

The robot (robot.py) calls these; the engine calls ``threatened`` and ``safe_speed`` at the start of a robot
ship's turn (SFB.R.CLOAK3 speed). They read the state and change nothing.
Interpretations: docs/sfb-plasma-cloak.md, sections "Robot plasma" and "Robot against a cloaking ship".
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ..core.controller import Decision, Reason
from ..core.hexgrid import Hex, distance
from .movement import RIGHT, STRAIGHT, bearing_score, candidates, viable_states
from .plasma import Plasma
from .procedure import Numbers, numbers
from .state import Ship

if TYPE_CHECKING:
    from .base import Target
    from .game import Game

# The numbers (the R.CLOAK2 torpedo range, the R8 cadence, the R.CLOAK3 best speed) are the procedure's
# (data/robot_rules.toml, read by sfb/procedure.py); ``n`` below is its Numbers (None: the published one).


def r8_turn(turn: int, n: Numbers | None = None) -> bool:
    """SFB.R8: the KR robot launches torpedo A on turns 1, 4, 7, ... (every third turn from the first)."""
    return (n or numbers()).plasma_turn(turn)


def evade_choice(h: Hex, facing: int, can_turn: bool, threat: Hex,
                 allowed: Callable[[str, int, Hex], bool] | None = None) -> tuple[str, int, Hex] | None:
    """SFB.R.CLOAK3: turn away from the torpedo: the legal move that ends farthest from it.

    Ties: straight ahead (a turn is only made when it gains distance), then the turn whose new facing
    points more directly away from the torpedo, then the right turn (docs "Robot against a cloaking ship").
    ``allowed(steer, facing, hex)`` vetoes moves that would take it off the map (SFB.R3.MAP).
    """
    best: tuple[str, int, Hex] | None = None
    best_key: tuple[int, int, int, int] | None = None
    for steer, new_facing, dest in candidates(h, facing, can_turn):
        if allowed is not None and not allowed(steer, new_facing, dest):
            continue
        key = (-distance(dest, threat), 0 if steer == STRAIGHT else 1, bearing_score(dest, new_facing, threat),
               0 if steer == RIGHT else 1)
        if best_key is None or key < best_key:
            best, best_key = (steer, new_facing, dest), key
    return best


def best_speed(impulses: int, warp_lost: int, n: Numbers | None = None) -> int:
    """SFB.R.CLOAK3 "best speed": the scenario's top speed less the robot's warp damage (SFB.DMG3)."""
    return (n or numbers()).best_speed(impulses, warp_lost)


def cloak_rules_apply(game: Game, ship: Ship) -> bool:
    """Seed 000 CLOAK: the modified rules are for fighting a cloaking ship (option evade="plasma": any)."""
    if game.options.get("evade", "cloak") == "plasma":
        return True
    return any(s.cloak is not None for s in game.ships if s.side != ship.side)


def threats(game: Game, ship: Ship) -> list[Plasma]:
    """Enemy plasma torpedoes on the map that are targeted on this ship, nearest first."""
    # sorted by (range, label) through keyed tuples, not a key lambda: a closure in compiled code is slow (mypyc);
    # the index keeps the sort's order for equal keys, as a stable sort by the key would
    keyed: list[tuple[int, str, int, Plasma]] = []
    for t in game.plasmas:
        if t.alive and t.target == ship.name and t.side != ship.side:
            keyed.append((distance(ship.hex, t.hex), t.label, len(keyed), t))
    keyed.sort()
    return [k[3] for k in keyed]


def threatened(game: Game, ship: Ship) -> list[Plasma]:
    """The torpedoes after ``ship`` when the modified rules apply (SFB.R.CLOAK2-4), else none."""
    return threats(game, ship) if cloak_rules_apply(game, ship) else []


def safe_speed(game: Game, ship: Ship, wanted: int) -> int:
    """SFB.R3.MAP: a faster speed can mean a larger turn mode; never take one that would leave the ship in a
    position from which it must run off the map. Slows down from ``wanted`` to its ordinary speed."""
    board = game.board
    for speed in range(wanted, ship.speed, -1):
        tm = ship.tm_table[speed]
        state = (ship.hex[0], ship.hex[1], ship.facing, min(tm, max(1, ship.straight)))
        if state in viable_states(board.cols, board.rows, tm):
            return speed
    return ship.speed


class CloakRules:
    """Part of the Robot (needs ``self.game``, ``self.ship``, ``self.n``): scenario #6 robot behaviour."""

    game: Game
    ship: Ship
    n: Numbers  # the procedure's numbers (sfb/procedure.py)

    # the Robot's (robot.py), which overrides them
    def recall(self, name: str) -> Any:
        raise NotImplementedError

    def note(self, name: str, value: Any) -> None:
        raise NotImplementedError

    def _safe(self, wanted: str, can_turn: bool) -> str:
        raise NotImplementedError

    def viable(self, steer: str, facing: int, dest: Hex) -> bool:
        """May the ship make this move and not be forced off the map (SFB.R3.MAP)? The veto passed to
        ``seek_choice`` and ``evade_choice`` (a bound method, not a closure: mypyc compiles these classes)."""
        return self.game.viable(self.ship, steer, facing, dest)

    # -------------------------------------------------------------------------- threats
    def cloak_rules_apply(self) -> bool:
        return cloak_rules_apply(self.game, self.ship)

    def threats(self) -> list[Plasma]:
        return threats(self.game, self.ship)

    def threatened(self) -> list[Plasma]:
        return threatened(self.game, self.ship)

    def plasma_launch(self) -> tuple[tuple[str, ...], list[Reason]]:
        """SFB.R8 / SFB.R.PLASMA: launch each armed tube on the first impulse the target is in its arc."""
        game, ship = self.game, self.ship
        target = game.enemy_of(ship)
        if target is None:
            return (), []
        keys: list[str] = []
        reasons: list[Reason] = []
        for w in game.launchable(ship):
            if game.sees(ship, w, target):
                keys.append(w.key)
                reasons.append(Reason("SFB.R8", f"turn {game.turn} is a torpedo turn (1, 4, 7, ...): launch {w.key} "
                                                f"at {target.name}, the first impulse it is in the launcher's arc"
                                                + self.n.n_plasma_first_turn + self.n.n_plasma_every))
        if keys:
            reasons.append(Reason("SFB.R.PLASMA", "the robot's torpedo needs no arming energy: it follows the "
                                                  "R8 cadence"))
        return tuple(keys), reasons

    # -------------------------------------------------------------------------- fire
    def uncloak_reason(self, target: Ship) -> Reason | None:
        """SFB.R.CLOAK1: impulse 1 of the turn the enemy uncloaks (it was cloaked last turn): fire at it."""
        cloak = getattr(target, "cloak", None)
        if (self.game.impulse == 1 and cloak is not None and cloak.was_cloaked and not cloak.cloaked
                and self.cloak_rules_apply()):
            return Reason("SFB.R.CLOAK1", f"{target.name} uncloaks: fire every weapon that bears on the first impulse")
        return None

    def focus_reasons(self, threats: list[Plasma]) -> list[Reason]:
        """SFB.R.CLOAK4, said once when a torpedo hunt starts and once when it ends (remembered on the ship)."""
        now = threats[0].label if threats else None
        focus = self.recall("focus")
        out: list[Reason] = []
        if now and focus is None:
            out.append(Reason("SFB.R.CLOAK4", f"torpedo {now} is after it: ignore every other target until it "
                                              f"strikes or is reduced to zero"))
        elif now is None and focus is not None:
            out.append(Reason("SFB.R.CLOAK4", f"torpedo {focus} has struck or fizzled: resume normal operation"))
        if now != focus:
            self.note("focus", now)
        return out

    def torpedo_fire(self) -> Decision | None:
        """SFB.R.CLOAK2/4: with a torpedo after it, phasers that bear fire at a torpedo within 2 hexes, and
        nothing fires at anything else. None = no torpedo: the normal rules apply."""
        threats = self.threatened()
        reasons = self.focus_reasons(threats)
        if not threats:
            return Decision((), tuple(reasons)) if reasons else None
        game, ship = self.game, self.ship
        shots: list[tuple[str, str]] = []
        reach = self.n.torpedo_range  # SFB.R.CLOAK2: phasers at a torpedo that has moved within two hexes
        for torp in threats:
            rng = distance(ship.hex, torp.hex)
            if not 1 <= rng <= reach:
                continue
            fired = []
            for w in ship.weapons:
                # the robot's phasers are reloaded each turn (SFB.R6): no capacitor to count
                if (w.kind == "phaser" and w.alive and all(k != w.key for k, _ in shots) and game.rate_ok(w)
                        and game.bears(ship, w, torp)):
                    shots.append((w.key, torp.label))
                    fired.append(w.key)
            if fired:
                reasons.append(Reason("SFB.R.CLOAK2", f"torpedo {torp.label} is {rng} hexes away: fire "
                                                      f"{', '.join(fired)} at it" + self.n.n_torpedo_range))
        return Decision(tuple(shots), tuple(reasons))

    # -------------------------------------------------------------------------- movement
    def evade_move(self, can_turn: bool) -> Decision | None:
        """SFB.R.CLOAK3: turn away from the nearest torpedo after it and run (None = no torpedo)."""
        threats = self.threatened()
        if not threats:
            return None
        ship = self.ship
        torp = threats[0]
        choice = evade_choice(ship.hex, ship.facing, can_turn, torp.hex, self.viable)
        steer = choice[0] if choice is not None else self._safe(STRAIGHT, can_turn)
        return Decision(steer, (Reason("SFB.R.CLOAK3", f"torpedo {torp.label} is {distance(ship.hex, torp.hex)} "
                                                       f"hexes away: turn away and run ({steer})"),))
