"""Random legal play on both sides, through the registry and the contract's driver: every listed option and
every field-by-field form answer is accepted, every game ends, and the invariants hold."""
import random

import paperrobot
from paperrobot.core.events import EventLog

from .random_play import check_invariants, random_answer

CADETS = ("federation", "klingon", "romulan-eagle", "romulan-kr", "kzinti", "gorn", "orion")


def setups(count):
    rng = random.Random(2026)
    for index in range(count):
        scenario = rng.choice(["4", "5", "6", "6k", "6kr", "6k-kr", "duel"])
        setup = {"scenario": scenario, "max_turns": rng.randint(1, 3), "impulses": rng.choice([16, 16, 8])}
        if scenario == "duel":
            setup.update(robot_ship=rng.choice(CADETS), player_ship=rng.choice(CADETS))
        if scenario == "4":
            setup["robots"] = rng.randint(1, 3)
        yield index, setup


def test_random_legal_play_on_both_sides_keeps_the_rules():
    games = requests = 0
    for index, setup in setups(300):
        rng = random.Random(index)
        log = EventLog()
        match = paperrobot.new_game("sfb", seed=index, log=log, **setup)
        steps = match.play({"player": None, "robot": None})
        try:
            request = next(steps)
            while True:
                requests += 1
                assert request.options
                request.parse(request.default)  # the default is legal
                before = request.seq
                request = steps.send(random_answer(request, rng))
                assert request.seq > before and not request.error, f"{setup}: legal answer refused: {request.error}"
                assert requests < 200_000
        except StopIteration as stop:
            assert stop.value is not None and 1 <= stop.value.turns <= setup["max_turns"]
        check_invariants(match.engine, log.events)
        games += 1
    assert games == 300 and requests > 5000
