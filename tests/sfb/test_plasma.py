"""Plasma torpedo rules (seed 004 FP1-FP4): arming, launching geometry, strength, feedback, tube loss."""
from __future__ import annotations

import pytest

from paperrobot.core.errors import DataError, IllegalAction, UnknownName
from paperrobot.core.hexgrid import facing_index as F, parse
from paperrobot.sfb import plasma as pl, plasma_data as pd
from paperrobot.sfb.plasma import ARMED, EMPTY, FIRST, HELD, SECOND

S = pd.plasma_type("plasma-s")
G = pd.plasma_type("plasma-g")
PF = pd.plasma_type("plasma-f")


# ------------------------------------------------------------------ SFB.PLASMA.ARM: data

def test_arming_schedules_are_the_seed_table():
    # seed 004 FP1.22: S 2,2,4,(2)  G 2,2,3,(1)  F 1,1,3,(0)  [SFB.PLASMA.ARM]
    assert (S.arming, S.hold) == ((2, 2, 4), 2)
    assert (G.arming, G.hold) == ((2, 2, 3), 1)
    assert (PF.arming, PF.hold) == ((1, 1, 3), 0)
    assert (S.starts_armed, G.starts_armed, PF.starts_armed) == (False, False, True)


def test_cth_option_gives_plasma_f_hold_one_and_unarmed_start():
    cth = pd.plasma_type("plasma-f", "cth")
    assert cth.hold == 1 and cth.starts_armed is False and "CTH" in cth.source
    assert pd.plasma_type("plasma-s", "cth") == S  # S is the same in both books
    with pytest.raises(UnknownName, match="plasma_f option"):
        pd.plasma_types("vassal")


def test_f_tube_starts_armed_and_holds_free_by_seed():
    tube = pl.PlasmaTube.start("plasma-f-A", PF)
    assert tube.state == HELD and tube.launchable(1, 16)
    assert tube.legal_points() == (0,)
    assert tube.allocate(0) == "held" and tube.state == HELD  # hold cost 0: held for nothing


def test_f_under_cth_must_be_armed_and_costs_one_to_hold():
    cf = pd.plasma_type("plasma-f", "cth")
    tube = pl.PlasmaTube.start("plasma-f-A", cf)
    assert tube.state == EMPTY
    for points in (1, 1, 3):
        tube.allocate(points)
    assert tube.state == ARMED
    assert tube.allocate(1) == "held"
    assert tube.allocate(0) == "ejected" and tube.state == EMPTY


def test_s_arms_over_three_consecutive_turns_exactly():
    tube = pl.PlasmaTube.start("plasma-s-A", S)
    assert tube.state == EMPTY and not tube.launchable(1, 16)  # FP1.23: ships start unarmed
    assert tube.allocate(2) == "started" and tube.state == FIRST and not tube.armed
    assert tube.allocate(2) == "second" and tube.state == SECOND and not tube.armed
    assert tube.allocate(4) == "armed" and tube.state == ARMED and tube.launchable(33, 16)


@pytest.mark.parametrize("state,points", [(EMPTY, 1), (EMPTY, 4), (FIRST, 4), (SECOND, 3), (SECOND, 5),
                                          (ARMED, 1), (HELD, 4)])
def test_wrong_increment_is_illegal_and_changes_nothing(state, points):
    tube = pl.PlasmaTube("plasma-s-A", S, state)
    with pytest.raises(IllegalAction) as err:
        tube.allocate(points)
    assert err.value.rule == "SFB.PLASMA.ARM" and "plasma-s-A" in str(err.value)
    assert tube.state == state


def test_missed_payment_loses_the_torpedo():
    tube = pl.PlasmaTube("plasma-s-A", S, FIRST)
    assert tube.allocate(0) == "lost" and tube.state == EMPTY
    tube = pl.PlasmaTube("plasma-s-A", S, SECOND)
    assert tube.allocate(0) == "lost" and tube.state == EMPTY


def test_rolling_delay_pays_two_on_the_third_turn_and_continues():
    # FP1.22 EXCEPTION: 2 on the third turn -> first turn's energy lost, turns 2 and 3 become turns 1 and 2.
    tube = pl.PlasmaTube("plasma-s-A", S, SECOND)
    assert tube.allocate(2) == "rolling delay" and tube.state == SECOND
    assert tube.allocate(2) == "rolling delay" and tube.state == SECOND  # may roll again
    assert tube.allocate(4) == "armed" and tube.state == ARMED


def test_holding_costs_two_for_s_and_unpaid_hold_ejects():
    tube = pl.PlasmaTube("plasma-s-A", S, ARMED)
    assert tube.legal_points() == (0, 2)
    assert tube.allocate(2) == "held" and tube.launchable(50, 16)
    assert tube.allocate(2) == "held"
    assert tube.allocate(0) == "ejected" and tube.state == EMPTY and not tube.launchable(60, 16)


def test_g_rolling_delay_and_hold():
    tube = pl.PlasmaTube("plasma-g-A", G, SECOND)
    assert tube.legal_points() == (0, 2, 3)
    assert tube.allocate(3) == "armed"
    assert tube.allocate(1) == "held"


def test_launch_empties_the_tube_and_it_can_rearm():
    tube = pl.PlasmaTube("plasma-s-A", S, ARMED)
    tube.launch()
    assert tube.state == EMPTY and tube.allocate(2) == "started"


def test_default_points_keep_arming_and_hold():
    assert [pl.default_points(S, s) for s in (EMPTY, FIRST, SECOND, ARMED, HELD)] == [2, 2, 4, 2, 2]
    assert [pl.default_points(PF, s) for s in (EMPTY, FIRST, SECOND, ARMED, HELD)] == [1, 1, 3, 0, 0]


def test_bad_plasma_table_is_a_data_error(tmp_path):
    bad = tmp_path / "plasma.toml"
    bad.write_text(pd.TABLE.read_text().replace("warhead = [30, 22, 15, 10, 5, 1]", "warhead = [30, 22]"))
    from paperrobot.core.data import load
    with pytest.raises(DataError, match="one warhead value per distance band"):
        load(bad, pd.PlasmaTables)


# ------------------------------------------------------------------ SFB.PLASMA.STRENGTH

@pytest.mark.parametrize("travelled,expected", [(0, 30), (10, 30), (11, 22), (15, 22), (16, 15), (20, 15),
                                                (21, 10), (23, 10), (24, 5), (25, 1), (26, 0)])
def test_s_strength_by_distance_band(travelled, expected):
    assert pl.strength(S, travelled) == expected  # SFB.PLASMA.STRENGTH, CTH Romulan SSD chart


@pytest.mark.parametrize("travelled,expected", [(0, 20), (5, 20), (6, 15), (10, 15), (11, 10), (12, 10),
                                                (13, 5), (14, 5), (15, 1), (16, 0)])
def test_f_strength_by_distance_band(travelled, expected):
    assert pl.strength(PF, travelled) == expected  # SFB.PLASMA.STRENGTH, CTH Gorn SSD chart


@pytest.mark.parametrize("travelled,expected", [(0, 20), (10, 20), (11, 15), (15, 15), (16, 10), (18, 10),
                                                (19, 5), (20, 1), (21, 0)])
def test_g_strength_by_distance_band(travelled, expected):
    assert pl.strength(G, travelled) == expected


def test_endurance_is_the_chart_length():
    assert (S.endurance, G.endurance, PF.endurance) == (25, 20, 15)  # FP1.4: S endurance 25 hexes


@pytest.mark.parametrize("points,expected", [(0, 30), (1, 30), (2, 29), (3, 29), (9, 26), (59, 1), (60, 0),
                                             (80, 0)])
def test_every_two_phaser_points_take_one_off(points, expected):
    # FP1.6 (SFB.PLASMA.STRENGTH): every two points of phaser damage reduce the warhead by one.
    assert pl.strength(S, 3, points) == expected


def test_phaser_damage_is_permanent_and_cumulative_across_volleys():
    torp = pl.Plasma("P1", "robot", "Kestrel", "player", S, parse("1010"), 0, parse("1011"), 5)
    torp.phaser += 3  # first volley: 3 points
    torp.moves = 4
    assert torp.strength == 29
    torp.phaser += 3  # second volley: the odd point of the first counts now
    assert torp.strength == 27
    torp.moves = 12  # distance band drops to 22, the phaser loss stays
    assert torp.strength == 19


def test_fizzles_at_zero_strength_or_end_of_endurance():
    torp = pl.Plasma("P1", "robot", "Kestrel", "player", S, parse("1010"), 0, parse("1011"), 5)
    assert not pl.fizzled(torp)
    torp.moves = 25
    assert pl.fizzled(torp) and torp.strength == 1
    torp.moves, torp.phaser = 3, 60
    assert pl.fizzled(torp) and torp.strength == 0


# ------------------------------------------------------------------ SFB.PLASMA.FEEDBACK

@pytest.mark.parametrize("warhead,expected", [(30, 8), (22, 6), (15, 4), (10, 3), (5, 1), (1, 0), (2, 1),
                                              (3, 1), (4, 1), (6, 2), (20, 5), (29, 7)])
def test_feedback_is_a_quarter_with_half_rounded_up(warhead, expected):
    # FP1.8: x 0.25, drop fractions below .50, raise .50 (and above) to the next whole number.
    assert pl.feedback(warhead) == expected


# ------------------------------------------------------------------ SFB.PLASMA.TUBE

def test_destroyed_armed_tube_may_launch_within_a_quarter_turn():
    tube = pl.PlasmaTube("plasma-s-A", S, HELD)
    tube.destroy(now=37)
    assert not tube.alive
    assert pl.tube_deadline(37, 16) == 41
    assert tube.launchable(37, 16) and tube.launchable(41, 16)  # through impulse 41 (4 impulses later)
    assert not tube.launchable(42, 16)
    assert not tube.expire(41, 16) and tube.expire(42, 16)  # lost after the window
    assert not tube.launchable(41, 16)


def test_destroyed_tube_window_crosses_the_turn_and_needs_no_hold():
    tube = pl.PlasmaTube("plasma-s-A", S, ARMED)
    tube.destroy(now=15)  # turn 1 impulse 15 -> window runs to turn 2 impulse 3 (absolute 19)
    assert tube.legal_points() == (0,)
    assert tube.allocate(0) == ""  # no holding energy required
    assert tube.launchable(19, 16) and not tube.launchable(20, 16)
    with pytest.raises(IllegalAction) as err:
        tube.allocate(2)
    assert err.value.rule == "SFB.PLASMA.TUBE"


def test_destroyed_unarmed_tube_has_nothing_to_launch():
    tube = pl.PlasmaTube("plasma-s-A", S, SECOND)
    tube.destroy(now=10)
    assert not tube.launchable(10, 16) and not tube.launchable(11, 16)


def test_eight_impulse_quarter_turn_is_two_impulses():
    assert pl.tube_deadline(7, 8) == 9


# ------------------------------------------------------------------ SFB.PLASMA.LAUNCH

def test_fixed_launcher_launches_straight_ahead_at_fa_targets_only():
    ship, facing = parse("1010"), F("A")
    assert pl.is_fixed("FA")
    assert pl.launch_facings("FA", facing) == (facing,)  # FP3.1: counter faces the ship's direction
    assert pl.can_target("FA", ship, facing, parse("1005"))  # dead ahead
    assert pl.can_target("FA", ship, facing, parse("1306"))  # in RF
    assert not pl.can_target("FA", ship, facing, parse("1310"))  # R arc: the torpedo cannot see it
    assert not pl.can_target("FA", ship, facing, parse("1015"))  # behind
    assert pl.launch_facing("FA", ship, facing, parse("1306")) == facing


def test_swivel_launch_directions_match_fp32():
    # FP3.2: the LF+L tube launches in directions 1, 5, 6 relative to the ship; RF+R in 1, 2, 3.
    def rel(dirs, facing):
        return sorted(((d - facing) % 6) + 1 for d in dirs)
    for facing in range(6):
        assert rel(pl.launch_facings("L+LF", facing), facing) == [1, 5, 6]
        assert rel(pl.launch_facings("RF+R", facing), facing) == [1, 2, 3]
    assert not pl.is_fixed("L+LF")


def test_swivel_tracks_its_arcs_and_picks_the_nearest_direction():
    ship, facing = parse("1010"), F("A")
    left = parse("0610")  # due left-ish, in the L arc
    assert pl.can_target("L+LF", ship, facing, left)
    assert not pl.can_target("RF+R", ship, facing, left)
    assert pl.launch_facing("L+LF", ship, facing, left) in (F("E"), F("F"))
    assert pl.launch_facing("L+LF", ship, facing, parse("1005")) == F("A")  # straight ahead is nearest
    assert pl.launch_facing("RF+R", ship, facing, parse("1412")) == F("C")


def test_launch_facings_prefer_the_heading_then_the_right():
    assert pl.launch_facings("RF+R", F("A")) == (F("A"), F("B"), F("C"))
    assert pl.launch_facings("L+LF", F("A")) == (F("A"), F("F"), F("E"))


# ------------------------------------------------------------------ SFB.PLASMA.MOVE

@pytest.mark.parametrize("impulses", [8, 16, 32])
def test_plasma_moves_at_the_scenario_maximum_every_impulse(impulses):
    # FP1.4 (SFB.PLASMA.MOVE): speed 8 in #1-#3, 16 in #4-#6, 32 in #7-#12.
    assert pl.speed(impulses) == impulses


def test_first_move_is_straight_then_it_seeks():
    # FP1.3 (SFB.PLASMA.LAUNCH): directly forward on its first impulse.
    assert pl.must_go_straight(0) and not pl.must_go_straight(1)
