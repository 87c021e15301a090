"""Robot steps 1A-1C and 2 (start of turn, acceleration), every row of every die table."""
import pytest

from paperrobot.fc import geometry as geo

from .helpers import A, D, ask, drone, rules, setup


@pytest.mark.parametrize("dice,speed", [((1, 1), 8), ((2, 2), 8), ((2, 3), 16), ((4, 6), 16), ((5, 6), 24),
                                        ((6, 6), 24)])
def test_1a_baseline_speed_table(dice, speed):
    game, robot, d = setup(*dice)
    decision = ask(game, robot, "allocate")
    assert decision.action["speed"] == speed
    assert rules(decision)[0] == "FC.1A"
    assert [r.value for r in decision.reasons[0].rolls] == list(dice)
    assert d.pending == 0


def test_1a_drops_to_next_lower_speed_without_power():
    game, robot, _ = setup(6, 6)
    r = game.ships["robot"]
    r.energy, r.battery = 20.0, 0.0
    decision = ask(game, robot, "allocate")
    assert decision.action["speed"] == 16
    assert "FC.1A" in rules(decision) and "FC.GEN.POWER" in rules(decision)


def test_1b_no_roll_when_no_shield_damaged():
    game, robot, d = setup(3, 3)  # only the 1A dice: a 1B roll would fail the strict dice
    assert "FC.1B" not in rules(ask(game, robot, "allocate"))


@pytest.mark.parametrize("roll", [1, 2])
def test_1b_weakest_shield(roll):
    game, robot, _ = setup(3, 3, roll)
    r = game.ships["robot"]
    r.shields[1], r.shields[4] = 21, 15
    decision = ask(game, robot, "allocate")
    assert decision.action["regen"] == [5, 5]
    assert "FC.1B" in rules(decision)


def test_1b_spills_to_next_weakest_when_weakest_has_one_box_missing():
    game, robot, _ = setup(3, 3, 1)
    r = game.ships["robot"]
    r.shields[0], r.shields[2] = 28, 21  # #3 is weakest with one box down; #1 has two down
    assert ask(game, robot, "allocate").action["regen"] == [3, 1]


@pytest.mark.parametrize("roll", [3, 4])
def test_1b_shield_facing_enemy(roll):
    game, robot, _ = setup(3, 3, roll)  # enemy dead ahead: shield #1
    r = game.ships["robot"]
    r.shields[0], r.shields[4] = 20, 5
    decision = ask(game, robot, "allocate")
    assert decision.action["regen"] == [1, 1]
    assert "FC.1B" in rules(decision)


def test_1b_split_shield_one_box_each():
    game, robot, _ = setup(3, 3, 3, rpos=(10, 10), rface=A, ppos=(11, 8))
    r = game.ships["robot"]
    assert geo.shields_toward(r, game.ships["player"].pos) == (1, 2)
    r.shields[0], r.shields[1] = 20, 10
    assert sorted(ask(game, robot, "allocate").action["regen"]) == [1, 2]


@pytest.mark.parametrize("roll", [5, 6])
def test_1b_no_regeneration(roll):
    game, robot, _ = setup(3, 3, roll)
    game.ships["robot"].shields[0] = 10
    decision = ask(game, robot, "allocate")
    assert decision.action["regen"] == []
    assert "FC.1B" in rules(decision)


def test_1b_no_power_no_roll():
    game, robot, d = setup(2, 2)  # speed 8 uses all 8 points: no roll for 1B
    r = game.ships["robot"]
    r.energy, r.battery = 8.0, 0.0
    r.shields[0] = 10
    decision = ask(game, robot, "allocate")
    assert decision.action == {"speed": 8, "regen": [], "hold": [], "photons": []}
    assert d.pending == 0


def test_1b_power_for_one_box_only():
    game, robot, _ = setup(2, 2, 1)
    r = game.ships["robot"]
    r.energy, r.battery = 11.0, 0.0
    r.shields[0] = 10
    decision = ask(game, robot, "allocate")
    assert decision.action["regen"] == [1]


def held(game, approach=0):
    # robot faces D; a drone that came from direction A (behind) hits shield #4
    return drone(game, "p1", (10, 10), held_by="robot", approach=approach)


@pytest.mark.parametrize("roll,hold", [(1, False), (2, False), (3, False), (4, False), (5, True), (6, True)])
def test_1c_held_drone_table(roll, hold):
    game, robot, _ = setup(3, 3, roll, ppos=(10, 20))
    held(game)
    decision = ask(game, robot, "allocate")
    assert (decision.action["hold"] == ["p1"]) is hold
    assert "FC.1C" in rules(decision)


@pytest.mark.parametrize("roll", [1, 2, 3, 4])
def test_1c_zero_shield_keeps_holding(roll):
    game, robot, _ = setup(3, 3, 5, roll, ppos=(10, 20))  # 5: the 1B roll (no regeneration)
    held(game)
    game.ships["robot"].shields[3] = 0
    decision = ask(game, robot, "allocate")
    assert decision.action["hold"] == ["p1"]
    assert "zero-strength" in decision.reasons[-1].text


def test_1c_enemy_near_on_same_shield_keeps_holding_on_3_4():
    game, robot, _ = setup(3, 3, 4, ppos=(10, 13))  # enemy 3 hexes ahead: shield #1
    held(game, approach=D)  # came from ahead: shield #1 too
    decision = ask(game, robot, "allocate")
    assert decision.action["hold"] == ["p1"]
    assert rules(decision)[-1] == "FC.1C"


def test_1c_never_release_without_phasers():
    game, robot, _ = setup(3, 3, 1, ppos=(10, 20))
    held(game)
    for w in game.ships["robot"].weapons:
        if w.phaser:
            w.alive = False
    assert ask(game, robot, "allocate").action["hold"] == ["p1"]


def test_1c_release_without_power_and_no_roll():
    game, robot, d = setup(2, 2, ppos=(10, 20))
    held(game)
    r = game.ships["robot"]
    r.energy, r.battery = 8.0, 0.0
    decision = ask(game, robot, "allocate")
    assert decision.action["hold"] == []
    assert d.pending == 0 and "FC.1C" in rules(decision)


@pytest.mark.parametrize("dice,action", [((1, 1), "accel"), ((2, 2), "accel"), ((2, 3), "none"), ((5, 5), "none"),
                                         ((6, 6), "none")])
def test_2_acceleration_table(dice, action):
    game, robot, _ = setup(*dice)
    decision = ask(game, robot, "accelerate")
    assert decision.action == action and rules(decision) == ["FC.2"]


@pytest.mark.parametrize("dice,action", [((2, 3), "accel"), ((4, 6), "accel"), ((5, 6), "none")])
def test_2_get_out_of_dodge(dice, action):
    game, robot, _ = setup(*dice, ppos=(10, 6))  # enemy astern (rear arc)
    game.ships["robot"].fired_disruptors = True
    decision = ask(game, robot, "accelerate")
    assert decision.action == action and rules(decision) == ["FC.2"]


def test_2_no_power_no_acceleration():
    game, robot, _ = setup(1, 2)
    r = game.ships["robot"]
    r.energy = r.battery = 0.0
    decision = ask(game, robot, "accelerate")
    assert decision.action == "none" and "no power" in decision.reasons[0].text
