"""Terms the Robot Rules use but do not define, made exact (docs/fc.md "Definitions").

centerline, heading for the centerline, closing course, approaching/pursuing, moving away, faster but
behind, down shield, facing a shield, FA/waist phasers. Each is a small pure function so tests pin it.
"""
from __future__ import annotations

from ..core.hexgrid import Hex, distance, facing_toward, in_arc, neighbour, shields_facing
from .arcs import arc_parts
from .state import Drone, Ship


def axis_offset(origin: Hex, facing: int, h: Hex) -> int:
    """Hexes between ``h`` and the straight hex row through ``origin`` along ``facing`` (both ways).

    A straight row keeps one cube coordinate constant: q for facings A/D, s for B/E, r for C/F.
    """
    dq, dr = h.q - origin.q, h.r - origin.r
    axis = facing % 3
    if axis == 0:
        return abs(dq)
    if axis == 1:
        return abs(dq + dr)
    return abs(dr)


def on_centerline(ship: Ship, h: Hex) -> bool:
    """The centerline of a ship: its own hex row straight ahead and straight astern (docs/fc.md#centerline)."""
    return axis_offset(ship.pos, ship.facing, h) == 0


def heading_for_centerline(robot: Ship, enemy: Ship) -> bool:
    """Moving straight ahead brings the robot onto, or nearer to, the enemy's centerline."""
    now = axis_offset(enemy.pos, enemy.facing, robot.pos)
    ahead = axis_offset(enemy.pos, enemy.facing, neighbour(robot.pos, robot.facing))
    return ahead < now or (ahead == 0 and now > 0)


def can_be_centerlined(enemy: Ship, h: Hex, turn_ok: bool) -> bool:
    """Could the enemy put ``h`` on its centerline by its next manoeuvre (a turn, if its turn mode allows)?"""
    if axis_offset(enemy.pos, enemy.facing, h) == 0:
        return True
    if turn_ok:
        return any(axis_offset(enemy.pos, (enemy.facing + t) % 6, h) == 0 for t in (-1, 1))
    return False


def in_fa(ship: Ship, h: Hex) -> bool:
    return in_arc(ship.pos, ship.facing, "FA", h)


def in_ra(ship: Ship, h: Hex) -> bool:
    return in_arc(ship.pos, ship.facing, "RA", h)


def closing_course(a: Ship, b: Ship) -> bool:
    """Each ship has the other in its FA arc: both are heading toward each other."""
    return in_fa(a, b.pos) and in_fa(b, a.pos)


def approaching(robot: Ship, enemy: Ship) -> bool:
    """The enemy is approaching or pursuing: the robot lies in the enemy's FA arc."""
    return in_fa(enemy, robot.pos)


def moving_away(robot: Ship, enemy: Ship) -> bool:
    """The enemy is moving away: the robot lies in the enemy's rear (RA) arc."""
    return in_ra(enemy, robot.pos) and not in_fa(enemy, robot.pos)


def faster(robot: Ship, enemy: Ship) -> bool:
    return robot.speed_now() > enemy.speed_now()


def faster_but_behind(robot: Ship, enemy: Ship) -> bool:
    """The robot is faster and astern of the enemy (in the enemy's RA arc)."""
    return faster(robot, enemy) and in_ra(enemy, robot.pos)


def shields_toward(ship: Ship, h: Hex) -> tuple[int, ...]:
    return shields_facing(ship.pos, ship.facing, h) or (1,)


def down_shield_toward(ship: Ship, h: Hex) -> bool:
    """A down shield (0 boxes, reduced by damage) faces ``h`` (either of two on a boundary)."""
    if 0 not in ship.shields:  # no down shield at all (most of a battle): no geometry to ask
        return False
    return any(ship.shields[n - 1] == 0 for n in shields_toward(ship, h))


def enemy_facing_shield(ship: Ship, enemy: Ship, shield: int) -> bool:
    """"The enemy ship is facing that shield": the enemy lies in the direction that shield covers."""
    return shield in shields_toward(ship, enemy.pos)


def direction_to(ship: Ship, h: Hex) -> int:
    found = facing_toward(ship.pos, h)
    return found[0] if found else ship.facing


def turn_toward(ship: Ship, h: Hex) -> str:
    """The one-hexside turn that brings ``h`` nearer the bow; dead astern turns right."""
    diff = (direction_to(ship, h) - ship.facing) % 6
    return "turn-left" if diff in (4, 5) else "turn-right"


# Each manoeuvre as (hexside stepped through, new facing), both relative to the facing (None: no step);
# an HET's facing is absolute. The robot asks where a move leaves it several times a decision.
_STEPS: dict[str, tuple[int | None, int, bool]] = {
    "straight": (0, 0, False), "turn-left": (-1, -1, False), "turn-right": (1, 1, False),
    "slip-left": (-1, 0, False), "slip-right": (1, 0, False), "pivot-left": (None, -1, False),
    "pivot-right": (None, 1, False), "decel": (None, 0, False),
    **{f"het-{letter}": (0, f, True) for f, letter in enumerate("ABCDEF")},
}


def after_move(ship: Ship, move: str) -> tuple[Hex, int]:
    """Where a manoeuvre would leave the ship: (hex, facing). Anything else stays put (as decel)."""
    pos, facing = ship.pos, ship.facing
    step = _STEPS.get(move)
    if step is None:
        return pos, facing
    side, turn, het = step
    if het:
        return neighbour(pos, turn), turn
    if side is None:
        return pos, (facing + turn) % 6
    return neighbour(pos, facing + side), (facing + turn) % 6


def exposes_down_shield(ship: Ship, move: str, enemy_pos: Hex) -> bool:
    """Would this manoeuvre leave a down shield facing the enemy (FC.3.SHIELD)?"""
    if 0 not in ship.shields:
        return False
    pos, facing = after_move(ship, move)
    found = shields_facing(pos, facing, enemy_pos) or (1,)
    return any(ship.shields[n - 1] == 0 for n in found)


def slip_relative(ship: Ship, h: Hex, toward: bool) -> str:
    """The sideslip toward (or away from) ``h``: the slip hex nearer (farther); ties go by the side ``h`` is on."""
    left = distance(neighbour(ship.pos, ship.facing - 1), h)
    right = distance(neighbour(ship.pos, ship.facing + 1), h)
    if left == right:
        on_left = in_arc(ship.pos, ship.facing, "LS", h) and not in_arc(ship.pos, ship.facing, "RS", h)
        return ("slip-left" if on_left else "slip-right") if toward else ("slip-right" if on_left else "slip-left")
    nearer = "slip-left" if left < right else "slip-right"
    farther = "slip-right" if nearer == "slip-left" else "slip-left"
    return nearer if toward else farther


def away_from_centerline(ship: Ship, enemy: Ship, moves: tuple[str, str]) -> str:
    """Of two manoeuvres, the one leaving the ship farther from the enemy's centerline (first on a tie)."""
    a = axis_offset(enemy.pos, enemy.facing, after_move(ship, moves[0])[0])
    b = axis_offset(enemy.pos, enemy.facing, after_move(ship, moves[1])[0])
    return moves[1] if b > a else moves[0]


def approaching_drone(ship: Ship, drone: Drone) -> bool:
    """An enemy drone seeking this ship and still in flight (not held, not yet impacting)."""
    return drone.alive and drone.target == ship.side and not drone.held_by and not drone.impacting


def arc_width(arc: str) -> int:
    return len(arc_parts(arc))


def is_fa_weapon(arc: str) -> bool:
    """An "FA phaser": its arc covers the whole forward 120 degrees."""
    parts = arc_parts(arc)
    return "LF" in parts and "RF" in parts


def is_waist_or_rear(arc: str) -> bool:
    """A waist or rear phaser: no forward 60-degree sector in its arc."""
    parts = arc_parts(arc)
    return "LF" not in parts and "RF" not in parts


def rng(a: Ship, b: Ship) -> int:
    return distance(a.pos, b.pos)
