"""Recorded FC games replay to the same event log (sha256 of its JSON lines) and the same outcome."""
import json
from pathlib import Path

import pytest

import paperrobot
from paperrobot.core.events import EventLog

from .record import GAMES, HERE, digest


@pytest.mark.parametrize("name", sorted(GAMES))
def test_recorded_game_replays_to_the_same_log(name):
    data = json.loads((HERE / f"{name}.json").read_text())
    assert data["engine_version"] == paperrobot.game_info("fc").engine_version
    log = EventLog()
    match = paperrobot.new_game("fc", seed=data["seed"], log=log, **data["setup"])
    controllers = {s: (None if c == "person" else c) for s, c in data["controllers"].items()}
    steps, request = match.replay(data["answers"], controllers)
    assert request is None, f"the game asks more after the recorded answers: {request!r}"
    outcome = match.outcome
    assert [outcome.winner, outcome.result, outcome.turns] == data["outcome"]
    assert digest(log.to_jsonl()) == data["log_sha256"]
