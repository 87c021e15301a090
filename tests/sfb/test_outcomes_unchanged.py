"""The move to the game contract did not change the course of any game: battles recorded with the engine
before the contract (main at b138395: 1461507 with issue #10's 8-impulse fix; its ``play_battle`` outcome,
and the sha256 of the event log of ``new_game(...).run()``) give the same outcome through the registry and
the same event log now.

The recording covered 948 battles (300 robot-vs-policy and 100 robot-vs-robot of #5, 40/20 of #4, #6, 6k,
6kr, 6k-kr, the 8-impulse variant, the coin tie-break, the plasma-F and evade options, all 98 duel pairings);
this file keeps a sample of them."""
import hashlib
import json
from pathlib import Path

import pytest

from paperrobot import sfb
from paperrobot.core.events import EventLog

RECORDED = json.loads((Path(__file__).parent / "data" / "outcomes-before-contract.json").read_text())["games"]


@pytest.mark.parametrize("row", RECORDED, ids=lambda row: "-".join(str(x) for x in row["cfg"] if x not in (None, {})))
def test_same_outcome_and_log_as_before_the_contract(row):
    scenario, opponent, robot_ship, player_ship, options, seed = row["cfg"]
    outcome = sfb.play_battle(seed, scenario=scenario, opponent=opponent, robot_ship=robot_ship,
                              player_ship=player_ship, options=options or None)
    assert outcome.to_dict() == row["outcome"]
    log = EventLog()
    sfb.new_game(scenario, seed=seed, robot_ship=robot_ship, player_ship=player_ship, opponent=opponent, log=log,
                 options=options or None).run()
    assert hashlib.sha256(log.to_jsonl().encode()).hexdigest() == row["log"]
