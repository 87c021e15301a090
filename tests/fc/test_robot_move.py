"""Robot steps 3A-3B2, the down-shield rule, keep-in-arc deceleration and the centerline special."""
import dataclasses

import pytest

from paperrobot.core.hexgrid import Hex, distance
from paperrobot.fc import geometry as geo

from .helpers import A, B, C, D, E, F, ask, drone, rules, setup


def move(game, robot):
    ship = game.ships["robot"]
    return ask(game, robot, "move", game.legal_moves(ship))


def test_3a_turn_mode_unsatisfied_goes_straight_even_if_enemy_out_of_arc():
    game, robot, d = setup(ppos=(4, 13))  # enemy abeam, not in FA
    game.ships["robot"].since_turn = 0
    decision = move(game, robot)
    assert decision.action == "straight"
    assert rules(decision)[0] == "FC.3A"
    assert d.pending == 0


def test_3a_turn_mode_unsatisfied_may_sideslip():
    game, robot, _ = setup(5)  # enemy ahead in FA; 3B1B roll 5 = sideslip away
    game.ships["robot"].since_turn = 0
    decision = move(game, robot)
    assert decision.action.startswith("slip") and rules(decision)[:2] == ["FC.3A", "FC.3B1B"]


def test_3b1a_turn_toward_enemy_out_of_fa():
    game, robot, _ = setup(ppos=(4, 13))  # enemy abeam (R arc), range 6: no HET roll
    r = game.ships["robot"]
    decision = move(game, robot)
    assert decision.action == geo.turn_toward(r, game.ships["player"].pos)
    assert decision.action.startswith("turn") and rules(decision) == ["FC.3B1A"]
    pos, facing = geo.after_move(r, decision.action)
    assert (geo.direction_to(r, game.ships["player"].pos) - facing) % 6 in (0, 1, 5)


@pytest.mark.parametrize("roll,het", [(1, True), (3, True), (4, False), (6, False)])
def test_3b1ax_het_when_enemy_close_out_of_fa(roll, het):
    game, robot, _ = setup(roll, ppos=(7, 12))  # range 3, abeam
    r = game.ships["robot"]
    r.energy, r.battery = 14.0, 0.0  # after an HET (5) 9 left: all four disruptors (8) but not half overloaded
    decision = move(game, robot)
    assert decision.action.startswith("het-") is het
    assert "FC.3B1AX" in rules(decision)
    if het:
        assert geo.in_fa(type(r)(**{**{f.name: getattr(r, f.name) for f in dataclasses.fields(r)}, "facing": "ABCDEF".index(
            decision.action[4])}), game.ships["player"].pos)
    else:
        assert "FC.3B1A" in rules(decision)


@pytest.mark.parametrize("roll,het", [(5, True), (6, False)])
def test_3b1ax_one_to_five_when_power_for_overloads(roll, het):
    game, robot, _ = setup(roll, ppos=(7, 12))
    game.ships["robot"].energy = 40.0
    assert move(game, robot).action.startswith("het-") is het


def test_3b1ax_skipped_when_het_leaves_too_little_for_disruptors():
    game, robot, d = setup(ppos=(7, 12))
    r = game.ships["robot"]
    r.energy, r.battery = 10.0, 0.0  # 10 - 5 < 8
    decision = move(game, robot)
    assert decision.action.startswith("turn") and rules(decision) == ["FC.3B1A"]
    assert d.pending == 0


@pytest.mark.parametrize("roll,kind", [(1, "slip"), (2, "straight"), (3, "straight"), (4, "slip"), (5, "slip"),
                                       (6, "slip")])
def test_3b1b_enemy_in_fa_table(roll, kind):
    game, robot, _ = setup(roll, ppos=(11, 16))
    r, p = game.ships["robot"], game.ships["player"]
    decision = move(game, robot)
    assert decision.action.startswith(kind)
    assert rules(decision) == ["FC.3B1B"]
    if kind == "slip":
        toward = roll == 1
        assert decision.action == geo.slip_relative(r, p.pos, toward)


def test_3b1b_slip_toward_becomes_turn_when_slip_mode_unsatisfied():
    game, robot, _ = setup(1, ppos=(11, 16))
    game.ships["robot"].slip_ok = False
    decision = move(game, robot)
    assert decision.action.startswith("turn") and "turn instead" in decision.reasons[0].text or \
        "turn toward" in decision.reasons[0].text


def test_3b1b_slip_away_becomes_straight_when_slip_mode_unsatisfied():
    game, robot, _ = setup(4, ppos=(11, 16))
    game.ships["robot"].slip_ok = False
    assert move(game, robot).action == "straight"


def fired(game):
    game.ships["robot"].fired_disruptors = True


@pytest.mark.parametrize("roll", [1, 2])
def test_3b2_one_two_slips_away_from_centerline(roll):
    game, robot, _ = setup(roll, rpos=(12, 10), rface=D, ppos=(10, 16), pface=A)
    fired(game)
    r, p = game.ships["robot"], game.ships["player"]
    decision = move(game, robot)
    assert decision.action.startswith("slip") and rules(decision) == ["FC.3B2"]
    other = "slip-left" if decision.action == "slip-right" else "slip-right"
    assert geo.axis_offset(p.pos, p.facing, geo.after_move(r, decision.action)[0]) >= \
        geo.axis_offset(p.pos, p.facing, geo.after_move(r, other)[0])


def test_3b2_one_two_straight_without_slip_mode():
    game, robot, _ = setup(2, rpos=(12, 10), ppos=(10, 16))
    fired(game)
    game.ships["robot"].slip_ok = False
    assert move(game, robot).action == "straight"


def test_3b2_down_shield_facing_enemy_turns_to_present_a_working_one():
    game, robot, _ = setup(1, rpos=(12, 10), ppos=(12, 16), pface=A)
    fired(game)
    r = game.ships["robot"]
    r.shields[0] = 0  # shield #1 faces the enemy dead ahead
    decision = move(game, robot)
    assert decision.action.startswith("turn") and rules(decision) == ["FC.3B2"]
    assert not geo.exposes_down_shield(r, decision.action, game.ships["player"].pos)


@pytest.mark.parametrize("roll", [3, 4, 5, 6])
def test_3b2_turn_away_when_heading_for_centerline(roll):
    # enemy faces A at (10,16): centerline is column q=10; robot at (12,10) facing E heads toward it
    game, robot, _ = setup(roll, rpos=(12, 10), rface=E, ppos=(10, 16), pface=A)
    fired(game)
    r, p = game.ships["robot"], game.ships["player"]
    assert geo.heading_for_centerline(r, p)
    decision = move(game, robot)
    assert decision.action.startswith("turn") and rules(decision) == ["FC.3B2"]
    assert geo.axis_offset(p.pos, p.facing, geo.after_move(r, decision.action)[0]) >= \
        geo.axis_offset(p.pos, p.facing, geo.after_move(r, "straight")[0])


def test_3b2_straight_when_not_heading_for_centerline():
    game, robot, _ = setup(4, rpos=(12, 10), rface=C, ppos=(10, 16), pface=A)
    fired(game)
    assert not geo.heading_for_centerline(game.ships["robot"], game.ships["player"])
    decision = move(game, robot)
    assert decision.action == "straight" and rules(decision) == ["FC.3B2"]


def test_3b2_no_turn_that_would_show_a_down_shield():
    game, robot, _ = setup(4, rpos=(12, 10), rface=E, ppos=(10, 16), pface=A)
    fired(game)
    r, p = game.ships["robot"], game.ships["player"]
    turn = geo.away_from_centerline(r, p, ("turn-left", "turn-right"))
    pos, facing = geo.after_move(r, turn)
    for n in geo.shields_facing(pos, facing, p.pos):
        r.shields[n - 1] = 0
    assert not geo.down_shield_toward(r, p.pos)
    decision = move(game, robot)
    assert decision.action == "straight"
    assert "down shield" in decision.reasons[-1].text


def _shield_case(want_others_safe: int):
    """Find an enemy position near the robot where exactly ``want_others_safe`` of the two alternatives to
    sideslipping away keep a working shield toward the enemy once the slip's shields are down."""
    from paperrobot.core.hexgrid import distance
    for q in range(6, 15):
        for r_ in range(6, 15):
            game, robot, dice = setup(rpos=(10, 10), rface=D, ppos=(q, r_))
            r, p = game.ships["robot"], game.ships["player"]
            if not 1 <= distance(r.pos, p.pos) <= 3 or not geo.in_fa(r, p.pos):
                continue
            slip = geo.slip_relative(r, p.pos, False)
            bad = set(geo.shields_facing(*geo.after_move(r, slip), p.pos))
            if bad & set(geo.shields_toward(r, p.pos)):
                continue
            for n in bad:
                r.shields[n - 1] = 0
            turn = geo.away_from_centerline(r, p, ("turn-left", "turn-right"))
            safe = [m for m in ("straight", turn) if not geo.exposes_down_shield(r, m, p.pos)]
            if len(safe) == want_others_safe:
                return game, robot, dice, slip, safe
    raise AssertionError("no such position")


def test_3_shield_only_one_safe_alternative():
    game, robot, dice, slip, safe = _shield_case(1)
    r, p = game.ships["robot"], game.ships["player"]
    action, reasons = robot.avoid_down_shield(r, p, slip, game.legal_moves(r), True)
    assert action == safe[0] and reasons[0].rule == "FC.3.SHIELD"


@pytest.mark.parametrize("roll,index", [(2, 0), (5, 1)])
def test_3_shield_two_safe_alternatives_roll_between_them(roll, index):
    game, robot, dice, slip, safe = _shield_case(2)
    dice.script(roll)
    r, p = game.ships["robot"], game.ships["player"]
    action, reasons = robot.avoid_down_shield(r, p, slip, game.legal_moves(r), True)
    assert action == safe[index] and reasons[0].rule == "FC.3.SHIELD" and reasons[0].rolls[0].value == roll


def test_3_shield_through_decide():
    game, robot, dice, slip, safe = _shield_case(1)
    dice.script(4)  # 3B1B: sideslip away, which would show the down shield
    decision = move(game, robot)
    assert rules(decision) == ["FC.3B1B", "FC.3.SHIELD"] and decision.action == safe[0]


def test_3_arc_keep_in_arc_direct():
    game, robot, _ = setup(rpos=(10, 10), rface=C, ppos=(13, 8))
    r, p = game.ships["robot"], game.ships["player"]
    assert geo.in_fa(r, p.pos)
    pos, facing = geo.after_move(r, "straight")
    lost = not geo.in_arc(pos, facing, "FA", p.pos) if hasattr(geo, "in_arc") else None
    from paperrobot.core.hexgrid import in_arc
    lost = not in_arc(pos, facing, "FA", p.pos)
    result, reasons = robot.keep_in_arc(game, r, p, "straight", game.legal_moves(r))
    assert (result == "decel") is lost
    if lost:
        assert reasons[0].rule == "FC.3.ARC"
    r.fired_disruptors = True
    assert robot.keep_in_arc(game, r, p, "straight", game.legal_moves(r))[0] == "straight"


def test_2_centerline_special_decelerates():
    game, robot, _ = setup(rpos=(11, 3), rface=F, ppos=(10, 10), pface=A)
    game.subpulse = 4
    r, p = game.ships["robot"], game.ships["player"]
    assert geo.on_centerline(p, geo.after_move(r, "straight")[0]) and not geo.on_centerline(p, r.pos)
    action, reasons = robot.centerline_special(game, r, p, "straight", game.legal_moves(r))
    assert action == "decel" and reasons[0].rule == "FC.2.CENTERLINE"


def test_2_centerline_special_ignored_if_enemy_can_centerline_anyway():
    game, robot, _ = setup(rpos=(11, 9), rface=F, ppos=(10, 10), pface=A)
    game.subpulse = 4
    r, p = game.ships["robot"], game.ships["player"]
    action, reasons = robot.centerline_special(game, r, p, "straight", game.legal_moves(r))
    assert action == "straight" and reasons[0].rule == "FC.2.CENTERLINE"


def test_2_centerline_special_only_on_last_subpulse():
    game, robot, _ = setup(rpos=(11, 3), rface=F, ppos=(10, 10), pface=A)
    game.subpulse = 2
    r, p = game.ships["robot"], game.ships["player"]
    assert robot.centerline_special(game, r, p, "straight", game.legal_moves(r)) == ("straight", [])


def wave(game, n, side_q=-3):
    """``n`` drones off the robot's side at 3 hexes (robot at (10,10) facing A: negative q is its left)."""
    spots = [(10 + side_q, 10 + k) for k in range(0, 4)] + [(10 + side_q, 9), (10 + side_q, 8), (10 + side_q + 1, 8)]
    return [drone(game, f"p{i}", spots[i]) for i in range(n)]


@pytest.mark.parametrize("roll", [1, 2, 3, 4])
def test_3b0_drone_wave_sideslip_away(roll):
    game, robot, _ = setup(roll, rpos=(10, 10), rface=A, ppos=(10, 2))
    drones = wave(game, 6)
    r = game.ships["robot"]
    decision = move(game, robot)
    assert decision.action == "slip-right" and rules(decision) == ["FC.3B0"]


def test_3b0_five_counts_as_four_with_two_adjacent():
    game, robot, _ = setup(5, rpos=(10, 10), rface=A, ppos=(10, 2))
    drones = wave(game, 6)
    drones[0].pos, drones[1].pos = Hex(9, 10), Hex(9, 11)  # two adjacent on the left
    decision = move(game, robot)
    assert decision.action == "slip-right" and rules(decision) == ["FC.3B0"]


@pytest.mark.parametrize("roll", [5, 6])
def test_3b0_five_six_goes_on_to_3b1(roll):
    game, robot, _ = setup(roll, 2, rpos=(10, 10), rface=A, ppos=(10, 2))  # then 3B1B roll 2: straight
    wave(game, 6)
    decision = move(game, robot)
    assert rules(decision) == ["FC.3B0", "FC.3B1B"] and decision.action == "straight"


def test_3b0_a_far_drone_on_another_bearing_does_not_cancel_the_wave():
    """FC.3B0: "all of those drones are within 2-5 hexes" is about the drones of the wave: a seventh drone
    10 hexes off on the right is not part of the wave from the left, which is still evaded."""
    game, robot, _ = setup(1, rpos=(10, 10), rface=A, ppos=(10, 2))
    wave(game, 6)
    far = drone(game, "p9", (20, 5))
    assert distance(far.pos, Hex(10, 10)) == 10
    decision = move(game, robot)
    assert decision.action == "slip-right" and rules(decision) == ["FC.3B0"]
    assert "drone wave of 6 from the left" in decision.reasons[0].text


def test_3b0_not_triggered_by_five_drones():
    game, robot, _ = setup(2, rpos=(10, 10), rface=A, ppos=(10, 2))
    wave(game, 5)
    assert rules(move(game, robot)) == ["FC.3B1B"]
