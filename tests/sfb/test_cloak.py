"""The cadet cloaking device (seed 004 G13, SFB.CLOAK) with scripted dice."""
from __future__ import annotations

import pytest

from paperrobot.core.dice import Dice, DiceScriptError
from paperrobot.core.errors import IllegalAction
from paperrobot.sfb import cloak as ck


def test_cloak_cost_is_on_each_ship_sheet():
    from paperrobot.sfb.data import load_ships
    ships = load_ships()
    # G13.32: the KR pays 8 a turn; the War Eagle class cadet cruiser 6 (reference §A6).
    assert ships["romulan-kr"].cloak_cost == 8
    assert ships["romulan-eagle"].cloak_cost == 6
    assert all(ships[n].cloak_cost == 0 for n in ("federation", "klingon", "kzinti", "gorn"))


def test_cloak_line_takes_zero_or_exactly_the_cost():
    kr = ck.Cloak(8)
    kr.check_energy(0)
    kr.check_energy(8)
    for bad in (4, 7, 9):
        with pytest.raises(IllegalAction) as err:
            kr.check_energy(bad)
        assert err.value.rule == "SFB.CLOAK" and "exactly 8" in str(err.value)
    with pytest.raises(IllegalAction, match="no cloaking device"):
        ck.Cloak(0).check_energy(6)


def test_declared_per_turn_after_energy_and_only_if_paid():
    kr = ck.Cloak(8)
    with pytest.raises(IllegalAction) as err:
        kr.declare(True, paid=0)
    assert err.value.rule == "SFB.CLOAK" and not kr.cloaked  # nothing changed
    assert kr.declare(True, paid=8) and kr.cloaked
    assert not kr.declare(False, paid=8)  # paid but stays uncloaked: the energy is spent
    assert kr.was_cloaked and not kr.cloaked


@pytest.mark.parametrize("true_range,expected", [(0, 5), (1, 7), (3, 11), (10, 25), (12, 29), (35, 75)])
def test_effective_range_is_twice_true_plus_five(true_range, expected):
    assert ck.effective_range(true_range, cloaked=True) == expected  # G13.34
    assert ck.effective_range(true_range, cloaked=False) == true_range


def test_disruptors_hit_on_effective_and_damage_on_true_range():
    # E3.31 (note to G13.34)
    assert ck.fire_ranges("disruptor", 4, True) == (13, 4)
    assert ck.fire_ranges("phaser", 4, True) == (13, 13)
    assert ck.fire_ranges("photon", 4, True) == (13, 13)
    assert ck.fire_ranges("disruptor", 4, False) == (4, 4)


def test_cloaked_ship_cannot_fire_or_launch():
    kr = ck.Cloak(8)
    kr.declare(True, paid=8)
    assert not any(kr.may_fire(i) for i in range(1, 17))
    assert "cannot fire" in ck.why_not_fire(kr, 5)


def test_no_fire_or_launch_on_the_first_impulse_after_uncloaking():
    kr = ck.Cloak(8)
    kr.declare(True, paid=8)
    kr.declare(False, paid=0)  # uncloaks this turn
    assert not kr.may_fire(1) and "impulse 1" in ck.why_not_fire(kr, 1)
    assert all(kr.may_fire(i) for i in range(2, 17))
    kr.declare(False, paid=0)  # a second uncloaked turn: impulse 1 is free again
    assert kr.may_fire(1)
    assert ck.why_not_fire(None, 1) == ""  # ships without a cloak are never held back


@pytest.mark.parametrize("die", [1, 2, 3, 4])
def test_seeking_weapon_misses_cloaked_ship_on_1_to_4(die):
    dice = Dice.scripted(die)
    hits, damage, roll = ck.seeking_roll(dice, 30, "plasma P1", "robot")
    assert (hits, damage) == (False, 0)
    assert roll.value == die and roll.sides == 6 and "cloaked" in roll.purpose


@pytest.mark.parametrize("die,warhead,expected", [(5, 30, 15), (6, 22, 11), (5, 15, 8), (6, 5, 3), (5, 1, 1),
                                                  (6, 6, 3)])
def test_seeking_weapon_hits_for_half_on_5_or_6_rounding_half_up(die, warhead, expected):
    dice = Dice.scripted(die)
    hits, damage, roll = ck.seeking_roll(dice, warhead, "plasma P1", "robot")
    assert hits and damage == expected and roll.value == die
    with pytest.raises(DiceScriptError):
        dice.d6("one roll too many")  # exactly one die per seeking weapon
