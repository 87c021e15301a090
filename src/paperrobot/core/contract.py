"""The game contract: engines that yield requests, one driver that routes them, matches that save and resume.

An engine's sequence of play is a generator. Where the rules ask a side, it yields a ``Request`` and
receives a ``Decision`` whose ``action`` is the request's parsed answer (the engine never sees an
unchecked answer). ``Match.play()`` is the one driver loop: it numbers the requests, sends each to
the side's controller (robot, policy, an object with ``decide``) or yields it to the caller (a person,
a web page, a learning agent), checks the answer before the engine resumes, and records the caller's
answers, which with the seed are what a save holds.

    match = paperrobot.new_game("sfb", seed=7, scenario="5")
    steps = match.play()                 # the robot flies its side; the rest is yielded
    request = next(steps)
    request = steps.send(request.options[0])   # an Option, its key, or a form's values (a dict)
    ...                                  # StopIteration.value is the Outcome

An illegal answer never reaches the engine: the caller gets the same request back (same ``seq``) with
``error`` naming the rule it breaks.
"""
from __future__ import annotations

from typing import Any, Callable, Generator, Iterable, Protocol

from .controller import Decision, Reason
from .errors import IllegalAction, PaperRobotError, SaveError
from .events import EventLog
from .outcome import Outcome


class Option:
    """One legal answer: ``key`` is what a save records and a person may type, ``label`` what is shown,
    ``value`` what the engine receives (the key itself when None)."""

    __slots__ = ("key", "label", "value")

    def __init__(self, key: str, label: str = "", value: Any = None):
        self.key, self.label, self.value = key, label or key, value

    def to_json(self) -> dict:
        return {"key": self.key, "label": self.label}

    def __repr__(self) -> str:
        return f"Option({self.key!r}, {self.label!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Option) and other.key == self.key and other.label == self.label

    def __hash__(self) -> int:
        return hash(self.key)


class Field:
    """One part of a form. ``multi``: the answer is a list of distinct values (e.g. weapons to fire)."""

    __slots__ = ("name", "label", "multi")

    def __init__(self, name: str, label: str = "", multi: bool = False):
        self.name, self.label, self.multi = name, label or name, multi

    def to_json(self) -> dict:
        return {"name": self.name, "label": self.label, "multi": self.multi}


class Form:
    """A decision with several parts (an energy allocation, a volley of fire, launches).

    ``choices(name, earlier)`` gives the legal values of field ``name`` given the values already chosen
    for the fields before it, so a front end or an environment can ask field by field; ``check(values)``
    turns a complete set of values into the engine's action or raises IllegalAction naming the rule.
    Values are JSON data (numbers, strings, lists of them).
    """

    def __init__(self, fields: Iterable[Field], choices: Callable[[str, dict], tuple],
                 check: Callable[[dict], Any]):
        self.fields = tuple(fields)
        self._choices, self._check = choices, check

    def choices(self, name: str, earlier: dict | None = None) -> tuple:
        return tuple(self._choices(name, dict(earlier or {})))

    def check(self, values: dict) -> Any:
        if not isinstance(values, dict):
            raise IllegalAction(f"a form answer is a set of field values, not {type(values).__name__}")
        names = {f.name for f in self.fields}
        unknown = sorted(set(values) - names)
        if unknown:
            raise IllegalAction(f"'{unknown[0]}' is not a field of this form; the fields are {', '.join(sorted(names))}")
        return self._check(values)

    def to_json(self) -> dict:
        return {"fields": [f.to_json() for f in self.fields]}


class Request:
    """A decision point. ``options`` (never empty) and ``view`` are built only when read.

    - ``kind``: what is asked ("energy", "move", "fire", ...); ``side``: of whom.
    - ``options``: tuple of Option; for a form, a few legal presets (the suggested one first).
    - ``form``: a Form for multi-part decisions, else None.
    - ``default``: always legal: an Option key, or a form's values.
    - ``state``: the typed read-only view robots and policies decide from (engine objects; never changed
      by a controller). ``subject``: what the request is about (a ship, a squadron), for robots.
    - ``view``: plain JSON data of what ``side`` may know (for web pages and environments).
    - ``prompt``: one line for a person. ``error``: why the previous answer was refused.
    - ``seq``: the number of this request in its match (set by the driver).
    """

    __slots__ = ("kind", "side", "state", "subject", "prompt", "form", "seq", "error", "data",
                 "_options", "_default", "_view", "_check")

    def __init__(self, kind: str, side: str, *, state: Any = None, subject: Any = None,
                 options: tuple | Callable[[], tuple] = (), default: Any = None, form: Form | None = None,
                 view: Any = None, check: Callable[[Any], Any] | None = None, prompt: str = "",
                 data: Any = None):
        # one store per slot (no tuple packing): a battle builds hundreds of requests
        self.kind = kind
        self.side = side
        self.state = state
        self.subject = subject
        self.prompt = prompt
        self.form = form
        self.data = data
        self._options = options
        self._default = default
        self._view = view
        self._check = check
        self.seq = 0
        self.error = ""

    def reissue(self, options: tuple | Callable[[], tuple], view: Any, data: Any = None) -> "Request":
        """This request made new again, to be yielded once more: options and view unread (given again, as
        built), no error, no number yet. An engine may keep one request per decision point for a side flown in
        process by its own robot or policy, which never keep a request after answering it; building a fresh one
        each time is a measurable part of a simulation. Never for a side yielded to a caller."""
        self._options = options
        self._view = view
        self.data = data
        self.error = ""
        self.seq = 0
        return self

    @property
    def options(self) -> tuple[Option, ...]:
        if callable(self._options):
            self._options = tuple(self._options())
        return self._options

    @property
    def default(self) -> Any:
        if self._default is None:
            return self.options[0].key if self.options else None
        return self._default

    @property
    def view(self) -> Any:
        if callable(self._view):
            self._view = self._view()
        return self._view

    def option(self, key: str) -> Option | None:
        for option in self.options:
            if option.key == key:
                return option
        return None

    def parse(self, answer: Any) -> Any:
        """The engine's action for ``answer`` (an Option, a key, or a form's values); IllegalAction if not legal."""
        if isinstance(answer, Option):
            answer = answer.key
        if self._check is not None:
            return self._check(answer)
        if self.form is not None and isinstance(answer, dict):
            return self.form.check(answer)
        if isinstance(answer, str) or (self.form is not None and answer is not None):
            option = self.option(answer) if isinstance(answer, str) else None
            if option is not None:
                if self.form is not None and isinstance(option.value, dict):
                    return self.form.check(option.value)
                return option.key if option.value is None else option.value
        shown = ", ".join(o.key for o in self.options[:12]) + (", ..." if len(self.options) > 12 else "")
        raise IllegalAction(f"'{_short(answer)}' is not an answer to this {self.kind} question; choose one of: {shown}")

    def encode(self, answer: Any) -> Any:
        """The JSON form of an answer for a save: the key, or the form's values."""
        if isinstance(answer, Option):
            return answer.key
        return answer

    def to_json(self) -> dict:
        out = {"seq": self.seq, "kind": self.kind, "side": self.side, "prompt": self.prompt,
               "options": [o.to_json() for o in self.options], "default": self.default, "error": self.error}
        if self.form is not None:
            out["form"] = self.form.to_json()
        return out

    def __repr__(self) -> str:
        return f"Request(seq={self.seq}, kind={self.kind!r}, side={self.side!r})"


def _short(value: Any) -> str:
    text = str(value)
    return text if len(text) <= 40 else text[:37] + "..."


class Controller(Protocol):
    def decide(self, request: Request) -> Decision: ...


class Engine(Protocol):
    """What a game's engine offers the driver."""

    sides: tuple[str, ...]
    log: EventLog

    def sequence(self) -> Generator[Request, Decision, Outcome]: ...

    def controller(self, side: str, kind: str) -> Controller: ...  # kind: "robot" or "policy"

    def record(self, request: Request, decision: Decision) -> None: ...  # decision events for the log


Engines = Callable[..., Engine]  # (seed, log, **setup) -> a fresh engine


class Match:
    """One game: its set-up, seed, engine and the answers the caller gave, in order.

    A paused generator cannot be copied or pickled, so ``rebuild()`` (resume, undo, workers) makes a new
    match from the set-up, seed and answers; the engine is deterministic given those.
    """

    def __init__(self, game: str, setup: dict, seed: int, build: Engines, log: EventLog | None = None):
        self.game, self.setup, self.seed = game, dict(setup), seed
        self._build = build
        self.log = log if log is not None else EventLog(enabled=False)
        self.engine: Engine = build(seed=seed, log=self.log, **self.setup)
        self.answers: list[list] = []  # [seq, kind, side, answer as JSON]
        self.controllers: dict[str, str] = {}
        self.outcome: Outcome | None = None
        self.listeners: list[Callable[["Match"], None]] = []  # called after each recorded answer (autosave)
        self.resume: tuple | None = None  # (steps, open request) of a rebuilt match

    @property
    def sides(self) -> tuple[str, ...]:
        return tuple(self.engine.sides)

    def default_controllers(self) -> dict[str, str | None]:
        return {side: ("robot" if side == getattr(self.engine, "robot_side", None) else None) for side in self.sides}

    def play(self, controllers: dict[str, Any] | None = None) -> Generator[Request, Any, Outcome]:
        """The driver loop. ``controllers`` maps a side to "robot", "policy", None (yielded to the caller) or an
        object with ``decide``; sides not named keep the default (robot side "robot", others yielded)."""
        chosen = self.default_controllers()
        for side, who in (controllers or {}).items():
            if side not in chosen:
                raise PaperRobotError(f"'{side}' is not a side of {self.game}; the sides are {', '.join(self.sides)}")
            chosen[side] = who
        routes: dict[str, Any] = {}
        for side, who in chosen.items():
            if who is None or who == "person":
                routes[side], self.controllers[side] = None, "person"
            elif isinstance(who, str):
                if who not in ("robot", "policy"):
                    raise PaperRobotError(f"a side is flown by 'robot', 'policy' or a person, not '{who}'")
                routes[side], self.controllers[side] = self.engine.controller(side, who), who
            else:  # an outside controller (a script, an agent): its answers are recorded like a person's
                routes[side], self.controllers[side] = who, "person"
        return self._drive(routes)

    def _drive(self, routes: dict[str, Any]) -> Generator[Request, Any, Outcome]:
        """Every answer, whoever gives it, is parsed by the request before the engine resumes: one path."""
        engine = self.engine
        steps = engine.sequence()
        send = steps.send
        recorded = {side for side, who in self.controllers.items() if who == "person"}
        seq = 0
        try:
            request = next(steps)
            while True:
                seq += 1
                request.seq = seq
                side = request.side
                controller = routes[side]
                if controller is not None:
                    decision = controller.decide(request)
                    answer, reasons = decision.action, decision.reasons
                    try:  # Request.parse; its first step taken here (a check and no Option: most answers)
                        check = request._check
                        if check is not None and answer.__class__ is not Option:
                            action = check(answer)
                        else:
                            action = request.parse(answer)
                    except IllegalAction as exc:
                        raise IllegalAction(f"the {self.controllers[side]} controller of {side} "
                                            f"gave an illegal answer to {request!r}: {exc}") from None
                else:
                    answer = yield request
                    while True:
                        try:
                            action = request.parse(answer)
                            break
                        except IllegalAction as exc:
                            request.error = str(exc)
                            answer = yield request
                    request.error = ""
                    reasons = ()
                if side in recorded:
                    self._remember(request, answer)
                if action is not answer or controller is None:
                    decision = Decision(action, reasons)
                # else: the controller's own Decision already carries the parsed action (a move key, say)
                if reasons:  # only reasons become events; engines skip even those when the log is off
                    engine.record(request, decision)
                request = send(decision)
        except StopIteration as stop:
            self.outcome = stop.value
            return stop.value

    def _remember(self, request: Request, answer: Any) -> None:
        self.answers.append([request.seq, request.kind, request.side, request.encode(answer)])
        for listener in self.listeners:
            listener(self)

    # ------------------------------------------------------------------ saves, resume, undo
    def replay(self, answers: list[list], controllers: dict[str, Any] | None = None
               ) -> tuple[Generator[Request, Any, Outcome], Request | None]:
        """Feed recorded answers to a fresh ``play()``; returns the generator and the first request still open
        (None if the game ended). A recorded answer that no longer fits is a SaveError."""
        steps = self.play(controllers)
        try:
            request = next(steps)
            for number, (seq, kind, side, answer) in enumerate(answers, 1):
                if request.kind != kind or request.side != side:
                    raise SaveError(f"answer {number} of the save is for a '{kind}' question of {side}, but this "
                                    f"engine asks '{request.kind}' of {request.side} there")
                before = request.seq
                request = steps.send(answer)
                if request.seq == before:
                    raise SaveError(f"answer {number} of the save ({_short(answer)}) is refused by this engine: "
                                    f"{request.error}")
            return steps, request
        except StopIteration:
            return steps, None

    def rebuild(self, keep: int | None = None, log: EventLog | None = None) -> "Match":
        """A fresh match of the same set-up and seed with the first ``keep`` answers (all when None) replayed;
        its ``resume`` holds the generator and the open request. This is undo."""
        answers = self.answers if keep is None else self.answers[:keep]
        fresh = Match(self.game, self.setup, self.seed, self._build, log or EventLog(enabled=self.log.enabled))
        controllers = {side: (None if who == "person" else who) for side, who in self.controllers.items()}
        fresh.resume = fresh.replay([list(a) for a in answers], controllers)
        fresh.listeners = self.listeners
        return fresh


def drive_all(match: Match, controllers: dict[str, Any]) -> Outcome:
    """Play a match to its end with in-process controllers on every side (tests, simulations)."""
    steps = match.play(controllers)
    try:
        request = next(steps)
        raise PaperRobotError(f"side {request.side} has no controller")
    except StopIteration as stop:
        return stop.value


__all__ = ["Option", "Field", "Form", "Request", "Decision", "Reason", "Match", "Engine", "Controller", "drive_all"]
