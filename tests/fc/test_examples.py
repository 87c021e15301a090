"""Worked examples and confirmed numbers from reference/fedcom.md, pinned against the data and engine."""
from paperrobot.fc import load_tables
from paperrobot.fc import requests as opt
from paperrobot.fc.data import band_index

from .helpers import drive, setup


def test_phaser_1_rows_one_and_two_confirmed():
    t = load_tables().phasers.phaser_1
    assert t.rows[0] == [9, 8, 7, 6, 5, 5, 4, 3, 2] and t.rows[1] == [8, 7, 6, 5, 5, 4, 3, 2, 1]
    assert t.bands == [0, 1, 2, 3, 4, 5, 8, 15, 25]


def test_photon_table_confirmed():
    t = load_tables().photon
    hits = [t.hit[band_index(t.bands, r)] for r in (0, 1, 2, 3, 4, 5, 8, 9, 12, 13, 25)]
    assert hits == [6, 6, 5, 4, 4, 3, 3, 2, 2, 1, 1]
    assert (t.damage, t.overload_damage, t.overload_range) == (8, 12, 8)


def test_aar_overloaded_disruptor_hit_for_six_at_mid_range():
    # AWA robot AAR: an overloaded disruptor hit did 6 damage on shield #1 (reference section 7)
    game, _, _ = setup(4, ppos=(10, 16))  # range 6
    r = game.ships["robot"]
    shots = [["disr-1", "ship", "overload", False]]
    paid = game.commit_fire(r, opt.fire_request(game, r).parse(opt.encode("fire", shots)))
    w, _, mode, _, _ = paid[0]
    assert game.fire_at_ship(r, w, game.ships["player"], mode) == 6


def test_thirteen_points_roll_two_dac_tables():
    # TOTM Oct 2008 "Lucky 13": 13 points walk ten entries of one table, then three of a new one
    game, _, dice = setup(1, 1)
    r = game.ships["robot"]
    drive(game.allocate_internal(r, 13), {})
    assert [x.purpose for x in dice.rolls] == ["damage allocation table"] * 2


def test_regeneration_costs_two_per_box_and_burn_through_is_ten():
    rules = load_tables().rules
    assert rules.regen_cost == 2 and rules.burn_through == 10 and rules.drone_warhead == 12
