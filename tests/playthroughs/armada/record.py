"""Recorded armada games: each is a seed, a set-up, who flies each side and the person's answers; the test
replays the answers and compares a digest of the event log (JSON lines), so any change to the course of a
game shows. Re-record (after a change meant to alter games; bump the engine version too) with:

    .venv/bin/python -m tests.playthroughs.armada.record
"""
from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import paperrobot
from paperrobot.core.events import EventLog

HERE = Path(__file__).parent
SMALL = {"imperial": "gladiator-i,tie-fighter*2", "rebel": "cr90-a,nebulon-b-escort,x-wing,a-wing", "table": "small"}
# name: (seed, set-up, controllers (None: the person), how the person answers: "random" or "default")
GAMES = {
    "standard-random-rebel": (11, {}, {"imperial": "robot", "rebel": None}, "random"),
    "standard-default-rebel-2015-evade": (14, {"evade_close": False}, {"imperial": "robot", "rebel": None}, "default"),
    "small-random-rebel": (12, SMALL, {"imperial": "robot", "rebel": None}, "random"),
    "small-both-sides-random": (13, SMALL, {"imperial": None, "rebel": None}, "random"),
}


def digest(log: EventLog) -> str:
    return hashlib.sha256(log.to_jsonl().encode()).hexdigest()


def record(name: str) -> dict:
    seed, setup, controllers, how = GAMES[name]
    log = EventLog(enabled=True)
    match = paperrobot.new_game("armada", seed=seed, log=log, **setup)
    rng = random.Random(seed)
    steps = match.play(controllers)
    try:
        request = next(steps)
        while True:
            request = steps.send(rng.choice(request.options).key if how == "random" else request.default)
    except StopIteration as stop:
        outcome = stop.value
    return {"game": "armada", "seed": seed, "setup": match.setup, "controllers": controllers,
            "answers": match.answers, "outcome": outcome.to_dict(), "digest": digest(log)}


def replay(data: dict) -> tuple[str, object]:
    """The digest of the event log when the recorded answers are replayed, and the open request (None: ended)."""
    log = EventLog(enabled=True)
    match = paperrobot.new_game(data["game"], seed=data["seed"], log=log, **data["setup"])
    _, request = match.replay([list(a) for a in data["answers"]], data["controllers"])
    return digest(log), request


def main() -> None:
    for name in GAMES:
        data = record(name)
        (HERE / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n")
        print(f"{name}: {len(data['answers'])} answers, {data['outcome']['winner']} wins, digest {data['digest'][:12]}")


if __name__ == "__main__":
    main()
