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

from . import players
from .controller import Decision, Reason
from .copies import copy_match
from .dice import Dice
from .errors import IllegalAction, PaperRobotError, SaveError
from .events import EventLog
from .outcome import Outcome
from .request import Field, Form, Option, Request, _short



class Controller(Protocol):
    def decide(self, request: Request) -> Decision: ...


class Engine(Protocol):
    """What a game's engine offers the driver."""

    sides: tuple[str, ...]
    log: EventLog
    dice: Dice

    def sequence(self) -> Generator[Request, Decision, Outcome]: ...

    def controller(self, side: str, kind: str) -> Controller: ...  # kind: "robot" or "policy"

    def record(self, request: Request, decision: Decision) -> None: ...  # decision events for the log

    # Clone and fork (docs/contract.md "Clone and fork"). ``boundary`` (None, or set by a match that keeps
    # snapshots) is called by the engine where its whole position is state; there ``snapshot()`` copies what can
    # change, and ``restore(snapshot, log)`` is a new engine whose ``sequence()`` resumes at that boundary.
    # Optional: ``unroute(side)`` forgets a side's in-process controller (its standing answers);
    # ``redraw(side, rng)`` re-draws what ``side`` cannot see (a fork).
    boundary: Callable[[], None] | None

    def snapshot(self) -> Any: ...

    def restore(self, snapshot: Any, log: EventLog) -> "Engine": ...


Engines = Callable[..., Engine]  # (seed, log, **setup) -> a fresh engine


DICE_SOURCES = ("program", "table")  # the seeded dice roll, or a person rolls real dice and types them


class DieWanted(BaseException):
    """Raised by a match's dice when a person must roll (table dice) and no rolled value is waiting, or when a
    value the person gave ('roll 7') cannot be shown by the die it feeds (``error`` says so). It passes through
    any ``except Exception`` in an engine; the driver asks the person and rebuilds the engine."""

    def __init__(self, sides: int, purpose: str, side: str, error: str = ""):
        super().__init__(sides, purpose, side)
        self.sides, self.purpose, self.side, self.error = sides, purpose, side, error


class Match:
    """One game: its set-up, seed, engine and the answers the caller gave, in order.

    A paused generator cannot be copied or pickled, so ``rebuild()`` (resume, undo, workers) makes a new
    match from the set-up, seed and answers; the engine is deterministic given those.

    The recorded answers (``[seq, kind, side, answer]``) also hold what is not an answer to a question:
    a die a person rolled (kind "roll", with ``dice="table"``), and asides sent instead of an answer:
    ``{"@roll": [4, 2]}`` makes the next dice rolled 4 and 2 (a person's own dice, one question at a time),
    ``{"@fix": {...}}`` corrects the state to match a real table (the engine's ``fix``). An aside leaves the
    same request open. A value of ``@roll`` is checked when the die it feeds is rolled: one that die cannot
    show is refused then (the person is asked for that die, kind "roll", with the reason as the error), and
    kept in the record, where every replay refuses it the same way and takes the roll recorded after it.
    """

    def __init__(self, game: str, setup: dict[str, Any], seed: int, build: Engines, log: EventLog | None = None,
                 dice: str = "program", engine: Engine | None = None) -> None:
        """``engine``: a copy's engine (restored from a snapshot or rebuilt; _copy), instead of a new one."""
        if dice not in DICE_SOURCES:
            raise PaperRobotError(f"the dice are 'program' (the program rolls) or 'table' (you type each roll "
                                  f"of your own dice), not '{_short(dice)}'")
        self.game, self.setup, self.seed, self.dice = game, dict(setup), seed, dice
        self._build = build
        self.log = log if log is not None else EventLog(enabled=False)
        self._base = self.log.emitted
        self.engine: Engine = engine if engine is not None else build(seed=seed, log=self.log, **self.setup)
        self.answers: list[list[Any]] = []  # [seq, kind, side, answer as JSON]
        self.controllers: dict[str, str] = {}
        self.outcome: Outcome | None = None
        self.listeners: list[Callable[["Match"], None]] = []  # called after each recorded answer (autosave)
        self.resume: tuple[Any, ...] | None = None  # (steps, open request) of a rebuilt match
        self.seq = 0  # the number of the request asked last (the open one while the match waits for an answer)
        # Snapshots for clone() and fork(): when ``checkpoints`` is on, the driver keeps the engine's snapshot at
        # its last boundary with where the match stood, so a copy replays a few requests instead of the game.
        self.checkpoints = False
        self._mark: tuple[Any, ...] | None = None  # (snapshot, seq, len(answers), len(log.events)) at the last boundary
        self._parked: tuple[Any, ...] | None = None  # (steps, request) of a copy waiting at its open request
        self._told: dict[int, tuple[Any, ...]] = {}  # answer index -> (reasons, memory) an outside controller gave with it
        self._off_record = False  # play(first=...) answered an in-process side: the answers cannot rebuild this match

    @property
    def sides(self) -> tuple[str, ...]:
        return tuple(self.engine.sides)

    def default_controllers(self) -> dict[str, str | None]:
        return {side: ("robot" if side == getattr(self.engine, "robot_side", None) else None) for side in self.sides}

    def play(self, controllers: dict[str, Any] | None = None, first: Decision | None = None
             ) -> Generator[Request, Any, Outcome]:
        """The driver loop. ``controllers`` maps a side to "robot", "policy", None (yielded to the caller) or an
        object with ``decide``; sides not named keep the default (robot side "robot", others yielded).

        A copy made by ``clone()`` or ``fork()`` resumes at its open request (the same ``seq``), whoever flies the
        sides now. An object with ``bind(match, side)`` (a search player) is bound to this match first.
        ``first``: the decision for a copy's open request, given instead of asking whoever flies its side (a search
        plays its candidate so and lets the engine's own policy fly the side after it). Given for a side flown in
        process, it is in no record of answers, so that match cannot be copied afterwards."""
        if first is not None and self._parked is None:
            raise PaperRobotError("play(first=...) answers the open request of a copy (clone or fork) not yet played")
        routes = self._routes(controllers)
        start, self._parked = self._parked, None
        if first is not None and start is not None:
            if routes[start[1].side] is None:
                raise PaperRobotError("play(first=...) answers for a side flown by a controller; a side yielded to "
                                      "you is answered by sending the answer")
            self._off_record = self.controllers[start[1].side] in ("robot", "policy")
        return self._drive(routes, (), False, start, first)

    def _routes(self, controllers: dict[str, Any] | None) -> dict[str, Any]:
        chosen: dict[str, Any] = dict(self.default_controllers())  # a side's value may become a controller object
        for side, who in (controllers or {}).items():
            if side not in chosen:
                raise PaperRobotError(f"'{side}' is not a side of {self.game}; the sides are {', '.join(self.sides)}")
            chosen[side] = who
        routes: dict[str, Any] = {}
        unroute = getattr(self.engine, "unroute", None)
        for side, who in chosen.items():
            if unroute is not None:
                unroute(side)  # a copy's engine may still hold the standing answers of its former controller
            if isinstance(who, str) and who not in ("robot", "policy", "person"):
                who = players.make(who, self, side)  # a named player ("search:20"): an outside controller object
            if who is None or who == "person":
                routes[side], self.controllers[side] = None, "person"
            elif isinstance(who, str):
                if who not in ("robot", "policy"):
                    raise PaperRobotError(f"a side is flown by 'robot', 'policy' or a person, not '{who}'")
                routes[side], self.controllers[side] = self.engine.controller(side, who), who
            else:  # an outside controller (a script, an agent): its answers are recorded like a person's
                routes[side], self.controllers[side] = who, "person"
                bind = getattr(who, "bind", None)
                if bind is not None:
                    bind(self, side)
        if self.dice == "table" and None not in routes.values():
            raise PaperRobotError("table dice need a person at the table: leave one side to be answered by you")
        return routes

    def _drive(self, routes: dict[str, Any], answers: Iterable[list[Any]], replaying: bool,
               start: tuple[Any, ...] | None = None, first: Decision | None = None) -> Generator[Request, Any, Outcome]:
        """Every answer, whoever gives it, is parsed by the request before the engine resumes: one path.

        ``answers`` holds recorded answers to give before asking anyone (replay). With table dice, a die wanted
        when none is waiting is asked of the person; then the engine is rebuilt and every answer so far fed to
        it again (dice are rolled deep inside the rules, where a generator cannot pause), its repeated events
        dropped from the log. ``replaying``: the fed answers are the match's answers being restored (resume,
        undo), recorded again one by one with the listeners told, as when they were first given."""
        recorded = {side for side, who in self.controllers.items() if who == "person"}
        roller = next((side for side, route in routes.items() if route is None), "")
        feed: deque[list[Any]] = deque(answers)
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
                return _rolled(entry[3], sides, purpose, notes)
            if feed:
                raise SaveError(f"answer {fed + 1} of the save is for a '{feed[0][1]}' question of {feed[0][2]}, "
                                f"but this engine rolls a die there ({purpose})")
            raise DieWanted(sides, purpose, side)

        notes: list[str] = []  # recorded rolls dropped on the way, told with the next question to the person

        def unfit(value: int, sides: int, purpose: str, side: str) -> int | None:
            """A scripted value the die cannot show: the roll recorded in its place, else ask for one."""
            nonlocal seq, fed
            if feed and feed[0][1] == "roll":
                seq += 1
                fed += 1
                entry = feed.popleft()
                if replaying:
                    self._restore(entry)
                return _rolled(entry[3], sides, purpose, notes)
            refused = f"roll {value} cannot be a {_die(sides)} (1-{sides})"
            if feed:  # a save written before rolls were checked: drop it, the seeded die rolls (cannot ask here)
                notes.append(f"{refused} ({purpose}): dropped from the save, the program rolled that die")
                return None
            raise DieWanted(sides, purpose, side, f"{refused}: roll again")

        def boundary() -> None:  # the engine stands where a restored copy can start: keep its snapshot
            self._mark = (engine.snapshot(), seq, len(self.answers), len(self.log.events))

        steps: Generator[Request, Decision, Outcome]
        request: Request | None  # typed (not Any): compiled, its fields are read natively, three a request
        while True:  # one pass per engine build
            engine = self.engine
            if self.dice == "table":
                engine.dice.asker = asker
            if hasattr(engine, "dice"):  # an engine without dice (a test's) has no roll to check
                engine.dice.unfit = unfit
            if self.checkpoints and hasattr(engine, "snapshot"):
                engine.boundary = boundary
            if start is not None:  # a copy parked at its open request
                steps, request = start
                seq = request.seq - 1
                start = None
            else:
                steps, request = engine.sequence(), None
            send = steps.send
            try:
                if request is None:
                    request = next(steps)
                while True:
                    seq += 1
                    request.seq = seq
                    self.seq = seq
                    side = request.side
                    controller = routes[side]
                    if controller is not None:
                        if first is not None:  # the copy's open request, answered by play(first=...)
                            decision, first = first, None
                        else:
                            decision = controller.decide(request)
                        answer, reasons, memory = decision.action, decision.reasons, decision.memory
                        try:  # Request.parse; its first step taken here (a check and no Option: most answers)
                            check = request._check
                            if check is not None and type(answer) is not Option:
                                action = check(answer)
                            else:
                                action = request.parse(answer)
                        except IllegalAction as exc:
                            raise IllegalAction(f"the {self.controllers[side]} controller of {side} "
                                                f"gave an illegal answer to {request!r}: {exc}") from None
                        if side in recorded:  # an outside controller (a script, an agent, a search)
                            self._remember(request, answer)
                            if reasons or memory:  # a copy's replay gives them again (they are not in a save)
                                self._told[len(self.answers) - 1] = (reasons, memory)
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
                            if notes:
                                request.error = "; ".join(notes)
                                notes.clear()
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
                outcome: Outcome = stop.value
                self.outcome = outcome
                _unhook(engine)
                return outcome
            except DieWanted as want:
                seq += 1
                request = _roll_request(want, roller, engine)
                request.seq = seq
                request.error = "; ".join(notes + [want.error] if want.error else notes)
                notes.clear()
                _, key = yield from self._ask(request, False, asides=False)
                self._remember(request, key)
                self._restart()
                routes = {side: (self.engine.controller(side, self.controllers[side])
                                 if self.controllers[side] in ("robot", "policy") else route)
                          for side, route in routes.items()}  # the robot's controller may hold the old dice
                feed, fed, seq, replaying = deque(self.answers), 0, 0, False

    # ------------------------------------------------------------------ clone and fork
    @property
    def open(self) -> Request | None:
        """The request a copy made by clone() or fork() waits at (None once play() has taken it up)."""
        return self._parked[1] if self._parked is not None else None

    def clone(self) -> "Match":
        """An independent match at the same open request with the same dice to come: answering both the same way
        gives the same events and outcome. Cheap when ``checkpoints`` was on (a snapshot and a short replay)."""
        return copy_match(self, None, None)

    def fork(self, seed: int, side: str | None = None, quiet: bool = False) -> "Match":
        """The same past, fresh dice from ``seed`` from the open request on, and whatever ``side`` cannot see
        re-drawn consistently with what it knows (a search for ``side`` never learns the real future). ``quiet``:
        the fork logs nothing and holds none of the past events (a search's play-out; core/copies.py)."""
        if side is not None and side not in self.sides:
            raise PaperRobotError(f"'{side}' is not a side of {self.game}; the sides are {', '.join(self.sides)}")
        return copy_match(self, int(seed), side, quiet)

    def _ask(self, request: Request, record: bool, asides: bool = True) -> Generator[Request, Any, tuple[Any, ...]]:
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

    def _restore(self, entry: list[Any]) -> None:
        self.answers.append(list(entry))
        for listener in self.listeners:
            listener(self)

    # ------------------------------------------------------------------ saves, resume, undo
    def replay(self, answers: list[list[Any]], controllers: dict[str, Any] | None = None
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


def _unhook(engine: Any) -> None:
    """Drop the driver's hooks from a finished engine. They are closures over the driver, which holds the match,
    which holds the engine: left on, the whole finished game is one reference cycle that only the cyclic collector
    frees (a search's play-outs leave one per simulation)."""
    dice = getattr(engine, "dice", None)
    if dice is not None:
        dice.unfit = None
        dice.asker = None
    if getattr(engine, "boundary", None) is not None:
        engine.boundary = None


def _aside_of(answer: Any) -> str | None:
    """The kind of an aside answer ({"@roll": ...} or {"@fix": ...}), else None."""
    if isinstance(answer, dict) and len(answer) == 1:
        key = next(iter(answer))
        if key == "@roll" or key == "@fix":
            return str(key)
    return None


def _rolled(answer: Any, sides: int, purpose: str, notes: list[str]) -> int | None:
    """The value of a recorded roll; None lets the seeded die roll ("program", or a roll the die cannot show,
    which is dropped with a note: a save edited by hand, or written before rolls were checked)."""
    if answer == "program":
        return None
    try:
        value = int(answer)
    except (TypeError, ValueError, OverflowError):
        value = None
    if value is None or not 1 <= value <= sides:
        notes.append(f"the recorded roll {_short(answer)} cannot be a {_die(sides)} (1-{sides}) ({purpose}): dropped, "
                     f"the program rolled that die")
        return None
    return value


def _die(sides: int) -> str:
    return "coin" if sides == 2 else f"d{sides}"


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
        outcome: Outcome = stop.value
        return outcome


__all__ = ["DICE_SOURCES", "DieWanted", "Option", "Field", "Form", "Request", "Decision", "Reason", "Match", "Engine", "Controller", "drive_all"]
