"""The shape of the Cadet robot's procedure (data/robot_rules.toml) and its numbers as plain attributes.

``SPECS`` tells core/robot_rules.py what each entry of the file may hold (bounds); ``numbers(rules)`` reads a
loaded procedure once into a ``Numbers`` object: every entry an int; ``n_<entry>`` is "" for a published entry
and the variant's citation otherwise. The robot's hot path reads an attribute, never a name.

Left in code, with the reason (docs/robot-rules.md#sfb): the R3 coin toss (a fair choice between equal sides),
the tie-break by shields or coin (the set-up option ``tiebreak``, seed 000 against the CTH), the 1/4-turn firing
rate (E1.5, a rule of the game every ship obeys), the 60-degree turn (one hex side) and R.CLOAK3's ties.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ..core import robot_rules as rr
from ..core.robot_rules import Spec

TOP_SPEED = 16  # the Cadet game's top speed (16 impulses); a ship cannot move faster


def _number(rule: str, high: int, low: int = 0) -> Spec:
    return Spec("number", rule, low=low, high=high)


SPECS = {
    "speed": _number("SFB.R1", TOP_SPEED),
    "speed_8_impulses": _number("SFB.R1", 8),
    "speed_lost_per_warp_hit": _number("SFB.DMG3", TOP_SPEED),
    "primary_fire_range": _number("SFB.R2", 30),  # the longest range of a cadet weapon
    "drone_launch_impulse": _number("SFB.R5", TOP_SPEED, 1),
    "drones_per_turn": _number("SFB.R5", 6),
    "photon_tubes_per_shot": _number("SFB.R7", 8, 1),
    "plasma_first_turn": _number("SFB.R8", 100, 1),
    "plasma_every": _number("SFB.R8", 100, 1),
    "torpedo_range": _number("SFB.R.CLOAK2", 30),
    "evade_speed": _number("SFB.R.CLOAK3", TOP_SPEED),
}

PROCEDURE = rr.Procedure("sfb", "The Cadet robot opponent, seeds 000 and 002 (with seed 000's PLASMA and CLOAK)",
                         Path(__file__).parent / "data" / "robot_rules.toml", SPECS)


class Numbers:
    """One procedure's values as attributes named as its entries, plus ``n_<entry>`` notes and ``rules``."""

    __slots__ = ("rules", *SPECS, *(f"n_{name}" for name in SPECS))
    rules: rr.RobotRules
    # the entries' values and notes (set from SPECS by name below; declared for the type checker)
    speed: int
    speed_8_impulses: int
    speed_lost_per_warp_hit: int
    primary_fire_range: int
    drone_launch_impulse: int
    drones_per_turn: int
    photon_tubes_per_shot: int
    plasma_first_turn: int
    plasma_every: int
    torpedo_range: int
    evade_speed: int
    n_speed: str
    n_speed_8_impulses: str
    n_speed_lost_per_warp_hit: str
    n_primary_fire_range: str
    n_drone_launch_impulse: str
    n_drones_per_turn: str
    n_photon_tubes_per_shot: str
    n_plasma_first_turn: str
    n_plasma_every: str
    n_torpedo_range: str
    n_evade_speed: str

    def __init__(self, rules: rr.RobotRules):
        self.rules = rules
        for name in SPECS:
            setattr(self, name, rules.value(name))
            setattr(self, f"n_{name}", rules.note(name))

    def robot_speed(self, impulses: int, warp_lost: int) -> int:
        """SFB.R1 / SFB.DMG3: the robot's speed this turn (never above the scenario's top speed, never below 0)."""
        base = self.speed_8_impulses if impulses == 8 else self.speed
        return max(0, min(base, impulses) - self.speed_lost_per_warp_hit * warp_lost)

    def best_speed(self, impulses: int, warp_lost: int) -> int:
        """SFB.R.CLOAK3 "best speed": the evade speed (the scenario's top speed) less the warp damage (SFB.DMG3)."""
        return max(0, min(self.evade_speed, impulses) - self.speed_lost_per_warp_hit * warp_lost)

    def plasma_turn(self, turn: int) -> bool:
        """SFB.R8: the robot launches its torpedoes on turns 1, 4, 7, ... (first turn, then every third)."""
        return turn >= self.plasma_first_turn and (turn - self.plasma_first_turn) % self.plasma_every == 0

    def photons_per_turn(self, tubes: int) -> int:
        """SFB.R7 / SFB.R9: one photon a turn for each ``photon_tubes_per_shot`` tubes, at least one."""
        return max(1, tubes // self.photon_tubes_per_shot)


def load(value: str | Path | None = "") -> rr.RobotRules:
    """The checked procedure of a set-up value ("" published, a path, or a file's text)."""
    return published() if value is None or value == "" else rr.load(PROCEDURE, value)


@lru_cache(maxsize=1)
def published() -> rr.RobotRules:
    """The published procedure, read from its file once per process (every battle's engine asks for it)."""
    return rr.load(PROCEDURE, "")


@lru_cache(maxsize=32)
def numbers(rules: rr.RobotRules | None = None) -> Numbers:
    """The robot's numbers of ``rules`` (None: the published procedure), read once per procedure."""
    return Numbers(rules or published())
