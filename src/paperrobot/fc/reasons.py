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
