"""Copies of a match: the driver side of ``Match.clone()`` and ``Match.fork()`` (core/contract.py; docs/contract.md
"Clone and fork").

A copy starts from the engine's snapshot at the match's last boundary (``Match.checkpoints`` on; else from a fresh
engine) and replays the few requests since: the answers recorded for sides asked from outside are fed again, the
sides flown in process decide again as they did (the same dice), up to the open request, where the copy waits
(``Match._parked``) until its ``play()`` resumes it. A fork then rolls fresh dice from its seed and re-draws what
the searching side cannot see.
"""
from __future__ import annotations

import random
from collections import deque
from typing import TYPE_CHECKING, Any

from .controller import Decision
from .errors import PaperRobotError
from .events import EventLog

if TYPE_CHECKING:
    from .contract import Match


def copy_match(match: Match, seed: int | None, side: str | None, quiet: bool = False) -> Match:
    """A copy of ``match`` at its open request: the same dice to come (``seed`` None), else fresh dice from ``seed``
    with what ``side`` cannot see re-drawn. ``quiet``: the copy logs nothing and holds none of the past events (a
    search's play-out, whose events nobody reads; the game plays the same with its log off)."""
    if match.dice == "table":
        raise PaperRobotError("a match played with table dice cannot be copied: its dice are yours, not the "
                              "program's; play with program dice to search or ask for hints")
    if match._parked is not None:
        raise PaperRobotError("copy this match's original, not a copy that has not been played on yet")
    if match._off_record:
        raise PaperRobotError("this match's open request was answered for a side flown in process (play(first=...)): "
                              "its answers do not say how it got here, so it cannot be copied")
    snapshot, seq, answered, told = match._mark or (None, 0, 0, 0)
    log = EventLog(enabled=match.log.enabled and not quiet)
    if not quiet:
        log.events = match.log.events[:told]
    log.emitted = told
    engine = (match._build(seed=match.seed, log=log, **match.setup) if snapshot is None
              else match.engine.restore(snapshot, log))
    copy = type(match)(match.game, match.setup, match.seed, match._build, log, match.dice, engine)
    copy._base = 0
    copy.answers = match.answers[:answered]  # the entries are shared: recorded answers are never changed in place
    copy.controllers = dict(match.controllers)
    copy.seq, copy._mark = seq, match._mark
    copy._told = dict(match._told)
    catch_up(copy, deque(match.answers[answered:]), seq, None if match.outcome is not None else match.seq)
    parked = copy._parked
    if seed is not None and parked is not None:
        copy.engine.dice.reseed(seed)
        if side is not None and _redraws(copy.engine):
            getattr(copy.engine, "redraw")(side, random.Random(seed))  # (optional: not in the Engine protocol)
            parked[1].refresh()
    return copy


# an engine class -> whether its engines redraw what a side cannot see (``redraw``): asked once per class, since a
# getattr that misses (most games have no redraw) raises and catches an AttributeError, every fork
_REDRAWS: dict[type, bool] = {}


def _redraws(engine: Any) -> bool:
    found = _REDRAWS.get(type(engine))
    if found is None:
        found = _REDRAWS[type(engine)] = getattr(engine, "redraw", None) is not None
    return found


def catch_up(match: Match, feed: deque[Any], seq: int, target: int | None) -> None:
    """Play a copy's engine from its start or snapshot to request ``target`` (to the end when None): the caller
    sides' recorded answers fed, the in-process sides deciding again as they did (same dice)."""
    engine = match.engine
    routes = {side: (engine.controller(side, who) if who in ("robot", "policy") else None)
              for side, who in match.controllers.items()}
    steps = engine.sequence()
    try:
        request = next(steps)
        while True:
            seq += 1
            request.seq = seq
            controller = routes[request.side]
            if controller is None:
                while feed and feed[0][1].startswith("@"):  # asides given at this request
                    entry = feed.popleft()
                    match._aside(request, entry[1], entry[3])
                    match.answers.append(list(entry))
            if seq == target:
                if feed:
                    raise PaperRobotError(f"the match's answers do not end at its open request {target}")
                match.seq, match._parked = seq, (steps, request)
                return
            if controller is None:
                if not feed:
                    raise PaperRobotError(f"request {seq} ({request.kind} of {request.side}) has no recorded answer")
                entry = feed.popleft()
                reasons, memory = match._told.get(len(match.answers), ((), None))
                decision = Decision(request.parse(entry[3]), reasons, memory)
                match.answers.append(list(entry))
                if reasons:
                    engine.record(request, decision)
            else:
                decision = controller.decide(request)
                action = request.parse(decision.action)
                if action is not decision.action:
                    decision = Decision(action, decision.reasons, decision.memory)
                if decision.reasons:
                    engine.record(request, decision)
            request = steps.send(decision)
    except StopIteration as stop:
        match.seq, match.outcome = seq, stop.value


__all__ = ["copy_match", "catch_up"]
