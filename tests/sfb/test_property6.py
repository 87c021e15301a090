"""Property: every pairing of the seven cadet ships, robot vs robot and robot vs policy, finishes without
error, keeps the invariants and replays identically; a random person flying plasma/cloak ships too."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from paperrobot import sfb
from paperrobot.core.events import EventLog

from .test_property import RandomCaptain, check

CADETS = ("federation", "klingon", "romulan-eagle", "romulan-kr", "kzinti", "gorn", "orion")
PAIRS = [(r, p) for r in CADETS for p in CADETS]


def check6(game):
    for torp in game.plasmas:
        assert 0 <= torp.moves <= torp.ptype.endurance and torp.strength >= 0
    for ship in game.ships:
        if ship.robot and ship.cloak is not None:
            assert not ship.cloak.cloaked  # the robot never cloaks
        for w in ship.weapons:
            if w.tube is not None:
                assert 0 <= w.tube.state <= 4


@pytest.mark.parametrize("opponent", ["robot", "policy"])
@pytest.mark.parametrize("robot_ship,player_ship", PAIRS)
def test_every_pairing_finishes_and_replays(robot_ship, player_ship, opponent):
    seed = CADETS.index(robot_ship) * 7 + CADETS.index(player_ship)
    log = EventLog()
    game = sfb.new_game("duel", seed=seed, robot_ship=robot_ship, player_ship=player_ship, opponent=opponent,
                        log=log)
    outcome = game.run()
    check(game, outcome)
    check6(game)
    again = EventLog()
    sfb.new_game("duel", seed=seed, robot_ship=robot_ship, player_ship=player_ship, opponent=opponent,
                 log=again).run()
    assert again.to_jsonl() == log.to_jsonl()
    assert sfb.play_battle(seed, "duel", opponent, robot_ship, player_ship) == outcome


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), scenario=st.sampled_from(["6", "6k", "6kr", "6k-kr"]),
       opponent=st.sampled_from(["policy", "robot"]), plasma_f=st.sampled_from(["seed", "cth"]),
       evade=st.sampled_from(["cloak", "plasma"]))
def test_scenario_six_battles_keep_invariants(seed, scenario, opponent, plasma_f, evade):
    options = {"plasma_f": plasma_f, "evade": evade}
    game = sfb.new_game(scenario, seed=seed, opponent=opponent, log=EventLog(), options=options)
    outcome = game.run()
    check(game, outcome)
    check6(game)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), ship=st.sampled_from(["romulan-eagle", "romulan-kr", "gorn"]),
       robot=st.sampled_from(["federation", "klingon", "romulan-kr", "gorn"]))
def test_random_person_with_plasma_and_cloak(seed, ship, robot):
    game = sfb.new_game("duel", seed=seed, player=RandomCaptain(seed), player_ship=ship, robot_ship=robot,
                        log=EventLog())
    check(game, game.run())
    check6(game)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), robot_ship=st.sampled_from(CADETS), player_ship=st.sampled_from(CADETS),
       opponent=st.sampled_from(["policy", "robot"]), impulses=st.sampled_from([16, 8]))
def test_random_pairings_keep_invariants(seed, robot_ship, player_ship, opponent, impulses):
    game = sfb.new_game("duel", seed=seed, robot_ship=robot_ship, player_ship=player_ship, opponent=opponent,
                        log=EventLog(), options={"impulses": impulses})
    check(game, game.run())
    check6(game)
