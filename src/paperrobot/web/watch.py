"""Battles to watch: robot against robot or policy from a seed, or an uploaded ``--log`` file, as frames.

A battle is played to its end once (it is deterministic: the same game, set-up, seed and controllers
give the same battle, so only those are stored). Each side's robot or policy is wrapped to note, at
every question, the view of the side asked and how many events were logged so far: a frame. Stepping
through frames shows the map at that moment and the log up to it.

An uploaded log holds events, not views. Its first event (``setup``) names the game and the seed and
shows the set-up; the battle is played again from those, with a robot or the policy on each side, and
kept only if it logs exactly the uploaded events (then the map is drawn as for any battle). Otherwise
(a person's game, a log of another version, ship files of one's own) its frames are its events, shown
as narration, and one line on the page says why there is no map.
"""
from __future__ import annotations

import itertools
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from ..core import registry
from ..core.errors import PaperRobotError
from ..core.events import Event, EventLog
from .live import end_view

MAX_FRAMES = 3000  # views noted per battle; later questions are frames without a new view
MAX_LOG_BYTES = 2_000_000  # an upload's cap: 15 times the largest whole battle measured (sfb #6, 133 kB)
MAX_CACHED_EVENTS = 60_000  # events kept in memory over all cached battles (~1.2 kB each), besides the newest


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
    note: str = ""  # why an uploaded log has no map

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


class _Differs(Exception):
    """A replayed battle logged an event other than the uploaded log's (stops the replay at once)."""


def _expecting(expected: list[dict]):
    """An event-log listener that stops a replay at its first event unlike the uploaded log's."""
    count = [0]

    def check(event: Event) -> None:
        n = count[0]
        count[0] += 1
        if n >= len(expected) or json.loads(event.to_json()) != expected[n]:
            raise _Differs(n + 1)
    return check


def play_battle(game: str, setup: dict, seed: int, controllers: dict[str, str],
                expected: list[dict] | None = None) -> Battle:
    """Play a battle to its end, noting frames. ``expected``: the uploaded log's events (as JSON), which the
    battle must log exactly (``_Differs`` at the first that differs)."""
    info = registry.info(game)
    log = EventLog()
    if expected is not None:
        log.listeners.append(_expecting(expected))
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
    """An uploaded log as a battle: replayed from its set-up and seed where that gives exactly its events (a map
    at every step), else its events as narration with a one-line note saying why there is no map."""
    game, events = parse_log(text, name)
    battle, why = replay_log(game, events)
    if battle is not None:
        battle.title = f"{name}: {battle.title} (replayed from the log's set-up and seed)"
        return battle
    frames = [Frame(0, e.side, e.kind, n + 1, e.turn) for n, e in enumerate(events)]
    outcome = next((e.data for e in reversed(events) if e.kind == "result"), None)
    return Battle(game, events, frames, outcome, f"{name} ({game}, {len(events)} events)", has_views=False,
                  note=f"No map: {why}; the log's narration is shown.")


def replay_log(game: str, events: list[Event]) -> tuple[Battle | None, str]:
    """The battle of a log, played again from its ``setup`` event: (battle, "") if a set-up read from that event
    and a robot or the policy on each side log exactly its events; else (None, why not, in a few words)."""
    try:
        info = registry.info(game)
    except PaperRobotError:
        return None, f"this program does not know the game '{game[:30]}'"
    head = events[0].data
    seed = head.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 63:
        return None, "the log does not give its seed"
    expected = [json.loads(e.to_json()) for e in events]
    tried, furthest = 0, 0
    for setup in _setups_of(info, head):
        for who in _controllers_of(info, head):
            tried += 1
            try:
                return play_battle(game, setup, seed, who, expected), ""
            except _Differs as differs:
                furthest = max(furthest, differs.args[0])
            except Exception:  # a set-up the engine refuses, or a replay stopped inside the engine: not this one
                continue
    if not tried:
        return None, "its set-up event does not give a set-up this program accepts"
    where = f" (they part at event {furthest})" if furthest > 1 else ""
    return None, (f"playing seed {seed} again from the log's set-up, with a robot or the policy on each side, does "
                  f"not log the same events{where}: a person's game, a log of another version, or ship files of "
                  f"your own")


def _setups_of(info, head: dict) -> list[dict]:
    """Set-ups of the registry's options read from a ``setup`` event: the options it names, at its top level or
    under ``options``/``setup`` (fleet lists as 'a,b' text); then also each side's ship (``<side>_ship``) from
    its ``ships``. Only the set-ups the registry accepts, each once."""
    places = [head] + [head[k] for k in ("options", "setup") if isinstance(head.get(k), dict)]
    named = {}
    for option in info.options:
        for place in places:
            value = place.get(option.name)
            if value is None:
                continue
            if isinstance(value, list) and all(isinstance(v, str) for v in value):
                value = ",".join(value)
            named[option.name] = value
            break
    with_ships = dict(named)
    ships = head.get("ships")
    if isinstance(ships, dict):
        for key, ship in ships.items():  # {side: spec} (fc) or {name: {"side", "spec"}} (sfb)
            side, spec = (ship.get("side"), ship.get("spec")) if isinstance(ship, dict) else (key, ship)
            option = f"{side}_ship"
            if isinstance(spec, str) and option not in named and any(o.name == option for o in info.options):
                with_ships[option] = spec
    out = []
    for setup in (named, with_ships):
        try:
            checked = info.check_setup(setup)
        except PaperRobotError:
            continue
        if checked not in out:
            out.append(checked)
    return out


def _controllers_of(info, head: dict) -> list[dict[str, str]]:
    """Who may have flown each side: the robot on its side and the policy on the others first (what 'battle'
    does by default), then every other mix; mixes giving the other sides what the log names (``opponent``)
    before the rest."""
    others = [s for s in info.sides if s != info.robot_side]
    mixes = [{info.robot_side: robot, **dict(zip(others, kinds))} for robot in ("robot", "policy")
             for kinds in itertools.product(("policy", "robot"), repeat=len(others))]
    hint = head.get("opponent")
    return sorted(mixes, key=lambda mix: any(mix[s] != hint for s in others)) if hint in ("robot", "policy") else mixes


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
        self.put(watch_id, battle)
        return battle

    def put(self, watch_id: int, battle: Battle) -> None:
        """Keep ``battle`` as the newest; drop the oldest past ``capacity`` battles or ``MAX_CACHED_EVENTS`` events."""
        with self.lock:
            self.cache[watch_id] = battle
            self.cache.move_to_end(watch_id)
            while len(self.cache) > 1 and (len(self.cache) > self.capacity or
                                           sum(len(b.events) for b in self.cache.values()) > MAX_CACHED_EVENTS):
                self.cache.popitem(last=False)
