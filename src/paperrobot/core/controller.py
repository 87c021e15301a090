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


@dataclass(frozen=True, slots=True)
class Reason:
    rule: str  # catalogue ID, e.g. "SFB.R3"
    text: str  # one sentence
    rolls: tuple[Roll, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "text": self.text, "rolls": [r.to_json() for r in self.rolls]}


@dataclass(frozen=True, slots=True)
class Request:
    """A decision point: what is asked (``kind``), of whom, with a read-only view and the legal options."""

    kind: str
    side: str
    view: Any = None
    options: Any = None


@dataclass(frozen=True, slots=True)
class Decision:
    action: Any
    reasons: tuple[Reason, ...] = field(default=())

    @property
    def rules(self) -> tuple[str, ...]:
        return tuple(r.rule for r in self.reasons)


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
