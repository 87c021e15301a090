"""The shape of the FC robot's procedure (data/robot_rules.toml) and its numbers as plain attributes.

``SPECS`` tells core/robot_rules.py what each entry of the file may hold (the results the robot's logic knows,
bounds); ``numbers(rules)`` reads a loaded procedure once into a ``Numbers`` object: a table becomes a tuple
indexed by the roll, a threshold or a number an int, an order a tuple; ``n_<entry>`` is "" for a published entry
and the variant's citation otherwise. The robot's hot path reads an attribute and an index, never a name.

Left in code, with the reason (docs/robot-rules.md#fc): the coin flips among equal choices (FC.3.SHIELD's "roll
again until you select one", FC.4A's tie, FC.DAC.PHASER's last step), facts of the game rather than of the robot
(eight impulses, so FC.5B's last impulse; drones moving three hexes an impulse), and FC.5C's note on range 1.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ..core import robot_rules as rr
from ..core.robot_rules import Spec
from .answers import DEFENCE_STEPS

FIRE = ("phaser-1", "disruptor", "phaser-2", "phaser-3")


def _table(rule: str, *results, die: str = "d6") -> Spec:
    return Spec("table", rule, die, results=results)


def _count(rule: str, high: int = 6) -> Spec:  # a table of drones launched
    return Spec("table", rule, "d6", results=int, low=0, high=high)


def _number(rule: str, high: int = 40, low: int = 0) -> Spec:
    return Spec("number", rule, low=low, high=high)


SPECS = {
    "baseline_speed": Spec("table", "FC.1A", "2d6", results=(8, 16, 24)),
    "regeneration": _table("FC.1B", "weakest", "facing", "none"),
    "regeneration_boxes": _number("FC.1B", 6),
    "held_drone": _table("FC.1C", "release", "release-unless-enemy-near", "hold"),
    "held_drone_near": _number("FC.1C"),
    "acceleration": _table("FC.2", "accelerate", "accelerate-if-fired-and-rear", "continue", die="2d6"),
    "drone_wave_size": _number("FC.3B0", 60, 1),
    "drone_wave_one_shield": _number("FC.3B0", 60, 1),
    "drone_wave_range": _number("FC.3B0", 12, 1),
    "drone_wave_evasion": _table("FC.3B0", "sideslip", "go-on"),
    "drone_wave_adjacent": _number("FC.3B0", 60, 1),
    "drone_wave_evasion_adjacent": _table("FC.3B0", "sideslip", "go-on"),
    "het_range": _number("FC.3B1AX"),
    "het": Spec("threshold", "FC.3B1AX", "d6"),
    "het_with_overloads": Spec("threshold", "FC.3B1AX", "d6"),
    "enemy_in_fa": _table("FC.3B1B", "slip-toward", "straight", "slip-away"),
    "disruptors_fired": _table("FC.3B2", "straight", "turn-away"),
    "keep_in_arc_range": _number("FC.3.ARC"),
    "defence_penetrating": Spec("table", "FC.4B", "d6", vocabulary=DEFENCE_STEPS),
    "defence_not_penetrating": Spec("table", "FC.4C", "d6", vocabulary=DEFENCE_STEPS),
    "reinforce_penetrating": _table("FC.4D1", "reinforce", "reinforce-if-enemy-faces", "none"),
    "reinforce_not_penetrating": _table("FC.4D2", "reinforce", "reinforce-if-enemy-faces", "none"),
    "drone_close": _number("FC.5A", 2),
    "drone_close_fire": _table("FC.5A", "phaser-3-else-any-as-3", "phaser-3-else-idle-as-3", "phaser-3",
                               "if-weak-shield"),
    "drone_weak_shield": _number("FC.5A", 60),
    "drone_near": _number("FC.5A1", 2),  # drones within two hexes are the ones the fire step looks at
    "drone_near_enemy_far": _number("FC.5A1"),
    "drone_near_fire": Spec("table", "FC.5A1", "d6", vocabulary=("phaser-1", "phaser-2")),
    "fire_range_close": _number("FC.5C"),
    "fire_close": Spec("table", "FC.5C", "d6", vocabulary=FIRE),
    "fire_range_mid": _number("FC.5D"),
    "fire_mid_hold_speeds": Spec("set", "FC.5D", high=24),
    "fire_mid": _table("FC.5D", "everything", "phasers", "phaser-1", "none"),
    "fire_range_far": _number("FC.5E"),
    "fire_far": _table("FC.5E", "phasers-and-disruptors", "phasers", "none"),
    "reinforce_after_hit": _table("FC.5F", "all", "half", "none", die="2d6"),
    "launch_closing_range": _number("FC.6A"),
    "launch_closing": _count("FC.6A"),
    "launch_closing_last_impulse": _number("FC.6A", 6),
    "launch_reroll_racks": _number("FC.6A", 12),
    "launch_away_range": _number("FC.6B"),
    "launch_away_speed": _number("FC.6B", 32),
    "launch_away": _count("FC.6B"),
    "launch_far_range": _number("FC.6C"),
    "launch_far": _count("FC.6C"),
    "launch_far_last_impulse": _number("FC.6C", 6),
    "launch_counter_drones": _number("FC.6D", 60),
    "launch_counter_range": _number("FC.6D"),
    "launch_counter": _count("FC.6D"),
    "launch_other": _count("FC.6E", 1),  # "launch drone": one, at the nearest target
    "repair_steps": Spec("order", "FC.7B", vocabulary=("control", "tractor", "phaser-arcs", "batteries", "reloads",
                                                      "transporter", "weapons-and-power", "rotation", "probe")),
    "repair_phaser_preference": Spec("order", "FC.7B", vocabulary=("phaser-1", "phaser-2", "phaser-3")),
    "repair_weapons": Spec("order", "FC.7B", vocabulary=("phaser-1", "disruptor", "phaser-2")),
    "repair_power": Spec("order", "FC.7B", vocabulary=("warp", "impulse", "reactor")),
    "repair_rotation": Spec("order", "FC.7B", vocabulary=("tractor", "lab", "control", "hull", "transporter",
                                                         "cargo")),
    "transfer_weak": _number("FC.7C", 30),
    "transfer_strong": _number("FC.7C", 60),
    "transfer": Spec("threshold", "FC.7C", "d6"),
    "transfer_boxes": _number("FC.7C", 30, 1),
    "transfer_pairing": Spec("threshold", "FC.7C", "d6"),
}


def _cross(rules: rr.RobotRules) -> str:
    """Checks across entries: the fire steps' range bands rise (5C within 5D within 5E); 6C starts beyond 6A."""
    close, mid, far = (rules.value(n) for n in ("fire_range_close", "fire_range_mid", "fire_range_far"))
    if not close < mid < far:
        return (f"entries fire_range_close, fire_range_mid, fire_range_far (FC.5C-5E) must rise: the 5D band starts "
                f"after 5C's and 5E's after 5D's (got {close}, {mid}, {far})")
    if not rules.value("launch_closing_range") < rules.value("launch_far_range"):
        return "entry launch_far_range (FC.6C) must be greater than launch_closing_range (FC.6A): 6C starts beyond 6A"
    return ""


PROCEDURE = rr.Procedure("fc", "Robot Rules for Federation Commander, seed 001 Rev-6",
                         Path(__file__).parent / "data" / "robot_rules.toml", SPECS, _cross)


class Numbers(rr.Numbers):
    """One procedure's values as attributes named as its entries, plus ``n_<entry>`` notes and ``rules``
    (core/robot_rules.py, Numbers)."""

    __slots__ = rr.number_slots(SPECS)
    SPECS = SPECS


def load(value: str | Path | None = "") -> rr.RobotRules:
    return rr.load(PROCEDURE, value)


@lru_cache(maxsize=32)
def numbers(rules: rr.RobotRules | None = None) -> Numbers:
    """The robot's numbers of ``rules`` (None: the published procedure), read once per procedure."""
    return Numbers(rules or load(""))
