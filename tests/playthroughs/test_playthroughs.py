"""Recorded games of every game replay to the same event log (sha256 of its JSON lines) and the same outcome:
any change to a game's course shows here (re-record with ``python -m tests.playthroughs.record GAME``)."""
import json

import pytest

import paperrobot

from .record import GAMES, HERE, replay

CASES = [(game, name) for game in sorted(GAMES) for name in GAMES[game]]


def test_every_registered_game_has_recorded_playthroughs():
    assert set(GAMES) == set(paperrobot.games())


@pytest.mark.parametrize("game,name", CASES, ids=[f"{g}/{n}" for g, n in CASES])
def test_recorded_game_replays_to_the_same_log(game, name):
    data = json.loads((HERE / game / f"{name}.json").read_text())
    assert data["engine_version"] == paperrobot.game_info(game).engine_version
    match, got, request = replay(data)
    assert request is None, f"the game asks more after the recorded answers: {request!r}"
    outcome = match.outcome
    assert [outcome.winner, outcome.result, outcome.turns] == data["outcome"]
    assert got == data["log_sha256"], f"{game}/{name}: the course of the game changed (re-record only if meant)"
