"""The FC robot's declared fields and its dice: the base of the chain ``Robot(MovementSteps(FireSteps(RobotBase)))``
(robot.py, robot_movement.py, robot_fire.py; the order the mixins had, so every method resolves as before), which
mypyc compiles into one native class (docs/speed.md, "Compiled, fourth step")."""
from __future__ import annotations

from typing import Any, Callable, Final

from ..core.controller import Decision, Reason
from ..core.dice import Dice

_PAIRS: Final[dict[str, tuple[str, str]]] = {}  # roll2's purposes -> the two dice's purposes


class RobotBase:
    """What every step of the robot reads (set in robot.Robot.__init__)."""

    dice: Dice  # the game's dice (one source of chance)
    n: Any  # the procedure's numbers (fc/procedure.py's Numbers: attributes named as its entries)
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
