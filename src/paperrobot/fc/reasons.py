"""The robot's reasons, put into words only when read.

A simulation makes hundreds of robot decisions a battle and reads none of their reasons (the event log is
off); the log, the narration and the tests read them. ``Why`` is a core Reason whose sentence and dice are
built on first read, from a ``str.format`` template and its values and from the dice's record: the same
sentence and dice as the eager Reason, so logs and narration are unchanged.
"""
from __future__ import annotations

from ..core.controller import Reason

_TEXT, _ROLLS = Reason.text, Reason.rolls  # core's slots: where the built sentence and dice are kept


class Why(Reason):
    """Reason(rule, fmt.format(*args), the rolls made since ``mark`` on ``dice``), built when first read.
    ``dice`` None: no dice. The dice's record only grows, so the rolls from ``mark`` to the count when made
    are the ones rolled for this decision."""

    __slots__ = ("_fmt", "_args", "_record", "_span")

    def __init__(self, rule: str, fmt: str, args: tuple = (), dice=None, mark: int = 0):
        self.rule = rule
        self._fmt, self._args = fmt, args
        if dice is None:
            self._record = None
            _ROLLS.__set__(self, ())
        else:
            self._record = dice.rolls
            self._span = (mark, len(self._record))

    @property
    def text(self) -> str:
        if self._fmt is not None:
            _TEXT.__set__(self, self._fmt.format(*self._args))
            self._fmt = self._args = None
        return _TEXT.__get__(self)

    @property
    def rolls(self) -> tuple:
        if self._record is not None:
            start, end = self._span
            _ROLLS.__set__(self, tuple(self._record[start:end]))
            self._record = None
        return _ROLLS.__get__(self)


# ------------------------------------------------------------------------------- the robot's fixed reasons
R = Reason  # built at once: the constants below and the rarer steps; Why (reasons.py) is built when read
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
