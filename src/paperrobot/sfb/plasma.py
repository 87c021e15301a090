"""Plasma torpedoes (seed 004 FP1-FP4): types as data, the arming state machine, launch geometry,
warhead strength at impact, feedback and the destroyed-tube window.

The types' data file is read by plasma_data.py (pydantic models, kept apart so that this module compiles with mypyc:
docs/speed.md). Pure rules with no engine state: the game keeps one ``PlasmaTube`` per launcher and one ``Plasma`` per
torpedo in flight and asks these functions what is legal. Interpretations are in
docs/sfb-plasma-cloak.md; the section names are cited where the code depends on them.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import IllegalAction
from ..core.hexgrid import BASIC_ARCS, Hex, arc_parts, distance, in_arc, neighbour

# Arming states of a tube, as they stand after the current turn's energy allocation (SFB.PLASMA.ARM).
EMPTY, FIRST, SECOND, ARMED, HELD = 0, 1, 2, 3, 4
STATE_NAMES = ("empty", "first arming turn paid", "second arming turn paid", "armed", "armed (held)")


# ----------------------------------------------------------------------------------- types

@dataclass(frozen=True, slots=True)
class PlasmaType:
    """One plasma type, flattened for the hot path: ``warhead[d]`` is the strength after ``d`` hexes."""

    name: str  # "S", "G", "F"
    weapon: str  # weapon type on the ship sheet, e.g. "plasma-s"
    arming: tuple[int, int, int]
    hold: int
    starts_armed: bool
    warhead: tuple[int, ...]
    source: str

    @property
    def endurance(self) -> int:
        """Hexes it can travel (FP1.4: 25 for type S); after that it has fizzled."""
        return len(self.warhead) - 1


# ----------------------------------------------------------------------------------- arming

@dataclass(slots=True)
class PlasmaTube:
    """One launch tube ("TORP" box, FP1.11) and the torpedo it is arming or holding."""

    key: str  # e.g. "plasma-s-A"
    ptype: PlasmaType
    state: int = EMPTY
    alive: bool = True
    lost_at: int = -1  # absolute impulse the tube was destroyed while armed (FP1.7), else -1

    @classmethod
    def start(cls, key: str, ptype: PlasmaType) -> "PlasmaTube":
        """FP1.23: tubes start empty, except type F (seed), which starts armed and held."""
        return cls(key, ptype, HELD if ptype.starts_armed else EMPTY)

    @property
    def armed(self) -> bool:
        return self.state in (ARMED, HELD)

    def legal_points(self) -> tuple[int, ...]:
        """The energy amounts the next allocation may give this tube (0 first)."""
        return legal_points(self.ptype, self.state) if self.alive else (0,)

    def allocate(self, points: int) -> str:
        """Apply this turn's arming energy; returns what happened ("", "started", "lost", "ejected", ...)."""
        if not self.alive:
            if points:
                raise IllegalAction(f"{self.key} is destroyed and takes no energy", "SFB.PLASMA.TUBE")
            return ""
        self.state, what = next_state(self.ptype, self.state, points, self.key)
        return what

    def launchable(self, now: int, impulses: int) -> bool:
        """Can its torpedo be launched in the launch step of absolute impulse ``now``?"""
        if self.alive:
            return self.armed
        return self.lost_at >= 0 and now <= tube_deadline(self.lost_at, impulses)

    def launch(self) -> None:
        self.state, self.lost_at = EMPTY, -1

    def destroy(self, now: int) -> None:
        """The tube box is destroyed at absolute impulse ``now`` (SFB.PLASMA.TUBE)."""
        self.lost_at = now if (self.alive and self.armed) else -1
        self.alive, self.state = False, EMPTY

    def expire(self, now: int, impulses: int) -> bool:
        """End of the destroyed-tube window: True (once) when a torpedo still in it is lost now."""
        if self.lost_at >= 0 and now > tube_deadline(self.lost_at, impulses):
            self.lost_at = -1
            return True
        return False


def legal_points(ptype: PlasmaType, state: int) -> tuple[int, ...]:
    first, second, third = ptype.arming
    if state == EMPTY:
        return (0, first)
    if state == FIRST:
        return (0, second)
    if state == SECOND:
        return (0, second, third)  # second amount again = the rolling delay
    return (0, ptype.hold) if ptype.hold else (0,)


def next_state(ptype: PlasmaType, state: int, points: int, key: str = "plasma") -> tuple[int, str]:
    """The arming state after this turn's allocation of ``points`` to a tube that was in ``state``.

    FP1.21-FP1.22: exact payments on three consecutive turns; a missed payment loses the energy paid so
    far; paying only the second amount on the third turn is the rolling delay (the first turn's energy is
    lost, the cycle continues one turn later); an armed torpedo not launched must be held (hold cost) or
    is ejected. A type with hold cost 0 (seed plasma-F) stays held for free.
    """
    first, second, third = ptype.arming
    if points not in legal_points(ptype, state):
        allowed = " or ".join(str(p) for p in legal_points(ptype, state))
        raise IllegalAction(f"{key} ({STATE_NAMES[state]}) takes exactly {allowed} energy this turn, not {points}"
                            f" (plasma-{ptype.name} arms {first},{second},{third}, hold {ptype.hold})",
                            "SFB.PLASMA.ARM")
    if state == EMPTY:
        return (FIRST, "started") if points else (EMPTY, "")
    if state == FIRST:
        return (SECOND, "second") if points else (EMPTY, "lost")
    if state == SECOND:
        if points == third:
            return ARMED, "armed"
        return (SECOND, "rolling delay") if points else (EMPTY, "lost")
    # ARMED or HELD and not launched last turn: hold it or eject it.
    if points or ptype.hold == 0:
        return HELD, "held"
    return EMPTY, "ejected"


def default_points(ptype: PlasmaType, state: int) -> int:
    """What a sensible engineer pays: keep arming, and hold an armed torpedo."""
    first, second, third = ptype.arming
    return {EMPTY: first, FIRST: second, SECOND: third}.get(state, ptype.hold)


# ----------------------------------------------------------------------------------- launching

def is_fixed(arc: str) -> bool:
    """SFB.PLASMA.LAUNCH, FP3.1: a launcher whose arc is FA is fixed (launches straight ahead); any other arc is a swivel
    mount (FP3.2). Docs "Fixed and swivel launchers"."""
    return arc.upper() == "FA"


def launch_facings(arc: str, ship_facing: int) -> tuple[int, ...]:
    """Directions a torpedo may be launched in: straight ahead for a fixed launcher; for a swivel mount the
    bounding rows of its arcs (FP3.2: LF+L launches in directions 1, 5, 6; RF+R in 1, 2, 3)."""
    if is_fixed(arc):
        return (ship_facing % 6,)
    dirs: list[int] = []
    for part in arc_parts(arc):
        for rel in BASIC_ARCS[part]:
            d = (ship_facing + rel) % 6
            if d not in dirs:
                dirs.append(d)
    # sorted by _deviation through keyed tuples (a key lambda is a closure, slow compiled); the keys differ
    keyed = [(_deviation(d, ship_facing), d) for d in dirs]
    keyed.sort()
    return tuple([d for _, d in keyed])


def _deviation(direction: int, facing: int) -> tuple[int, int]:
    """Sort key: 60-degree steps away from the heading, then right (clockwise) before left."""
    rel = (direction - facing) % 6
    return (rel, 0) if rel <= 3 else (6 - rel, 1)


def can_target(arc: str, ship_hex: Hex, ship_facing: int, target: Hex) -> bool:
    """FP3.1: a fixed launcher only sees targets in the ship's FA; a swivel tracks targets in its arcs."""
    return in_arc(ship_hex, ship_facing, "FA" if is_fixed(arc) else arc, target)


def launch_facing(arc: str, ship_hex: Hex, ship_facing: int, target: Hex) -> int:
    """The launch direction: the allowed direction whose first (straight, FP1.3) hex is nearest the target;
    ties go to the direction nearest the ship's heading, then clockwise (docs "Swivel launch direction")."""
    best, best_range = -1, 0
    for d in launch_facings(arc, ship_facing):  # the first of the nearest (as min() with a key)
        rng = distance(neighbour(ship_hex, d), target)
        if best < 0 or rng < best_range:
            best, best_range = d, rng
    return best


# ----------------------------------------------------------------------------------- in flight

def speed(impulses: int) -> int:
    """SFB.PLASMA.MOVE (FP1.4): plasma moves at the scenario's maximum speed, 8, 16 or 32, which is the
    number of impulses per turn: it moves on every impulse."""
    return impulses


def must_go_straight(moves: int) -> bool:
    """SFB.PLASMA.LAUNCH (FP1.3): the torpedo moves directly forward on its first impulse, then seeks."""
    return moves == 0


@dataclass(slots=True)
class Plasma:
    """A plasma torpedo in flight: a seeking weapon that outlives its launcher (FP4.0)."""

    label: str
    side: str
    owner: str
    target: str
    ptype: PlasmaType
    hex: Hex
    facing: int
    prev_hex: Hex
    launched_at: int  # absolute impulse of launch
    moves: int = 0  # hexes travelled (the warhead chart's distance)
    phaser: int = 0  # phaser damage points taken, cumulative (FP1.6)
    feedback: bool = False  # launched in its target's hex and neither has left it yet (FP1.8)
    alive: bool = True

    @property
    def strength(self) -> int:
        return strength(self.ptype, self.moves, self.phaser)


def strength(ptype: PlasmaType, travelled: int, phaser_points: int = 0) -> int:
    """SFB.PLASMA.STRENGTH: the chart value for the distance travelled, less 1 per 2 phaser points taken
    (cumulative over all volleys; docs "Phaser damage to plasma"); 0 once past its endurance."""
    if travelled > ptype.endurance:
        return 0
    return max(0, ptype.warhead[travelled] - phaser_points // 2)


def fizzled(torpedo: Plasma) -> bool:
    """Reduced to zero by phasers and/or range (R.CLOAK4 wording), or it has used up its endurance."""
    return torpedo.strength <= 0 or torpedo.moves >= torpedo.ptype.endurance


def feedback(warhead: int) -> int:
    """SFB.PLASMA.FEEDBACK: 25% of the warhead, fractions below .5 dropped, .5 and above raised."""
    return (warhead + 2) // 4


def tube_deadline(lost_at: int, impulses: int) -> int:
    """SFB.PLASMA.TUBE: a torpedo whose armed tube was destroyed at absolute impulse ``lost_at`` may be
    launched up to and including absolute impulse ``lost_at + impulses // 4`` (the next 1/4 turn)."""
    return lost_at + impulses // 4
