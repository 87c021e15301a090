"""Recorded games of every game: seed, set-up, who flies each side, the person's answers, and the sha256 of the
event log (JSON lines). ``test_playthroughs.py`` replays them through the registry and compares the digests, so
any change to the course of a game shows (OpenSpiel's playthroughs). Re-record after a deliberate change, with
the game's engine version bumped:

    .venv/bin/python -m tests.playthroughs.record [GAME ...]
"""
from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

import paperrobot
from paperrobot.core.events import EventLog
from tests.random_answer import random_answer

HERE = Path(__file__).parent
SMALL = {"imperial": "gladiator-i,tie-fighter*2", "rebel": "cr90-a,nebulon-b-escort,x-wing,a-wing", "table": "small"}
ROBOT_VS_PERSON = {"robot": "robot", "player": None}

# game: {name: (seed, set-up, controllers (None: the person), how the person answers: default, random or none)}
GAMES = {
    "sfb": {
        "encounter-person-defaults": (3, {"scenario": "5"}, ROBOT_VS_PERSON, "default"),
        "dakota-person-random": (5, {"scenario": "4", "robots": 2, "max_turns": 6}, ROBOT_VS_PERSON, "random"),
        "enemy-unseen-romulan-person": (4, {"scenario": "6"}, ROBOT_VS_PERSON, "default"),
        "duel-gorn-kr-robot-vs-policy": (7, {"scenario": "duel", "robot_ship": "romulan-kr", "player_ship": "gorn"},
                                         {"robot": "robot", "player": "policy"}, "none"),
        "both-sides-person-random": (2, {"scenario": "duel", "robot_ship": "kzinti", "player_ship": "romulan-eagle",
                                         "max_turns": 4}, {"robot": None, "player": None}, "random"),
    },
    "fc": {
        "d7-vs-person-defaults": (3, {}, ROBOT_VS_PERSON, "default"),
        "kzinti-vs-person-random": (8, {"robot_ship": "kzinti-bc", "player_ship": "federation-ca"},
                                    ROBOT_VS_PERSON, "random"),
        "d7-vs-person-fixed-map": (5, {"map": "42x30", "player_ship": "kzinti-bc"}, ROBOT_VS_PERSON, "random"),
        "robot-vs-policy": (11, {}, {"robot": "robot", "player": "policy"}, "none"),
        "both-sides-person-random": (2, {"robot_ship": "kzinti-bc", "player_ship": "d7"},
                                     {"robot": None, "player": None}, "random"),
    },
    "armada": {
        "standard-random-rebel": (11, {}, {"imperial": "robot", "rebel": None}, "random"),
        "standard-default-rebel-2015-evade": (14, {"evade_close": False}, {"imperial": "robot", "rebel": None},
                                              "default"),
        "small-random-rebel": (12, SMALL, {"imperial": "robot", "rebel": None}, "random"),
        "small-both-sides-random": (13, SMALL, {"imperial": None, "rebel": None}, "random"),
    },
}


def digest(log: EventLog) -> str:
    return hashlib.sha256(log.to_jsonl().encode()).hexdigest()


def person(game: str, how: str, seed: int):
    rng = random.Random(seed)
    if game == "sfb":
        from tests.sfb.random_play import random_answer as answer_sfb  # never disengages at once
        choose = answer_sfb
    else:
        choose = random_answer
    return lambda request: request.default if how == "default" else choose(request, rng)


def record(game: str, name: str) -> dict:
    seed, setup, controllers, how = GAMES[game][name]
    log = EventLog()
    match = paperrobot.new_game(game, seed=seed, log=log, **setup)
    steps = match.play(controllers)
    answer = person(game, how, seed)
    try:
        request = next(steps)
        while True:
            request = steps.send(answer(request))
            assert not request.error, request.error
    except StopIteration as stop:
        outcome = stop.value
    return {"game": game, "engine_version": paperrobot.game_info(game).engine_version, "seed": seed,
            "setup": setup, "controllers": {s: (c or "person") for s, c in controllers.items()},
            "answers": match.answers, "outcome": [outcome.winner, outcome.result, outcome.turns],
            "log_sha256": digest(log)}


def replay(data: dict):
    """(the match, the digest of its event log, the open request or None) when the recorded answers are replayed."""
    log = EventLog()
    match = paperrobot.new_game(data["game"], seed=data["seed"], log=log, **data["setup"])
    controllers = {s: (None if c == "person" else c) for s, c in data["controllers"].items()}
    _, request = match.replay([list(a) for a in data["answers"]], controllers)
    return match, digest(log), request


def main(games: list[str]) -> None:
    for game in games or sorted(GAMES):
        for name in GAMES[game]:
            data = record(game, name)
            (HERE / game / f"{name}.json").write_text(json.dumps(data, indent=0) + "\n")
            print(f"{game}/{name}: {len(data['answers'])} answers, {data['outcome']}, {data['log_sha256'][:12]}")


if __name__ == "__main__":
    main(sys.argv[1:])
