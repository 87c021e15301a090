"""The FC robot's declared fields and its dice: the base of the chain ``Robot(MovementSteps(FireSteps(RobotBase)))``
(robot.py, robot_movement.py, robot_fire.py; the order the mixins had, so every method resolves as before), which
mypyc compiles into one native class (docs/speed.md, "Compiled, fourth step")."""
from __future__ import annotations

from typing import Any, Callable, Final

from ..core.controller import Decision, Reason
from ..core.dice import Dice

_PAIRS: Final[dict[str, tuple[str, str]]] = {}  # roll2's purposes -> the two dice's purposes


class Nums:
    """A procedure's numbers (fc/procedure.py's Numbers) as a native class: its attributes are the Numbers' slots
    (``rules``, each entry, each ``n_<entry>`` note), copied once per procedure (robot.py, _native). Compiled, the
    robot's steps read an entry of ``self.n`` from the object's own struct; the Numbers are a Python class with
    slots, whose every attribute is read by name (a type lookup and a descriptor call), a few hundred times a
    simulation. The entries are typed Any, as read from the Numbers (a table a tuple or a mapping, a number an int
    or a float); tests/fc checks the two carry the same values."""

    rules: Any
    baseline_speed: Any
    regeneration: Any
    regeneration_boxes: Any
    held_drone: Any
    held_drone_near: Any
    acceleration: Any
    drone_wave_size: Any
    drone_wave_one_shield: Any
    drone_wave_range: Any
    drone_wave_evasion: Any
    drone_wave_adjacent: Any
    drone_wave_evasion_adjacent: Any
    het_range: Any
    het: Any
    het_with_overloads: Any
    enemy_in_fa: Any
    disruptors_fired: Any
    keep_in_arc_range: Any
    defence_penetrating: Any
    defence_not_penetrating: Any
    reinforce_penetrating: Any
    reinforce_not_penetrating: Any
    drone_close: Any
    drone_close_fire: Any
    drone_weak_shield: Any
    drone_near: Any
    drone_near_enemy_far: Any
    drone_near_fire: Any
    fire_range_close: Any
    fire_close: Any
    fire_range_mid: Any
    fire_mid_hold_speeds: Any
    fire_mid: Any
    fire_range_far: Any
    fire_far: Any
    reinforce_after_hit: Any
    launch_closing_range: Any
    launch_closing: Any
    launch_closing_last_impulse: Any
    launch_reroll_racks: Any
    launch_away_range: Any
    launch_away_speed: Any
    launch_away: Any
    launch_far_range: Any
    launch_far: Any
    launch_far_last_impulse: Any
    launch_counter_drones: Any
    launch_counter_range: Any
    launch_counter: Any
    launch_other: Any
    repair_steps: Any
    repair_phaser_preference: Any
    repair_weapons: Any
    repair_power: Any
    repair_rotation: Any
    transfer_weak: Any
    transfer_strong: Any
    transfer: Any
    transfer_boxes: Any
    transfer_pairing: Any
    n_baseline_speed: str
    n_regeneration: str
    n_regeneration_boxes: str
    n_held_drone: str
    n_held_drone_near: str
    n_acceleration: str
    n_drone_wave_size: str
    n_drone_wave_one_shield: str
    n_drone_wave_range: str
    n_drone_wave_evasion: str
    n_drone_wave_adjacent: str
    n_drone_wave_evasion_adjacent: str
    n_het_range: str
    n_het: str
    n_het_with_overloads: str
    n_enemy_in_fa: str
    n_disruptors_fired: str
    n_keep_in_arc_range: str
    n_defence_penetrating: str
    n_defence_not_penetrating: str
    n_reinforce_penetrating: str
    n_reinforce_not_penetrating: str
    n_drone_close: str
    n_drone_close_fire: str
    n_drone_weak_shield: str
    n_drone_near: str
    n_drone_near_enemy_far: str
    n_drone_near_fire: str
    n_fire_range_close: str
    n_fire_close: str
    n_fire_range_mid: str
    n_fire_mid_hold_speeds: str
    n_fire_mid: str
    n_fire_range_far: str
    n_fire_far: str
    n_reinforce_after_hit: str
    n_launch_closing_range: str
    n_launch_closing: str
    n_launch_closing_last_impulse: str
    n_launch_reroll_racks: str
    n_launch_away_range: str
    n_launch_away_speed: str
    n_launch_away: str
    n_launch_far_range: str
    n_launch_far: str
    n_launch_far_last_impulse: str
    n_launch_counter_drones: str
    n_launch_counter_range: str
    n_launch_counter: str
    n_launch_other: str
    n_repair_steps: str
    n_repair_phaser_preference: str
    n_repair_weapons: str
    n_repair_power: str
    n_repair_rotation: str
    n_transfer_weak: str
    n_transfer_strong: str
    n_transfer: str
    n_transfer_boxes: str
    n_transfer_pairing: str


class RobotBase:
    """What every step of the robot reads (set in robot.Robot.__init__)."""

    dice: Dice  # the game's dice (one source of chance)
    n: Nums  # the procedure's numbers (fc/procedure.py's Numbers, copied into a native Nums: robot._native)
    purposes: tuple[str, ...]  # the fire and launch dice's purposes, as published
    hold_5d: Reason
    steps: dict[str, Callable[..., Decision]]  # request kind -> the class's do_<kind> function (robot.py)

    def d6(self, purpose: str, side: str) -> int:
        return self.dice.roll(6, purpose, side)  # Dice.d6 without its own call

    def roll2(self, purpose: str, side: str) -> int:
        """2d6; each die's purpose is ``purpose`` and "(1 of 2)" / "(2 of 2)", joined once per purpose."""
        pair = _PAIRS.get(purpose)
        if pair is None:
            pair = _PAIRS[purpose] = (purpose + " (1 of 2)", purpose + " (2 of 2)")
        roll = self.dice.roll
        return roll(6, pair[0], side) + roll(6, pair[1], side)
