"""Plasma and cloak inside the impulse procedure (game.py hooks in plasma_play.py), with scripted dice."""
from __future__ import annotations

import pytest

from paperrobot import sfb
from paperrobot.core.dice import Dice
from paperrobot.core.errors import IllegalAction
from paperrobot.core.events import EventLog
from paperrobot.core.hexgrid import facing_index as F, parse
from paperrobot.sfb import plasma as pl
from paperrobot.sfb.energy import EnergyAllocation

from .helpers import drive, make, place, ships, weapon


def romulan_game(dice=(), robot="federation", player="romulan-eagle", **options):
    """Scenario 6 set-up: the player's Romulan (policy) against a robot."""
    game = make("6", robot=robot, player=player, dice=dice, **options)
    game.log = EventLog()
    game.rec = True
    return game


def launch_torpedo(game, ship, target, key="plasma-s-A"):
    w = weapon(ship, key)
    w.tube.state = pl.ARMED
    return game.launch_plasma(ship, w, target)


# ------------------------------------------------------------------ SFB.PLASMA.ARM as energy lines

def test_plasma_tube_is_an_energy_line_with_exact_increments():
    game = romulan_game()
    rom, _ = ships(game)
    game.check_energy(rom, EnergyAllocation(8, 0.0, (("plasma-s-A", 2),), 0))
    with pytest.raises(IllegalAction) as err:
        game.check_energy(rom, EnergyAllocation(8, 0.0, (("plasma-s-A", 3),), 0))
    assert err.value.rule == "SFB.PLASMA.ARM"
    for points, state in ((2, pl.FIRST), (2, pl.SECOND), (4, pl.ARMED), (2, pl.HELD)):
        game.apply_energy(rom, EnergyAllocation(6, 0.0, (("plasma-s-A", points),), 0))
        assert weapon(rom, "plasma-s-A").tube.state == state
    assert weapon(rom, "plasma-s-A").ready
    game.apply_energy(rom, EnergyAllocation(6, 0.0, (("plasma-s-A", 0),), 0))  # hold unpaid: ejected
    assert weapon(rom, "plasma-s-A").tube.state == pl.EMPTY
    assert any(e.kind == "plasma-arming" and e.data["what"] == "ejected" for e in game.log.events)


def test_energy_view_describes_tubes_and_cloak():
    game = romulan_game()
    rom, _ = ships(game)
    view = game.energy_view(rom)
    assert view["cloak_cost"] == 6 and "plasma-S empty" in view["weapons"]["plasma-s-A"]
    from paperrobot.sfb.frontend import describe_energy
    from paperrobot.cli.terminal import edit_values
    from paperrobot.sfb.energy import energy_values
    lines = describe_energy(energy_values(game.policy.energy_allocation(rom), True), view)
    assert any(line.strip().startswith("cloak=") for line in lines)
    request = game.energy_request(rom)
    assert edit_values(request, energy_values(EnergyAllocation(), True), "cloak=6")["cloak"] == 6


def test_gorn_plasma_f_starts_armed_by_seed_and_empty_under_cth():
    game = make("duel", robot="gorn", player="federation")
    _, gorn = ships(game)
    assert weapon(gorn, "plasma-f-A").tube.state == pl.HELD
    game = make("duel", robot="federation", player="gorn", plasma_f="cth")
    gorn, _ = ships(game)
    assert weapon(gorn, "plasma-f-A").tube.state == pl.EMPTY
    assert weapon(gorn, "plasma-f-A").tube.ptype.hold == 1


# ------------------------------------------------------------------ SFB.CLOAK in the sequence of play

def test_cloak_line_must_be_exact_and_declared_after_energy():
    game = romulan_game()
    rom, fed = ships(game)
    with pytest.raises(IllegalAction) as err:
        game.check_energy(rom, EnergyAllocation(6, 0.0, (), 0, 5))
    assert err.value.rule == "SFB.CLOAK"
    with pytest.raises(IllegalAction):
        game.check_energy(fed, EnergyAllocation(6, 0.0, (), 0, 6))  # no cloaking device
    game.apply_energy(rom, EnergyAllocation(6, 0.0, (("plasma-s-A", 2),), 0, 6))
    drive(game, game.declare_cloaks())  # the policy cloaks when it paid
    assert rom.cloak.cloaked
    assert any(e.kind == "cloak" and e.data["cloaked"] for e in game.log.events)


def test_robot_never_cloaks():
    game = make("duel", robot="romulan-kr", player="federation")
    game.dice = Dice(1)
    _, kr = ships(game)
    game.turn = 0
    drive(game, game.play_turn())
    assert kr.cloak is not None and not kr.cloak.cloaked


def test_cloaked_ship_cannot_fire_and_fire_at_it_uses_effective_range():  # SFB.CLOAK
    game = romulan_game(dice=(1,))
    rom, fed = ships(game)
    place(rom, "1010", "A")
    place(fed, "1007", "D")  # true range 3
    rom.cloak.cloaked = True
    rom.capacitor = 2.0
    assert game.fire_options(rom) == []
    assert not game.can_fire(rom, weapon(rom, "phaser-1#1"), fed)
    ph = weapon(fed, "phaser-1#1")
    assert game.effective_range(fed, rom, 3) == 11
    game.resolve_fire([(fed, ph, rom)])  # d6=1 at effective range 11: phaser-1 column 9-15 gives 3
    fired = [e for e in game.log.events if e.kind == "fired"][0]
    assert fired.data["damage"] == 3


def test_photon_reaches_a_cloaked_ship_only_to_true_range_12():
    game = romulan_game()
    rom, fed = ships(game)
    place(fed, "0101", "C")
    photon = weapon(fed, "photon-A")
    photon.ready = True
    rom.cloak.cloaked = True
    place(rom, "1301", "A")  # range 12 -> effective 29
    assert game.bears(fed, photon, rom) or True  # arc aside, the range test must pass:
    assert game.effective_range(fed, rom, 12) <= photon.rmax
    place(rom, "1401", "A")  # range 13 -> effective 31 > 30
    assert not game.bears(fed, photon, rom)


def test_disruptor_at_cloaked_ship_hits_on_effective_damages_on_true_range():
    game = romulan_game(robot="klingon", dice=(4,))
    rom, kl = ships(game)
    place(rom, "1010", "A")
    place(kl, "1007", "D")  # true range 3 -> effective 11: hit on 1-4, damage at range 3 = 4
    rom.cloak.cloaked = True
    disr = weapon(kl, "disruptor-A")
    disr.ready = True
    game.resolve_fire([(kl, disr, rom)])
    assert [e.data["damage"] for e in game.log.events if e.kind == "fired"] == [4]


def test_no_fire_or_launch_on_impulse_one_after_uncloaking():
    game = romulan_game()
    rom, fed = ships(game)
    place(rom, "1010", "A")
    place(fed, "1007", "D")
    rom.cloak.cloaked, rom.cloak.was_cloaked = False, True
    rom.capacitor = 2.0
    weapon(rom, "plasma-s-A").tube.state = pl.ARMED
    game.impulse = 1
    assert game.fire_options(rom) == [] and game.launchable(rom) == []
    game.impulse = 2
    assert game.fire_options(rom) and game.launchable(rom)


@pytest.mark.parametrize("die,hits", [(4, False), (5, True)])
def test_drone_entering_cloaked_hex_rolls(die, hits):
    game = romulan_game(robot="klingon", dice=(die,))
    rom, kl = ships(game)
    place(rom, "1010", "A", speed=0)
    place(kl, "1013", "A")
    rom.cloak.cloaked = True
    game.impulse = 2
    drone = game.launch_drone(kl, weapon(kl, "drone-1"), rom)
    drone.hex = drone.prev_hex = parse("1011")
    drone.facing, drone.moves = F("A"), 1
    before = sum(rom.shields)
    game.move_seekers()
    assert sum(rom.shields) == before - (3 if hits else 0)  # half of 6
    roll = [e for e in game.log.events if e.kind == "cloak-roll"][0]
    assert roll.data["rule"] == "SFB.CLOAK" and roll.data["roll"] == die


# ------------------------------------------------------------------ SFB.PLASMA.LAUNCH / MOVE / STRENGTH in play

def test_fixed_launcher_only_at_fa_target_and_torpedo_faces_ahead():
    game = romulan_game()
    rom, fed = ships(game)
    place(rom, "1010", "A")
    place(fed, "1310", "A")  # abeam to the right: not in FA
    w = weapon(rom, "plasma-s-A")
    w.tube.state = pl.ARMED
    assert not game.sees(rom, w, fed)
    place(fed, "1105", "A")
    assert game.sees(rom, w, fed)
    torp = game.launch_plasma(rom, w, fed)
    assert torp.facing == F("A") and torp.hex == rom.hex and w.tube.state == pl.EMPTY
    assert torp.strength == 30


def test_torpedo_moves_straight_first_then_seeks_every_impulse():
    game = romulan_game()
    rom, fed = ships(game)
    place(rom, "1010", "A")
    place(fed, "1510", "A", speed=0)  # abeam to the right
    torp = launch_torpedo(game, rom, fed)
    game.impulse = 2
    game.move_seekers()
    assert torp.hex == parse("1009") and torp.moves == 1  # straight ahead although a turn would close faster
    game.impulse = 3
    game.move_seekers()
    assert torp.moves == 2 and torp.facing == F("B")  # now it seeks (F2 special rule): turns toward it
    assert pl.speed(game.impulses) == 16  # SFB.PLASMA.MOVE: it moves on every impulse


def test_strength_at_impact_by_distance_and_phaser_hits():
    game = romulan_game(dice=(1, 2, 3, 4))  # four DAC rolls for the 4 internal points
    rom, fed = ships(game)
    place(rom, "1020", "A")
    place(fed, "1010", "D", speed=0)
    torp = launch_torpedo(game, rom, fed)
    torp.hex, torp.prev_hex, torp.facing, torp.moves = parse("1012"), parse("1013"), F("A"), 11
    torp.phaser = 5  # 5 phaser points: -2
    game.impulse = 4
    game.move_seekers()  # enters 1011
    game.move_seekers()  # enters 1010: 13 hexes travelled -> 22, less 2 = 20
    impact = [e for e in game.log.events if e.kind == "plasma-impact"][0]
    assert (impact.data["travelled"], impact.data["strength"], impact.data["damage"]) == (13, 20, 20)
    assert fed.shields[0] == 0 and fed.internal == 4  # shield #1 (16) takes 16, 4 internal


def test_phasers_fire_at_plasma_and_wear_it_down():
    game = romulan_game(dice=(1, 1))
    rom, fed = ships(game)
    place(rom, "1015", "A")
    place(fed, "1010", "D")
    torp = launch_torpedo(game, rom, fed)
    torp.hex = parse("1012")
    fed.capacitor = 3.0
    opts = game.fire_options(fed)
    keys = {k for k, *_ in opts}
    assert f"phaser-1#1>{torp.label}" in keys and f"photon-A>{torp.label}" not in keys  # only phasers
    game.resolve_fire([(fed, weapon(fed, "phaser-1#1"), torp), (fed, weapon(fed, "phaser-1#2"), torp)])
    assert torp.phaser == 14 and torp.strength == 23  # two phaser-1 at range 2, d6=1: 7 + 7 -> -7
    torp.phaser = 59
    game.dice.script(6)
    game.impulse = 8
    game.resolve_fire([(fed, weapon(fed, "phaser-1#3"), torp)])  # range 2, d6=6: 3 more -> 62 -> 30-31 < 0
    assert not torp.alive and torp not in game.plasmas
    assert any(e.kind == "plasma-destroyed" for e in game.log.events)


def test_endurance_runs_out_after_25_hexes():
    game = romulan_game()
    rom, fed = ships(game)
    place(rom, "0101", "C")
    place(fed, "2817", "A", speed=0)
    torp = launch_torpedo(game, rom, fed)
    torp.moves = 24
    torp.hex = torp.prev_hex = parse("1010")
    game.impulse = 5
    game.move_seekers()  # the 25th hex, no target there: gone (SFB.PLASMA.MOVE)
    assert torp not in game.plasmas
    lost = [e for e in game.log.events if e.kind == "plasma-lost"][0]
    assert lost.data["why"] == "endurance" and lost.data["rule"] == "SFB.PLASMA.MOVE"


def test_same_hex_launch_hits_next_impulse_with_feedback():
    # FP1.8: launched in the target's hex, strikes before either moves: 25% of 30 = 7.5 -> 8 on the launcher
    game = romulan_game(dice=(1,) * 14)
    rom, fed = ships(game)
    place(rom, "1010", "A", speed=0)
    place(fed, "1010", "D", speed=0)
    rom.prev_hex = parse("1011")
    fed.prev_hex = parse("1009")
    torp = launch_torpedo(game, rom, fed)
    assert torp.feedback
    game.impulse = 2
    game.move_seekers()
    impact = [e for e in game.log.events if e.kind == "plasma-impact"][0]
    assert impact.data["strength"] == 30 and impact.data["travelled"] == 0
    fb = [e for e in game.log.events if e.kind == "feedback"][0]
    assert fb.data["damage"] == 8 and fb.data["rule"] == "SFB.PLASMA.FEEDBACK"
    assert fb.data["shield"] == 1  # the launcher's shield toward the target (judged from 1011 toward 1009)
    assert rom.shields[0] == 12 - 8


def test_no_feedback_once_the_target_has_moved():
    game = romulan_game()
    rom, fed = ships(game)
    place(rom, "1010", "A", speed=0)
    place(fed, "1010", "D")
    torp = launch_torpedo(game, rom, fed)
    game.execute_move(fed, "straight")  # the target leaves the hex first
    assert not torp.feedback


def test_plasma_at_cloaked_target_half_damage_on_5():
    game = romulan_game(robot="romulan-kr", player="federation", dice=(5, 1, 1, 1, 1, 1))  # cloak roll, 5 DAC
    fed, kr = ships(game)
    place(fed, "1010", "A", speed=0)
    place(kr, "1012", "A")
    kr.cloak.cloaked = True  # (the robot never cloaks; the point is the target side of the rule)
    fed.cloak, kr.cloak = kr.cloak, None
    torp = launch_torpedo(game, kr, fed)
    torp.hex, torp.prev_hex, torp.moves = parse("1011"), parse("1012"), 1
    game.impulse = 3
    game.move_seekers()
    impact = [e for e in game.log.events if e.kind == "plasma-impact"][0]
    assert impact.data["strength"] == 30 and impact.data["damage"] == 15
    assert fed.shields[3] == 0 and fed.internal == 5  # shield #4 (10 boxes) down, 5 internal


def test_torpedo_outlives_its_launcher_and_dies_with_its_target():
    game = romulan_game()
    rom, fed = ships(game)
    place(rom, "1015", "A")
    place(fed, "1005", "D", speed=0)
    torp = launch_torpedo(game, rom, fed)
    rom.destroyed = True  # "Romulan revenge": the torpedo flies on
    game.impulse = 2
    game.move_seekers()
    assert torp.alive and torp.moves == 1
    fed.destroyed = True
    game.move_seekers()
    assert not game.plasmas


def test_destroyed_tube_may_still_launch_within_a_quarter_turn():
    game = romulan_game()
    rom, fed = ships(game)
    place(rom, "1015", "A")
    place(fed, "1005", "D", speed=0)
    w = weapon(rom, "plasma-s-A")
    w.tube.state = pl.HELD
    game.turn, game.impulse = 2, 3  # absolute impulse 19
    w.alive = False  # the box is destroyed by damage
    game.note_tube_losses()
    assert [t.key for t in game.launchable(rom)] == ["plasma-s-A"]
    game.impulse = 7  # absolute 23 = 19 + 4: last chance
    assert game.launchable(rom)
    game.impulse = 8
    game.end_impulse()
    assert not game.launchable(rom)
    kinds = [e.kind for e in game.log.events]
    assert "plasma-tube" in kinds and any(e.data.get("rule") == "SFB.PLASMA.TUBE" for e in game.log.events)


def test_target_entering_the_torpedo_hex_is_struck_on_its_leading_shield():
    game = romulan_game(dice=(1,) * 14)  # 30 on shield #1 (16): 14 internal, one DAC die each
    rom, fed = ships(game)
    place(rom, "1020", "A")
    place(fed, "1011", "A", speed=0)
    torp = launch_torpedo(game, rom, fed)
    torp.hex, torp.prev_hex, torp.facing, torp.moves = parse("1010"), parse("1011"), F("D"), 5
    game.execute_move(fed, "straight")  # the Federation ship enters 1010 heading A
    game.impulse = 6
    game.move_seekers()
    impact = [e for e in game.log.events if e.kind == "plasma-impact"][0]
    assert impact.data["shield"] == 1 and impact.data["travelled"] == 5 and impact.data["damage"] == 30
    assert fed.internal == 14
