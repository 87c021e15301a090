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

from collections import deque
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
                 "_options", "_default", "_view", "_check", "_made")

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
        self._made = (options, view)  # the builders, for refresh() after a correction
        self.seq = 0
        self.error = ""

    def reissue(self, options: tuple | Callable[[], tuple], view: Any, data: Any = None) -> "Request":
        """This request made new again, to be yielded once more: options and view unread (given again, as
        built), no error, no number yet. An engine may keep one request per decision point for a side flown in
        process by its own robot or policy, which never keep a request after answering it; building a fresh one
        each time is a measurable part of a simulation. Never for a side yielded to a caller."""
        self._options = options
        self._view = view
        self._made = (options, view)
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

    def refresh(self) -> None:
        """Build the options and view again (the state was corrected while this request was open)."""
        self._options, self._view = self._made

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


DICE_SOURCES = ("program", "table")  # the seeded dice roll, or a person rolls real dice and types them


class DieWanted(BaseException):
    """Raised by a match's dice when a person must roll (table dice) and no rolled value is waiting. It passes
    through any ``except Exception`` in an engine; the driver asks the person and rebuilds the engine."""

    def __init__(self, sides: int, purpose: str, side: str):
        super().__init__(sides, purpose, side)
        self.sides, self.purpose, self.side = sides, purpose, side


class Match:
    """One game: its set-up, seed, engine and the answers the caller gave, in order.

    A paused generator cannot be copied or pickled, so ``rebuild()`` (resume, undo, workers) makes a new
    match from the set-up, seed and answers; the engine is deterministic given those.

    The recorded answers (``[seq, kind, side, answer]``) also hold what is not an answer to a question:
    a die a person rolled (kind "roll", with ``dice="table"``), and asides sent instead of an answer:
    ``{"@roll": [4, 2]}`` makes the next dice rolled 4 and 2 (a person's own dice, one question at a time),
    ``{"@fix": {...}}`` corrects the state to match a real table (the engine's ``fix``). An aside leaves the
    same request open.
    """

    def __init__(self, game: str, setup: dict, seed: int, build: Engines, log: EventLog | None = None,
                 dice: str = "program"):
        if dice not in DICE_SOURCES:
            raise PaperRobotError(f"the dice are 'program' (the program rolls) or 'table' (you type each roll "
                                  f"of your own dice), not '{_short(dice)}'")
        self.game, self.setup, self.seed, self.dice = game, dict(setup), seed, dice
        self._build = build
        self.log = log if log is not None else EventLog(enabled=False)
        self._base = self.log.emitted
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
        return self._drive(self._routes(controllers), (), False)

    def _routes(self, controllers: dict[str, Any] | None) -> dict[str, Any]:
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
        if self.dice == "table" and None not in routes.values():
            raise PaperRobotError("table dice need a person at the table: leave one side to be answered by you")
        return routes

    def _drive(self, routes: dict[str, Any], feed: Iterable[list], replaying: bool
               ) -> Generator[Request, Any, Outcome]:
        """Every answer, whoever gives it, is parsed by the request before the engine resumes: one path.

        ``feed`` holds recorded answers to give before asking anyone (replay). With table dice, a die wanted
        when none is waiting is asked of the person; then the engine is rebuilt and every answer so far fed to
        it again (dice are rolled deep inside the rules, where a generator cannot pause), its repeated events
        dropped from the log. ``replaying``: the fed answers are the match's answers being restored (resume,
        undo), recorded again one by one with the listeners told, as when they were first given."""
        recorded = {side for side, who in self.controllers.items() if who == "person"}
        roller = next((side for side, route in routes.items() if route is None), "")
        feed = deque(feed)
        fed = 0  # entries of the feed used, to name one that no longer fits
        seq = 0

        def asker(sides: int, purpose: str, side: str) -> int | None:
            nonlocal seq, fed
            if feed and feed[0][1] == "roll":
                seq += 1
                fed += 1
                entry = feed.popleft()
                if replaying:
                    self._restore(entry)
                return _rolled(entry[3], sides, purpose)
            if feed:
                raise SaveError(f"answer {fed + 1} of the save is for a '{feed[0][1]}' question of {feed[0][2]}, "
                                f"but this engine rolls a die there ({purpose})")
            raise DieWanted(sides, purpose, side)

        while True:  # one pass per engine build
            engine = self.engine
            if self.dice == "table":
                engine.dice.asker = asker
            steps = engine.sequence()
            send = steps.send
            try:
                request = next(steps)
                while True:
                    seq += 1
                    request.seq = seq
                    side = request.side
                    controller = routes[side]
                    if controller is not None:
                        decision = controller.decide(request)
                        answer, reasons, memory = decision.action, decision.reasons, decision.memory
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
                        while feed and feed[0][1].startswith("@"):  # recorded asides at this request
                            fed += 1
                            entry = feed.popleft()
                            try:
                                self._aside(request, entry[1], entry[3])
                            except IllegalAction as exc:
                                raise SaveError(f"answer {fed} of the save ({_short(entry[3])}) is refused by this "
                                                f"engine: {exc}") from None
                            if replaying:
                                self._restore(entry)
                        if feed:
                            fed += 1
                            number, (_, kind, answer_side, answer) = fed, feed.popleft()
                            if request.kind != kind or side != answer_side:
                                raise SaveError(f"answer {number} of the save is for a '{kind}' question of "
                                                f"{answer_side}, but this engine asks '{request.kind}' of {side} there")
                            try:
                                action = request.parse(answer)
                            except IllegalAction as exc:
                                raise SaveError(f"answer {number} of the save ({_short(answer)}) is refused by this "
                                                f"engine: {exc}") from None
                            if replaying:
                                self._restore([request.seq, kind, answer_side, answer])
                        else:
                            answer, action = yield from self._ask(request, side in recorded)
                            if side in recorded:
                                self._remember(request, answer)
                        reasons, memory = (), None
                    if action is not answer or controller is None:
                        decision = Decision(action, reasons, memory)
                    # else: the controller's own Decision already carries the parsed action (a move key, say)
                    if reasons:  # only reasons become events; engines skip even those when the log is off
                        engine.record(request, decision)
                    request = send(decision)
            except StopIteration as stop:
                if feed:
                    raise SaveError(f"the save has {len(feed)} answer(s) after the end of the game")
                self.outcome = stop.value
                return stop.value
            except DieWanted as want:
                seq += 1
                request = _roll_request(want, roller, engine)
                request.seq = seq
                _, key = yield from self._ask(request, False, asides=False)
                self._remember(request, key)
                self._restart()
                routes = {side: (self.engine.controller(side, self.controllers[side])
                                 if self.controllers[side] in ("robot", "policy") else route)
                          for side, route in routes.items()}  # the robot's controller may hold the old dice
                feed, fed, seq, replaying = deque(self.answers), 0, 0, False

    def _ask(self, request: Request, record: bool, asides: bool = True) -> Generator[Request, Any, tuple]:
        """Yield ``request`` to the caller until the answer parses: ``(answer, action)``. A refused answer comes
        back as the same request with ``error``; an aside (``@roll``, ``@fix``) is applied (and recorded when
        ``record``) and the request asked again."""
        answer = yield request
        while True:
            aside = _aside_of(answer) if asides else None
            try:
                if aside is None:
                    action = request.parse(answer)
                    request.error = ""
                    return answer, action
                self._aside(request, aside, answer)
                request.error = ""
                if record:
                    self._remember(request, answer, aside)
            except IllegalAction as exc:
                request.error = str(exc)
            answer = yield request

    def _aside(self, request: Request, kind: str, answer: Any) -> None:
        """Apply an aside ("@roll" or "@fix") at ``request``; IllegalAction if it cannot be."""
        payload = answer[kind]
        if kind == "@roll":
            values = payload if isinstance(payload, list) else [payload]
            if not values or len(values) > 100 or not all(isinstance(v, int) and not isinstance(v, bool) and
                                                            1 <= v <= 100 for v in values):
                raise IllegalAction("'roll' takes the values of the dice you rolled, e.g. 'roll 4' or 'roll 3 6'")
            self.engine.dice.script(*values)
        else:
            fix = getattr(self.engine, "fix", None)
            if fix is None:
                raise IllegalAction(f"{self.game} has no corrections ('fix')")
            if not isinstance(payload, dict):
                raise IllegalAction("a correction names what to change, e.g. {'hex': '2215'}")
            fix(payload)
            request.refresh()

    def _restart(self) -> None:
        """A fresh engine of the same set-up and seed; the events the old one emitted are not told twice."""
        self.log.skip = self.log.emitted - self._base
        self.log.emitted = self._base
        self.engine = self._build(seed=self.seed, log=self.log, **self.setup)

    def _remember(self, request: Request, answer: Any, kind: str | None = None) -> None:
        self._restore([request.seq, kind or request.kind, request.side, request.encode(answer)])

    def _restore(self, entry: list) -> None:
        self.answers.append(list(entry))
        for listener in self.listeners:
            listener(self)

    # ------------------------------------------------------------------ saves, resume, undo
    def replay(self, answers: list[list], controllers: dict[str, Any] | None = None
               ) -> tuple[Generator[Request, Any, Outcome], Request | None]:
        """Feed recorded answers to a fresh ``play()``; returns the generator and the first request still open
        (None if the game ended). A recorded answer that no longer fits is a SaveError."""
        routes = self._routes(controllers)
        self.answers = []
        steps = self._drive(routes, [list(a) for a in answers], True)
        try:
            return steps, next(steps)
        except StopIteration:
            return steps, None

    def rebuild(self, keep: int | None = None, log: EventLog | None = None) -> "Match":
        """A fresh match of the same set-up and seed with the first ``keep`` answers (all when None) replayed;
        its ``resume`` holds the generator and the open request. This is undo."""
        answers = self.answers if keep is None else self.answers[:keep]
        fresh = Match(self.game, self.setup, self.seed, self._build, log or EventLog(enabled=self.log.enabled),
                      self.dice)
        controllers = {side: (None if who == "person" else who) for side, who in self.controllers.items()}
        fresh.resume = fresh.replay([list(a) for a in answers], controllers)
        fresh.listeners = self.listeners
        return fresh


def _aside_of(answer: Any) -> str | None:
    """The kind of an aside answer ({"@roll": ...} or {"@fix": ...}), else None."""
    if isinstance(answer, dict) and len(answer) == 1:
        key = next(iter(answer))
        if key in ("@roll", "@fix"):
            return key
    return None


def _rolled(answer: Any, sides: int, purpose: str) -> int | None:
    if answer == "program":
        return None
    value = int(answer)
    if not 1 <= value <= sides:
        raise SaveError(f"a recorded roll of {value} does not fit the d{sides} rolled for {purpose}")
    return value


def _roll_request(want: DieWanted, side: str, engine: Any) -> Request:
    """The question a person answers with the roll of a real die."""
    labels = getattr(engine, "die_labels", None)
    faces = labels(want.sides, want.purpose) if labels is not None else None
    options = [Option(str(v), faces[v - 1] if faces else str(v)) for v in range(1, want.sides + 1)]
    options.append(Option("program", "let the program roll this one"))
    die = "coin (1 = heads)" if want.sides == 2 else f"d{want.sides}"
    whose = f"{want.side}'s " if want.side else ""
    return Request("roll", side, options=tuple(options), default="program",
                   prompt=f"Roll a {die} for {whose}{want.purpose}",
                   data={"sides": want.sides, "purpose": want.purpose, "for": want.side})


def drive_all(match: Match, controllers: dict[str, Any]) -> Outcome:
    """Play a match to its end with in-process controllers on every side (tests, simulations)."""
    steps = match.play(controllers)
    try:
        request = next(steps)
        raise PaperRobotError(f"side {request.side} has no controller")
    except StopIteration as stop:
        return stop.value


__all__ = ["DICE_SOURCES", "DieWanted", "Option", "Field", "Form", "Request", "Decision", "Reason", "Match", "Engine", "Controller", "drive_all"]
