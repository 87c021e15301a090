"""The move onto the game contract left the course of every game unchanged.

``data/outcomes-main.json`` holds the outcomes (winner, result, turns, internal damage) of 300 robot-vs-policy,
100 robot-vs-robot and 50 fixed-map games played by the engine before the contract (``fc.play`` of main at
5b4ea00, which has the fidelity fixes FC.5B and FC.3B0; the same check against 1461507, before those fixes, also
passed before the merge). The same seeds through the registry must end the same way: same dice order, same decisions.
A sample runs by default; FC_ALL_OUTCOMES=1 runs all 450.
"""
import json
import os
from pathlib import Path

import pytest

from paperrobot.fc import play

RECORDED = json.loads((Path(__file__).parent / "data" / "outcomes-main.json").read_text())
KEYS = sorted(RECORDED, key=lambda k: (k.split("/")[0], int(k.split("/")[1])))
if not os.environ.get("FC_ALL_OUTCOMES"):
    KEYS = [k for k in KEYS if int(k.split("/")[1]) % 5 == 0]

SETUPS = {"policy": {}, "robot": {"opponent": "robot", "player_ship": "kzinti-bc"},
          "map": {"robot_ship": "kzinti-bc", "map": "42x30"}}


@pytest.mark.parametrize("key", KEYS)
def test_same_outcome_as_before_the_contract(key):
    kind, seed = key.split("/")
    o = play(int(seed), **SETUPS[kind])
    assert json.loads(json.dumps([o.winner, o.result, o.turns, o.metrics])) == RECORDED[key]
