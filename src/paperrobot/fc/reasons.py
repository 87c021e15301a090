"""The FC robot's reasons: the fixed ones, built once, and ``why`` for the rest.

A simulation makes hundreds of robot decisions a battle and reads none of their reasons (the event log is
off); the log, the narration and the tests read them. ``why`` makes a core Reason whose sentence and dice are
built on first read (``Reason.later``): the same sentence and dice as the eager Reason, so logs and narration
are unchanged.
"""
from __future__ import annotations

from typing import Any

from ..core.controller import Reason
from ..core.dice import Dice


def why(rule: str, fmt: str, args: tuple[Any, ...] = (), dice: Dice | None = None, mark: int = 0) -> Reason:
    """Reason(rule, fmt.format(*args), the rolls made on ``dice`` since ``mark``), built when first read."""
    return Reason.later(rule, fmt, args, dice, mark)


# ------------------------------------------------------------------------------- the robot's fixed reasons
R = Reason  # built at once: the constants below and the rarer steps; why() builds its sentence when read
NO_POWER = R("FC.GEN.POWER", "not enough energy for that speed: do as much as power allows")
NO_TURN = R("FC.3A", "turn mode not satisfied: move straight or sideslip")
NO_TURN_TO_FA = R("FC.3B1A", "enemy not in FA arc but no turn allowed: straight")
TURN_TO_FA = {t: R("FC.3B1A", f"disruptors unfired, enemy not in FA arc: {t} to bring it into FA (or FX)")
              for t in ("turn-left", "turn-right")}
CENTERLINED_ANYWAY = R("FC.2.CENTERLINE", "about to enter the enemy centerline, but the enemy can centerline the "
                                          "robot anyway: move on")
HOLD_5D = R("FC.5D", "special: faster but behind, or closing at 8/16: hold fire until closer")
HOLD_5E = R("FC.5E", "special: faster but behind, or on a closing course: hold fire until closer")
RANGE_1_AS_PH3 = R("FC.5C", "range 1 with one point of power: fire two phasers as phaser-3s")
NO_FIRE_STEP = (R("FC.5C", "no enemy drone near and no fire step ordered fire"),)
FIRE_5C = {("phaser-1", "disruptor", "phaser-2", "phaser-3"): "d6={}: fire everything",  # the published bands' words
           ("phaser-1", "disruptor", "phaser-2"): "d6={}: Ph-1s, disruptors, Ph-2s; no Ph-3s",
           ("phaser-1", "phaser-2"): "d6={}: Ph-1s and Ph-2s; no disruptors, no Ph-3s"}
NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
