"""Recorded FC games: seed, set-up, who flies each side, the person's answers, and the sha256 of the event
log (JSON lines). ``test_playthroughs.py`` replays them through the registry and compares the digests, so any
change to the course of a game shows. Re-record (after a deliberate change, with the engine version bumped):

    .venv/bin/python -m tests.playthroughs.fc.record
"""
from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import paperrobot
from paperrobot.core.events import EventLog

HERE = Path(__file__).parent

# name: (seed, set-up, controllers (None: the person), how the person answers)
GAMES = {
    "d7-vs-person-defaults": (3, {}, {"robot": "robot", "player": None}, "default"),
    "kzinti-vs-person-random": (8, {"robot_ship": "kzinti-bc", "player_ship": "federation-ca"},
                                {"robot": "robot", "player": None}, "random"),
    "d7-vs-person-fixed-map": (5, {"map": "42x30", "player_ship": "kzinti-bc"}, {"robot": "robot", "player": None},
                               "random"),
    "robot-vs-policy": (11, {}, {"robot": "robot", "player": "policy"}, "none"),
    "both-sides-person-random": (2, {"robot_ship": "kzinti-bc", "player_ship": "d7"},
                                 {"robot": None, "player": None}, "random"),
}


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def person(how: str, seed: int):
    from tests.fc.random_play import random_answer
    rng = random.Random(seed)

    def answer(request):
        return request.default if how == "default" else random_answer(request, rng)
    return answer


def record(name: str) -> dict:
    seed, setup, controllers, how = GAMES[name]
    log = EventLog()
    match = paperrobot.new_game("fc", seed=seed, log=log, **setup)
    steps = match.play(controllers)
    answer = person(how, seed)
    try:
        request = next(steps)
        while True:
            request = steps.send(answer(request))
            assert not request.error, request.error
    except StopIteration as stop:
        outcome = stop.value
    return {"game": "fc", "engine_version": paperrobot.game_info("fc").engine_version, "seed": seed,
            "setup": setup, "controllers": {s: (c or "person") for s, c in controllers.items()},
            "answers": match.answers, "outcome": [outcome.winner, outcome.result, outcome.turns],
            "log_sha256": digest(log.to_jsonl())}


def main() -> None:
    for name in GAMES:
        data = record(name)
        (HERE / f"{name}.json").write_text(json.dumps(data, indent=0) + "\n")
        print(f"{name}: {len(data['answers'])} answers, {data['outcome']}, {data['log_sha256'][:12]}")


if __name__ == "__main__":
    main()
