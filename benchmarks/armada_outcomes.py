"""Outcomes and event-log digests of many Armada battles, one JSON line each: run it before and after a change
to the engine and compare the files (a speed-up must not change any game).

Run: .venv/bin/python benchmarks/armada_outcomes.py [GAMES] > outcomes.jsonl
"""
from __future__ import annotations

import hashlib
import json
import sys

import paperrobot
from paperrobot.core.contract import drive_all
from paperrobot.core.dice import derive_seed
from paperrobot.core.events import EventLog

SETUPS = {
    "standard": {},
    "small": dict(imperial="gladiator-i,tie-fighter*2", rebel="cr90-a,nebulon-b-escort,x-wing,a-wing", table="small"),
    "2015": dict(evade_close=False),
}


def one(seed: int, setup: dict) -> dict:
    log = EventLog(enabled=True)
    outcome = drive_all(paperrobot.new_game("armada", seed=seed, log=log, **setup),
                        {"imperial": "robot", "rebel": "policy"})
    text = "\n".join(json.dumps(e.to_json(), sort_keys=True) for e in log.events)
    return {"seed": seed, "winner": outcome.winner, "result": outcome.result, "turns": outcome.turns,
            "metrics": outcome.metrics, "log": hashlib.sha256(text.encode()).hexdigest()}


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    for name, setup in SETUPS.items():
        count = games if name == "standard" else games // 4
        for index in range(count):
            row = one(derive_seed(1, index), setup)
            print(json.dumps({"setup": name, **row}, sort_keys=True), flush=True)


if __name__ == "__main__":
    main()
