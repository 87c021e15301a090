"""Scripted table sessions for the assistant tests and the question benchmark.

``reference(game, seed, setup)`` plays a battle the way ``battle`` does (the program's seeded dice, the robot on
its side) with the person's side answered through the game's assistant: a question the assistant asks is
answered with the heuristic captain's choice put in table words, and what the assistant fills in without asking
is taken as it is. It returns the typed lines, the dice rolled (in order), the event log and the outcome.
``table_session(...)`` then plays the same lines through ``paperrobot assist`` (cli/assist.py) with every die
typed in, as a person at a table would.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import paperrobot
from paperrobot.core import registry
from paperrobot.core.controller import Decision
from paperrobot.core.events import EventLog


def words(game: str, request, answer) -> str:
    """The heuristic captain's answer as a person types it at the assistant's question."""
    kind = request.kind
    if isinstance(answer, str) and request.option(answer) is not None and request.form is not None:
        answer = request.option(answer).value
    if game == "sfb":
        if kind == "energy":
            return f"{answer['speed']}" + (" cloak" if answer.get("cloak") else "")
        if kind == "fire":
            return " ".join(f"{w}={t}" for w, t in answer.items() if t not in (None, "none"))
        if kind == "launch":
            return " ".join(answer.get("launch", [])) or "n"
        if kind == "cloak":
            return "y" if answer == "cloak" else "n"
        return str(answer)
    if kind == "allocate":
        return str(answer["speed"])
    if kind in ("fire", "launch"):
        return " ".join(v for v in answer.values() if v not in (None, "", "none"))
    if kind == "defend":
        return ""  # Enter: the suggested defence (the captain's)
    return str(answer)


def captain(engine):
    """The game's heuristic captain, asked for the person's choices. Not ``engine.controller(side, "policy")``:
    that makes the side one the policy flies, and the engine then asks it fewer questions."""
    if hasattr(engine, "policy"):
        return engine.policy  # SFB: the engine's captain
    from paperrobot.fc.player import Policy
    return Policy()


class Person:
    """The person's side of a reference battle: the assistant's automatic answers, else the captain's choice
    typed in table words and read by the assistant's question."""

    def __init__(self, game: str, match):
        self.game, self.match = game, match
        self.assistant = registry.info(game).assistant()
        self.lines: list[str] = []
        self.asked: list[str] = []  # request kinds asked of the person

    def decide(self, request):
        answer = self.assistant.auto(request)
        if answer is None:
            policy = captain(self.match.engine)
            chosen = policy.decide(request).action
            chosen = request.encode(chosen) if not isinstance(chosen, (str, dict)) else chosen
            if isinstance(chosen, list) and self.game == "fc":
                from paperrobot.fc.requests import encode
                chosen = encode(request.kind, chosen)
            text = words(self.game, request, chosen)
            question = self.assistant.question(request)
            self.lines.append(text)
            self.asked.append(request.kind)
            answer = question.parse(text) if question is not None else chosen
        return Decision(answer)


@dataclass
class Reference:
    lines: list[str]
    asked: list[str]
    rolls: list[int]
    log: EventLog
    outcome: object
    answers: list = field(default_factory=list)


def reference(game: str, seed: int, **setup) -> Reference:
    log = EventLog()
    match = paperrobot.new_game(game, seed=seed, log=log, **setup)
    person = Person(game, match)
    from paperrobot.core.contract import drive_all
    outcome = drive_all(match, {"player": person, "robot": "robot"})
    return Reference(person.lines, person.asked, [r.value for r in match.engine.dice.rolls], log, outcome,
                     match.answers)


def table_session(game: str, ref: Reference, state, dice: str = "table", extra: list[str] | None = None, **setup):
    """Play ``ref``'s typed lines through ``paperrobot assist`` (its terminal loop), typing every die rolled in the
    reference battle (``dice="table"``); returns the session (its match, log) and everything it printed."""
    from paperrobot.cli.assist import AssistFront, AssistPlay
    lines, rolls = iter(list(extra or []) + ref.lines), iter(ref.rolls)
    session = None

    def typed(prompt: str) -> str:
        if session.request.kind == "roll":
            return str(next(rolls))
        return next(lines)

    log_front = AssistFront(registry.info(game).assistant())
    session = AssistPlay(game, log_front, lambda log: paperrobot.new_game(game, seed=999, log=log, dice=dice,
                                                                          **setup), state, input_fn=typed)
    outcome = session.run()
    return session, outcome
