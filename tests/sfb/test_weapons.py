"""Direct fire, drones, shields, firing rate, simultaneous fire (CTH E1-E4, FD1, D3; reference §A5-§A6)."""
from paperrobot.core.hexgrid import parse

from .helpers import make, place, ships, weapon


def fire(game, *orders):
    game.resolve_fire(list(orders))


def damage_events(game):
    return [e.data for e in game.log.events if e.kind == "damage"]


def logged(**options):
    from paperrobot import sfb
    from paperrobot.core.dice import Dice
    from paperrobot.core.events import EventLog
    game = sfb.new_game(options.pop("scenario", "5"), seed=0, log=EventLog(),
                        robot_ship=options.pop("robot", "klingon"), player_ship=options.pop("player", "federation"))
    game.dice = Dice.scripted(*options.pop("dice", ()))
    game.turn, game.impulse = 1, 1
    return game


def test_phaser_worked_examples_e24():
    """CTH p.8 E2.4: phaser-2 at range 3 rolling 2 does 4; phaser-1 at range 1 rolling 1 does 8."""
    game = logged(dice=(2,), player="klingon", robot="federation")
    kl, fed = ships(game)
    place(kl, "1410", "A")
    place(fed, "1407", "D")
    kl.capacitor = 4
    fire(game, (kl, weapon(kl, "phaser-2#1"), fed))
    assert damage_events(game)[0]["points"] == 4 and kl.capacitor == 3  # SFB.PHASER.ENERGY: 1 from the capacitor
    game = logged(dice=(1,))
    fed, kl = ships(game)
    place(fed, "1410", "A")
    place(kl, "1409", "D")
    fed.capacitor = 3
    fire(game, (fed, weapon(fed, "phaser-1#1"), kl))
    assert damage_events(game)[0]["points"] == 8


def test_disruptor_hit_roll_and_no_range_zero():
    """SFB.DISRUPTOR / E3: range 3-4 hits on 1-4 for 4; cannot fire at range 0."""
    game = logged(dice=(4, 5))
    fed, kl = ships(game)
    place(kl, "1410", "A")
    place(fed, "1406", "D")
    a, b = weapon(kl, "disruptor-A"), weapon(kl, "disruptor-B")
    a.ready = b.ready = True
    fire(game, (kl, a, fed), (kl, b, fed))
    assert [e.data["damage"] for e in game.log.events if e.kind == "fired"] == [4, 0]
    place(fed, "1410", "D")
    b.ready, b.fired_turn, b.last_fired = True, 0, -100
    assert not game.can_fire(kl, b, fed)


def test_photon_range_limits_and_damage():
    """SFB.PHOTON / E4: not at range 0-1; range 2 hits on 1-5 for 8."""
    game = logged(dice=(5,))
    fed, kl = ships(game)
    place(fed, "1410", "A")
    place(kl, "1409", "D")
    a = weapon(fed, "photon-A")
    a.arm, a.ready = 2, True
    assert not game.can_fire(fed, a, kl)  # range 1
    place(kl, "1408", "D")
    assert game.can_fire(fed, a, kl)
    fire(game, (fed, a, kl))
    assert damage_events(game)[0]["points"] == 8 and a.arm == 0


def test_firing_rate_quarter_turn():
    """E1.5 / SFB.R1: once a turn and never within 1/4 turn (4 impulses of 16; 2 of 8)."""
    game = make()
    fed, kl = ships(game)
    ph = weapon(kl, "phaser-2#1")
    game.turn, game.impulse = 1, 15
    ph.last_fired, ph.fired_turn = game.now, 1
    assert not game.rate_ok(ph)
    game.turn, game.impulse = 2, 2
    assert not game.rate_ok(ph)
    game.impulse = 3
    assert game.rate_ok(ph)
    game8 = make(impulses=8)
    ph8 = weapon(ships(game8)[1], "phaser-2#1")
    game8.turn, game8.impulse = 1, 8
    ph8.last_fired, ph8.fired_turn = game8.now, 1
    game8.turn, game8.impulse = 2, 1
    assert not game8.rate_ok(ph8)
    game8.impulse = 2
    assert game8.rate_ok(ph8)


def test_shield_boundary_die_roll():
    """D3.41 cadet rule: a line along a hexside -> one die, odd for the first shield clockwise, even the second."""
    for roll, shield in ((3, 3), (4, 4)):
        game = make(dice=(roll,))
        fed, kl = ships(game)
        place(fed, "0202", "A")
        assert game.shield_hit(fed, parse("0304"), "test") == shield
    game = make()
    fed, _ = ships(game)
    place(fed, "0202", "A")
    assert game.shield_hit(fed, parse("0305"), "test") == 4  # reference §A5 example, no die


def test_simultaneous_fire_both_volleys_land():
    """E1.0: all fire of a step is rolled before any damage; a ship destroyed in the step still fires."""
    game = logged(dice=(1, 1) + (6,) * 40)
    fed, kl = ships(game)
    place(fed, "1410", "A")
    place(kl, "1408", "D")
    fed.shields = [0] * 6
    kl.shields = [0] * 6
    fed.excess = kl.excess = 0
    fed.hull = kl.hull = 0
    fed.capacitor, kl.capacitor = 3, 4
    fire(game, (fed, weapon(fed, "phaser-1#1"), kl), (kl, weapon(kl, "phaser-2#1"), fed))
    hits = damage_events(game)
    assert {h["ship"] for h in hits} == {"federation", "klingon"}


def test_drone_heavy_weapon_penalty_and_kill():
    """FD1.52: +2 to the die for heavy weapons at drones; FD1: 4 damage points destroy a drone."""
    game = logged(dice=(4, 3))
    fed, kl = ships(game)
    place(fed, "1410", "A")
    place(kl, "1404", "D")
    drone = game.launch_drone(kl, weapon(kl, "drone-1"), fed)
    drone.hex = parse("1408")
    a, b = weapon(fed, "photon-A"), weapon(fed, "photon-B")
    a.arm = b.arm = 2
    a.ready = b.ready = True
    fire(game, (fed, a, drone))  # 4 + 2 = 6 > 5: miss
    assert drone.alive and drone.damage == 0
    fire(game, (fed, b, drone))  # 3 + 2 = 5: hit for 8
    assert not drone.alive


def test_drone_seeks_and_strikes_facing_shield():
    """F2 / D3.4: the drone hits the shield facing the hex it entered from; 6 damage (cadet ships)."""
    game = logged()
    fed, kl = ships(game)
    place(fed, "0707", "A")
    place(kl, "0904", "D")
    drone = game.launch_drone(kl, weapon(kl, "drone-1"), fed)
    drone.hex, drone.facing, drone.moves = parse("0805"), 3, 1  # heading D toward 0806
    game.move_seekers()  # 0805 -> 0806 (closer), not yet in 0707
    assert drone.hex == parse("0806")
    game.move_seekers()
    hit = damage_events(game)[0]
    assert hit["shield"] == 2 and hit["points"] == 6


def test_drone_endurance_three_turns():
    """FD1: removed at the same impulse three turns later."""
    game = make()
    fed, kl = ships(game)
    game.turn, game.impulse = 3, 4
    drone = game.launch_drone(kl, weapon(kl, "drone-1"), fed)
    game.turn, game.impulse = 6, 3
    game.end_impulse()
    assert drone.alive
    game.impulse = 4
    game.end_impulse()
    assert not drone.alive
