"""Battles to watch: robot against robot or policy from a seed, or an uploaded ``--log`` file, as frames.

A battle is played to its end once (it is deterministic: the same game, set-up, seed and controllers
give the same battle, so only those are stored). Each side's robot or policy is wrapped to note, at
every question, the view of the side asked and how many events were logged so far: a frame. Stepping
through frames shows the map at that moment and the log up to it. An uploaded log has no views: its
frames are its events, shown as narration only.
"""
from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from ..core import registry
from ..core.errors import PaperRobotError
from ..core.events import Event, EventLog
from .live import end_view

MAX_FRAMES = 3000  # views noted per battle; later questions are frames without a new view
MAX_LOG_BYTES = 20_000_000


@dataclass
class Frame:
    seq: int
    side: str
    kind: str
    events: int      # events logged before this question
    turn: int
    view: Any = None


@dataclass
class Battle:
    game: str
    events: list[Event]
    frames: list[Frame]
    outcome: dict | None = None
    title: str = ""
    has_views: bool = True

    def turns(self) -> list[int]:
        return sorted({f.turn for f in self.frames})

    def frame_of_turn(self, turn: int) -> int:
        for number, frame in enumerate(self.frames):
            if frame.turn >= turn:
                return number
        return len(self.frames) - 1


class _Noting:
    """Wraps a side's robot or policy: notes a frame at each of its questions, then lets it decide."""

    def __init__(self, inner, frames: list[Frame], log: EventLog):
        self.inner, self.frames, self.log = inner, frames, log

    def decide(self, request):
        events = self.log.events
        turn = events[-1].turn if events else 0
        view = request.view if len(self.frames) < MAX_FRAMES else None
        self.frames.append(Frame(request.seq, request.side, request.kind, len(events), turn, view))
        return self.inner.decide(request)


def play_battle(game: str, setup: dict, seed: int, controllers: dict[str, str]) -> Battle:
    info = registry.info(game)
    log = EventLog()
    match = registry.new_match(game, seed, log, **setup)
    frames: list[Frame] = []
    wrapped = {}
    for side in info.sides:
        who = controllers.get(side, "robot")
        if who not in ("robot", "policy"):
            raise PaperRobotError(f"in a battle to watch every side is flown by 'robot' or 'policy', not '{who}'")
        wrapped[side] = _Noting(match.engine.controller(side, who), frames, log)
    steps = match.play(wrapped)
    try:
        next(steps)
        raise PaperRobotError(f"{game} asked a question nobody was set to answer")
    except StopIteration as stop:
        outcome = stop.value
    last_turn = log.events[-1].turn if log.events else (frames[-1].turn if frames else 0)
    last_view = end_view(match, info.robot_side)  # the position as the battle ended, seen by the robot's side
    if last_view is None:
        last_view = next((f.view for f in reversed(frames) if f.view is not None), None)
    frames.append(Frame(0, "", "end", len(log.events), last_turn, last_view))
    return Battle(game, list(log.events), frames, outcome.to_dict() if outcome is not None else None,
                  f"{info.title}, seed {seed}: " + ", ".join(f"{s} {controllers.get(s, 'robot')}" for s in info.sides))


def parse_log(text: str, name: str = "log") -> tuple[str, list[Event]]:
    """The game and events of an uploaded log; PaperRobotError (one line) naming the bad line."""
    if len(text) > MAX_LOG_BYTES:
        raise PaperRobotError(f"{name}: larger than {MAX_LOG_BYTES // 1_000_000} MB; not a battle log")
    events = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
            events.append(Event.from_dict(raw))
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
            raise PaperRobotError(f"{name}: line {number} is not a PaperRobot event; is this a log written by "
                                  f"'paperrobot battle --log'?") from None
    if not events or events[0].kind != "setup":
        raise PaperRobotError(f"{name}: not a PaperRobot game log (it does not start with a 'setup' event)")
    return str(events[0].data.get("game", "")), events


def log_battle(text: str, name: str = "log") -> Battle:
    game, events = parse_log(text, name)
    frames = [Frame(0, e.side, e.kind, n + 1, e.turn) for n, e in enumerate(events)]
    outcome = next((e.data for e in reversed(events) if e.kind == "result"), None)
    return Battle(game, events, frames, outcome, f"{name} ({game}, {len(events)} events)", has_views=False)


class Battles:
    """Battles in memory (LRU); rebuilt from their stored description when evicted."""

    def __init__(self, capacity: int = 8):
        self.capacity = capacity
        self.cache: OrderedDict[int, Battle] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, watch_id: int, build) -> Battle:
        with self.lock:
            battle = self.cache.get(watch_id)
            if battle is not None:
                self.cache.move_to_end(watch_id)
                return battle
        battle = build()
        with self.lock:
            self.cache[watch_id] = battle
            while len(self.cache) > self.capacity:
                self.cache.popitem(last=False)
        return battle
