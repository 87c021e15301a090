"""Outcomes and event-log digests of many SFB and FC battles, one JSON line each: run it before and after a
speed-up and compare the files line for line (a speed-up must not change any game). Each battle is played
twice: with the event log off (the simulations' path) for its outcome, and with it on for the log's sha256.

Run: .venv/bin/python benchmarks/game_outcomes.py [GAMES] > outcomes.jsonl
"""
from __future__ import annotations

import hashlib
import json
import sys

import paperrobot
from paperrobot.core.contract import drive_all
from paperrobot.core.dice import derive_seed
from paperrobot.core.events import EventLog

SFB_SHIPS = ("federation", "gorn", "klingon", "kzinti", "orion", "romulan-eagle", "romulan-kr")
SETUPS = [  # (name, game, set-up, the other side's controller, share of GAMES)
    ("sfb-5-policy", "sfb", {"scenario": "5"}, "policy", 1.0),
    ("sfb-5-robot", "sfb", {"scenario": "5"}, "robot", 0.5),
    ("sfb-4-policy", "sfb", {"scenario": "4"}, "policy", 0.2),
    ("sfb-4-8imp", "sfb", {"scenario": "4", "impulses": 8}, "policy", 0.2),
    ("sfb-5-coin", "sfb", {"scenario": "5", "tiebreak": "coin"}, "policy", 0.2),
    ("sfb-6-policy", "sfb", {"scenario": "6"}, "policy", 0.2),
    ("sfb-6k-policy", "sfb", {"scenario": "6k"}, "policy", 0.2),
    ("sfb-6kr-robot", "sfb", {"scenario": "6kr"}, "robot", 0.2),
    ("sfb-6k-kr-policy", "sfb", {"scenario": "6k-kr", "plasma_f": "cth", "evade": "plasma"}, "policy", 0.2),
    *((f"sfb-duel-{r}-{p}", "sfb", {"scenario": "duel", "robot_ship": r, "player_ship": p}, "policy", 0.04)
      for r in SFB_SHIPS for p in SFB_SHIPS),
    ("fc-d7-fedca-policy", "fc", {"robot_ship": "d7", "player_ship": "federation-ca"}, "policy", 1.0),
    ("fc-d7-kzbc-robot", "fc", {"robot_ship": "d7", "player_ship": "kzinti-bc"}, "robot", 0.5),
    ("fc-kzbc-d7-policy", "fc", {"robot_ship": "kzinti-bc", "player_ship": "d7"}, "policy", 0.3),
    ("fc-d7-fedca-map", "fc", {"robot_ship": "d7", "player_ship": "federation-ca", "map": "42x30"}, "policy", 0.3),
]


def one(game: str, setup: dict, other: str, seed: int) -> dict:
    def play(log: EventLog):
        match = paperrobot.new_game(game, seed=seed, log=log, **setup)
        robot = match.engine.robot_side
        return drive_all(match, {side: ("robot" if side == robot else other) for side in match.sides})

    outcome = play(EventLog(enabled=False))
    log = EventLog(enabled=True)
    logged = play(log)
    text = "\n".join(json.dumps(e.to_json(), sort_keys=True) for e in log.events)
    return {"seed": seed, "outcome": outcome.to_dict(), "same": outcome.to_dict() == logged.to_dict(),
            "log": hashlib.sha256(text.encode()).hexdigest()}


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    for name, game, setup, other, share in SETUPS:
        for index in range(max(1, round(games * share))):
            row = one(game, setup, other, derive_seed(2, index))
            print(json.dumps({"setup": name, **row}, sort_keys=True), flush=True)


if __name__ == "__main__":
    main()
