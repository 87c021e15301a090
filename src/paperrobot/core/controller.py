"""The controller protocol: the engine asks, a controller decides, the engine validates.

Robots, a person at the terminal, heuristic player policies and scripted test controllers all
implement ``decide``. A decision carries its reasons (rule ID, dice, sentence) so that every robot
action can be explained in the log and checked by tests.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from .dice import Roll
from .errors import SaveError


class Reason:
    """Why a robot did something: the catalogue rule ID (e.g. "SFB.R3"), one sentence, the dice it rolled.

    A plain class with slots, not a frozen dataclass: a battle makes thousands, and the frozen
    dataclass's guarded __init__ cost is measurable in simulations. Treat it as immutable."""

    __slots__ = ("rule", "text", "rolls")

    def __init__(self, rule: str, text: str, rolls: tuple[Roll, ...] = ()):
        self.rule, self.text, self.rolls = rule, text, rolls

    def to_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "text": self.text, "rolls": [r.to_json() for r in self.rolls]}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Reason) and (self.rule, self.text, self.rolls) == (other.rule, other.text, other.rolls)

    def __hash__(self) -> int:
        return hash((self.rule, self.text, self.rolls))

    def __repr__(self) -> str:
        return f"Reason({self.rule!r}, {self.text!r}, {self.rolls!r})"


@dataclass(frozen=True, slots=True)
class Request:
    """A decision point: what is asked (``kind``), of whom, with a read-only view and the legal options."""

    kind: str
    side: str
    view: Any = None
    options: Any = None


class Decision:
    """An answer and the reasons for it (a plain slots class for the same reason as Reason; immutable by use)."""

    __slots__ = ("action", "reasons")

    def __init__(self, action: Any, reasons: tuple[Reason, ...] = ()):
        self.action, self.reasons = action, reasons

    @property
    def rules(self) -> tuple[str, ...]:
        return tuple(r.rule for r in self.reasons)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Decision) and self.action == other.action and self.reasons == other.reasons

    __hash__ = None  # an action may be a dict

    def __repr__(self) -> str:
        return f"Decision({self.action!r}, {self.reasons!r})"


class Controller(Protocol):
    def decide(self, request: Request) -> Decision: ...


Encoder = Callable[[str, Any], Any]  # (request kind, action) -> JSON-able value
Decoder = Callable[[str, Any], Any]  # (request kind, JSON value) -> action


class Recorder:
    """Wraps a controller and records every answer (encoded to JSON) for a save file."""

    def __init__(self, inner: Controller, encode: Encoder):
        self.inner, self.encode = inner, encode
        self.answers: list[list[Any]] = []

    def decide(self, request: Request) -> Decision:
        decision = self.inner.decide(request)
        self.answers.append([request.kind, self.encode(request.kind, decision.action)])
        return decision


class Replayer:
    """Answers from a save file first, in order, then hands over to the live controller.

    The engine is deterministic given the seed and the answers, so this rebuilds a saved game exactly.
    """

    def __init__(self, answers: list[list[Any]], live: Controller, decode: Decoder):
        self.pending = list(answers)
        self.live, self.decode = live, decode
        self.replayed = 0

    def decide(self, request: Request) -> Decision:
        if not self.pending:
            return self.live.decide(request)
        kind, raw = self.pending.pop(0)
        if kind != request.kind:
            raise SaveError(f"the save does not match this game: it answers a '{kind}' question where the game "
                            f"asks '{request.kind}' (was it written by another version or edited?)")
        try:
            action = self.decode(kind, raw)
        except (ValueError, KeyError, TypeError, IndexError) as exc:
            raise SaveError(f"the save holds an unreadable '{kind}' answer: {exc}") from None
        self.replayed += 1
        return Decision(action, (Reason("SAVE", "replayed from the save file"),))

    @property
    def done(self) -> bool:
        return not self.pending
