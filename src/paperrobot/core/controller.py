"""What a controller answers: a Decision (the answer) with its Reasons (rule ID, dice, sentence), so that
every robot action can be explained in the log and checked by tests. The protocol itself (requests, the
driver) is core/contract.py."""
from __future__ import annotations

from typing import Any

from .dice import Dice, Roll


class Reason:
    """Why a robot did something: the catalogue rule ID (e.g. "SFB.R3"), one sentence, the dice it rolled.

    A plain class with slots, not a frozen dataclass: a battle makes thousands, and the frozen dataclass's
    guarded __init__ cost is measurable in simulations. Treat it as immutable. ``Reason.later`` makes one whose
    sentence and dice are built when first read: a simulation reads none of its robots' reasons."""

    __slots__ = ("rule", "_text", "_rolls", "_later")

    # The defaults are for pickle only: compiled, a native class is unpickled through __init__ with no arguments.
    def __init__(self, rule: str = "", text: str = "", rolls: tuple[Roll, ...] = ()) -> None:
        self.rule = rule
        self._text = text
        self._rolls = rolls
        # set by Reason.later: (format, its values, the dice's record, first and end roll), built on first read
        self._later: tuple[str, tuple[Any, ...], list[Roll] | None, int, int] | None = None

    @staticmethod
    def later(rule: str, fmt: str, args: tuple[Any, ...] = (), dice: Dice | None = None, mark: int = 0) -> Reason:
        """Reason(rule, fmt.format(*args), the rolls made on ``dice`` since ``mark``), built when first read.
        The dice's record only grows, so the rolls from ``mark`` to its length now are this decision's."""
        reason = Reason(rule, "")
        reason._later = (fmt, args, None, 0, 0) if dice is None else (fmt, args, dice.rolls, mark, len(dice.rolls))
        return reason

    def _build(self, later: tuple[str, tuple[Any, ...], list[Roll] | None, int, int]) -> None:
        fmt, args, record, start, end = later
        self._text = fmt.format(*args)
        self._rolls = () if record is None else tuple(record[start:end])
        self._later = None

    @property
    def text(self) -> str:
        later = self._later
        if later is not None:
            self._build(later)
        return self._text

    @property
    def rolls(self) -> tuple[Roll, ...]:
        later = self._later
        if later is not None:
            self._build(later)
        return self._rolls

    def to_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "text": self.text, "rolls": [r.to_json() for r in self.rolls]}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Reason) and (self.rule, self.text, self.rolls) == (other.rule, other.text, other.rolls)

    def __hash__(self) -> int:
        return hash((self.rule, self.text, self.rolls))

    def __repr__(self) -> str:
        return f"Reason({self.rule!r}, {self.text!r}, {self.rolls!r})"


class Decision:
    """An answer and the reasons for it (a plain slots class for the same reason as Reason; immutable by use).

    ``memory``: what a robot's rules make it remember after this decision (e.g. the SFB robot's Primary Fire
    Point taken), as {name: value}. A controller never changes game state; the engine stores this with the
    rest of the state, so saves, copies and views carry it."""

    __slots__ = ("action", "reasons", "memory")

    # ``action``'s default is for pickle only, as Reason's are.
    def __init__(self, action: Any = None, reasons: tuple[Reason, ...] = (), memory: dict[str, Any] | None = None):
        self.action, self.reasons, self.memory = action, reasons, memory

    @property
    def rules(self) -> tuple[str, ...]:
        return tuple(r.rule for r in self.reasons)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Decision) and self.action == other.action and self.reasons == other.reasons

    __hash__ = None  # type: ignore[assignment]  # an action may be a dict

    def __repr__(self) -> str:
        return f"Decision({self.action!r}, {self.reasons!r})"
