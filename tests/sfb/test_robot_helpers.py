"""Pure helpers of the robot's scenario #6 rules (SFB.R8 cadence, SFB.R.CLOAK3 evasion geometry)."""
from __future__ import annotations

from paperrobot.core.hexgrid import distance, facing_index as F, parse
from paperrobot.sfb.robot_cloak import best_speed, evade_choice, r8_turn


def test_r8_cadence_is_turns_1_4_7():
    assert [t for t in range(1, 14) if r8_turn(t)] == [1, 4, 7, 10, 13]  # SFB.R8


def test_evade_goes_straight_when_that_gains_most():
    # torpedo dead astern: straight ahead opens the range the most (SFB.R.CLOAK3)
    steer, facing, dest = evade_choice(parse("1010"), F("A"), True, parse("1013"))
    assert steer == "straight" and dest == parse("1009")


def test_evade_turns_away_from_a_torpedo_ahead():
    ship, threat = parse("1010"), parse("1007")  # torpedo 3 hexes ahead
    steer, facing, dest = evade_choice(ship, F("A"), True, threat)
    assert steer in ("left", "right") and distance(dest, threat) == 3
    # tie between the turns goes right (documented)
    assert steer == "right"


def test_evade_respects_turn_mode_and_map_veto():
    ship, threat = parse("1010"), parse("1007")
    assert evade_choice(ship, F("A"), False, threat)[0] == "straight"  # cannot turn yet
    veto_right = lambda steer, facing, dest: steer != "right"
    assert evade_choice(ship, F("A"), True, threat, veto_right)[0] == "left"


def test_best_speed_is_top_speed_less_warp_damage():
    assert best_speed(16, 0) == 16 and best_speed(16, 5) == 11 and best_speed(8, 20) == 0
