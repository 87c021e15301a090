"""Recorded armada games replay to the same event log (tests/playthroughs/armada/record.py re-records them)."""
import json
from pathlib import Path

import pytest

from tests.playthroughs.armada.record import GAMES, replay

HERE = Path(__file__).parent


@pytest.mark.parametrize("name", sorted(GAMES))
def test_recorded_game_replays_to_the_same_log(name):
    data = json.loads((HERE / f"{name}.json").read_text())
    got, open_request = replay(data)
    assert open_request is None, "the recorded answers no longer finish the game"
    assert got == data["digest"], f"{name}: the course of the game changed (re-record only if that was meant)"
