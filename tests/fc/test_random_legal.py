"""Random legal play on both sides: every listed option and every form value chosen field by field from
``form.choices`` is accepted, every game ends, and the rules' invariants hold after every answer."""
import random
from collections import Counter

import pytest

import paperrobot
from paperrobot.core.events import EventLog

from tests.random_answer import random_answer

GAMES = 100


def _check(game, request, fired):
    for s in game.ships.values():
        assert s.energy >= -1e-9 and s.battery >= -1e-9, "negative energy"
        assert all(0 <= b <= m for b, m in zip(s.shields, s.shield_max)), "shield boxes out of bounds"
        assert all(0 <= n <= s.box_max(k) for k, n in s.boxes.items()), "system boxes out of bounds"
        assert all(r.ammo >= 0 for r in s.racks) and s.add_shots >= 0 and s.reloads >= 0
        if game.board is not None and not s.disengaged:
            assert game.board.contains(s.pos), "a ship off the fixed map"
    assert not game.ships[request.side].destroyed, "a destroyed ship is asked to act"
    assert all(n == 1 for n in fired.values()), "a weapon fired twice in one turn"


@pytest.mark.parametrize("seed", range(GAMES))
def test_random_legal_play_on_both_sides(seed):
    rng = random.Random(seed)
    fired = Counter()

    def seen(event):
        if event.kind == "fired":
            fired[(event.side, event.data["weapon"], event.turn)] += 1

    log = EventLog(enabled=False)
    log.listeners.append(seen)
    setup = {"map": "42x30"} if seed % 3 == 0 else {}
    if seed % 2:
        setup.update(robot_ship="kzinti-bc", player_ship="d7")
    match = paperrobot.new_game("fc", seed=seed, log=log, **setup)
    steps = match.play({side: None for side in match.sides})
    answered = 0
    try:
        request = next(steps)
        while True:
            _check(match.engine, request, fired)
            assert request.options
            request.parse(request.default)  # the default is legal
            before = request.seq
            request = steps.send(random_answer(request, rng))
            assert request.seq > before and not request.error, f"a legal answer was refused: {request.error}"
            answered += 1
            assert answered < 20000, "no end"
    except StopIteration as stop:
        outcome = stop.value
    assert outcome is not None and outcome.result in ("destroyed", "disengaged", "points", "time")
    assert all(n == 1 for n in fired.values())
