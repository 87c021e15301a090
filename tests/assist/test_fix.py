"""The engines' ``fix`` (corrections to match a real table): every kind of change, the checks (one line naming what
is allowed, nothing half applied), the correction event, and the replay of a correction from a save."""
import pytest

import paperrobot
from paperrobot.core import hexgrid
from paperrobot.core.errors import IllegalAction
from paperrobot.core.events import EventLog
from paperrobot.core.save import load_match, match_save, write_match_save


def _open(game, **setup):
    log = EventLog()
    match = paperrobot.new_game(game, seed=2, log=log, **setup)
    steps = match.play()
    return match, steps, next(steps), log


def _fix(steps, request, changes):
    answer = steps.send({"@fix": changes})
    assert answer is request
    return answer.error


# ------------------------------------------------------------------ SFB
def test_sfb_fix_position_facing_speed_of_the_robot_and_your_ship():
    match, steps, request, log = _open("sfb", scenario="5")
    game = match.engine
    klingon, fed = game.by_name["klingon"], game.by_name["federation"]
    assert _fix(steps, request, {"hex": "1010", "facing": "D", "speed": 10, "player_hex": "2005",
                                 "player_facing": "A"}) == ""
    assert (hexgrid.label(klingon.hex), klingon.facing, klingon.speed) == ("1010", 3, 10)
    assert (hexgrid.label(fed.hex), fed.facing) == ("2005", 0)
    assert game.order_turn == -1  # C1.3: the movement order is sorted again with the corrected speed
    event = log.of_kind("correction")[0]
    assert event.data["ship"] == "klingon" and event.data["rule"] == "SFB.FIX"
    assert event.data["changes"]["hex"] == "1010"


def test_sfb_fix_boxes_mark_and_clear_and_never_below_zero():
    match, steps, request, _ = _open("sfb", scenario="5")
    klingon = match.engine.by_name["klingon"]
    assert _fix(steps, request, {"mark": "warp,warp,hull", "shield3": 2, "apr": 1}) == ""
    assert klingon.warp == klingon.spec.warp - 2 and klingon.warp_lost == 2  # SFB.DMG3: 2 slower next turn
    assert klingon.hull == klingon.spec.hull - 1 and klingon.shields[2] == 2 and klingon.apr == 1
    assert _fix(steps, request, {"clear": "warp"}) == "" and klingon.warp_lost == 1
    error = _fix(steps, request, {"clear": "hull,hull"})
    assert "cleared when intact" in error and "SFB.FIX" in error and klingon.hull == klingon.spec.hull - 1
    error = _fix(steps, request, {"hull": 0, "shield1": 99})  # checked first: nothing applied
    assert "shield1=99" in error and klingon.hull == klingon.spec.hull - 1
    assert "a whole number from 0 to" in _fix(steps, request, {"apr": -1})


def test_sfb_fix_weapons_drones_and_energy():
    match, steps, request, _ = _open("sfb", scenario="5")
    game = match.engine
    klingon = game.by_name["klingon"]
    assert _fix(steps, request, {"disruptor-A": "destroyed", "phaser-2#1": "fired", "drone-1": 2,
                                 "batteries": 0}) == ""
    assert not klingon.weapon("disruptor-A").alive and klingon.weapon("phaser-2#1").fired_turn == game.turn
    assert klingon.weapon("drone-1").ammo == 2 and klingon.charged == 0
    assert "destroyed; first" in _fix(steps, request, {"disruptor-A": "fired"})
    assert "may be set destroyed, intact, fired, ready" in _fix(steps, request, {"phaser-2#2": "armed"})
    assert _fix(steps, request, {"disruptor-A": "intact"}) == "" and klingon.weapon("disruptor-A").ready
    error = _fix(steps, request, {"KD9": "0505"})
    assert "cannot be corrected; the names are" in error and "phaser-2#1" in error


def test_sfb_fix_a_drone_in_flight_and_a_photon():
    log = EventLog()
    match = paperrobot.new_game("sfb", seed=2, log=log, scenario="5")
    steps = match.play()
    request = next(steps)
    while not match.engine.drones:  # play on (the captain's answers) until the robot's first drone flies
        request = steps.send(request.default)
    assert _fix(steps, request, {"KD1": "1212"}) == "" and hexgrid.label(match.engine.drones[0].hex) == "1212"
    assert _fix(steps, request, {"KD1": "gone"}) == "" and not match.engine.drones[0].alive
    fed = paperrobot.new_game("sfb", seed=2, scenario="5", robot_ship="federation", player_ship="klingon")
    steps = fed.play()
    request = next(steps)
    assert _fix(steps, request, {"photon-A": "half"}) == ""
    photon = fed.engine.by_name["federation"].weapon("photon-A")
    assert photon.arm == 1 and not photon.ready


def test_sfb_a_correction_is_replayed_from_the_save(tmp_path):
    match, steps, request, _ = _open("sfb", scenario="5")
    assert _fix(steps, request, {"hex": "1010", "mark": "hull"}) == ""
    steps.send(request.default)
    path = tmp_path / "fix.save"
    write_match_save(path, match_save(match, 1))
    loaded, _, _ = load_match(path, "sfb")
    klingon = loaded.engine.by_name["klingon"]
    assert klingon.hull == klingon.spec.hull - 1
    assert [a[1] for a in loaded.answers][:2] == ["@fix", "energy"]


# ------------------------------------------------------------------ FC
def test_fc_fix_position_speed_boxes_weapons_racks():
    match, steps, request, log = _open("fc")
    game = match.engine
    robot, you = game.ships["robot"], game.ships["player"]
    changes = {"hex": "2012", "facing": "E", "speed": 24, "mark": "warp,ph2-1", "shield2": 10, "rack1": 1,
               "phot-1": "armed", "player_hex": "2128", "player_facing": "B"}
    error = _fix(steps, request, changes)
    assert "phot-1" in error and "cannot be corrected" in error  # the D7 has no photons: nothing applied
    assert hexgrid.label(robot.pos) != "2012"
    del changes["phot-1"]
    assert _fix(steps, request, changes) == ""
    assert (hexgrid.label(robot.pos), robot.facing, robot.baseline) == ("2012", 4, 24)
    assert robot.boxes["warp"] == dict(robot.spec.systems)["warp"] - 1
    assert not game.weapon_index["robot"]["ph2-1"].alive and robot.shields[1] == 10 and robot.racks[0].ammo == 1
    assert (hexgrid.label(you.pos), you.facing) == ("2128", 1)
    assert log.of_kind("correction")[0].data["rule"] == "FC.FIX"
    assert "a baseline speed is 0, 8, 16 or 24" in _fix(steps, request, {"speed": 12})
    assert "marked twice" in _fix(steps, request, {"probe": 0, "mark": "probe"})
    assert _fix(steps, request, {"ph2-1": "intact", "disr-1": "fired", "energy": 5, "batteries": 1}) == ""
    assert game.weapon_index["robot"]["disr-1"].fired and robot.energy == 5 and robot.battery == 1


def test_fc_a_correction_is_replayed_from_the_save(tmp_path):
    match, steps, request, _ = _open("fc")
    assert _fix(steps, request, {"mark": "warp,warp", "shield1": 20}) == ""
    steps.send(request.default)
    path = tmp_path / "fix.save"
    write_match_save(path, match_save(match, 1))
    loaded, _, _ = load_match(path, "fc")
    robot = loaded.engine.ships["robot"]
    assert robot.boxes["warp"] == dict(robot.spec.systems)["warp"] - 2
    assert robot.shields == match.engine.ships["robot"].shields and robot.shields[0] < 30  # FC.1B regenerates from 20


def test_fix_outside_a_match_raises_the_rule():
    game = paperrobot.new_game("fc", seed=1).engine
    with pytest.raises(IllegalAction, match="FC.FIX"):
        game.fix({})
