"""Damage: the cadet DAC (#5, CTH p.20), SFB.DMG1 (#4), the robot's SFB.DMG2 and SFB.DMG3, volleys SFB.DMG4."""
from paperrobot.core.dice import Dice
from paperrobot.sfb.damage import dac_volley, dmg1_volley

from .helpers import drive, make, place, ships, weapon


def test_dac_thirteen_point_worked_example():
    """CTH p.20: 13 internal points on the Klingon, rolls 2,6,5,3,4,2,5,1,3,1,3,1,3 (reference §A8)."""
    game = make()
    _, kl = ships(game)
    start = kl.boxes()
    dice = Dice.scripted(2, 6, 5, 3, 4, 2, 5, 1, 3, 1, 3, 1, 3)
    hits = dac_volley(kl, 13, 1, dice)
    assert len(hits) == 13 and dice.pending == 0
    assert kl.hull == 0  # rolls 2, 2, 1, 1 take all four hull boxes
    # the fifth hull result (roll 1) moves right to column B: Engine
    engine_lost = (start["warp"] + start["impulse"]) - (kl.warp + kl.impulse)
    other_lost = sum(start[b] - getattr(kl, b) for b in ("shuttle", "lab", "transporter", "battery", "apr"))
    weapons_lost = start["weapons"] - kl.boxes()["weapons"]
    assert (engine_lost, other_lost, weapons_lost) == (5, 2, 2)
    assert hits[11] == "warp"


def test_dac_excess_then_destroyed():
    """D4.4: no Excess Damage box left and one more Excess hit destroys the ship; bridge never hit."""
    game = make()
    _, kl = ships(game)
    kl.hull = kl.warp = kl.impulse = kl.apr = kl.battery = kl.shuttle = kl.lab = kl.transporter = 0
    for w in kl.weapons:
        w.alive = False
    hits = dac_volley(kl, 4, 1, Dice.scripted(1, 2, 3, 4))
    assert hits == ["excess", "excess", "excess", "destroyed"] and kl.destroyed and kl.bridge == 1


def test_dmg1_first_weapon_second_warp_rest_elsewhere():
    """SFB.DMG1: per volley the 1st point on a weapon, the 2nd on warp, the rest on other internal boxes."""
    game = make("4")
    fed, _ = ships(game)
    hits = dmg1_volley(fed, 5, 1)
    assert hits[0].startswith("phaser") and hits[1] == "warp" and hits[2:] == ["hull", "hull", "hull"]


def test_dmg2_robot_extra_damage_avoids_warp_and_weapons_then_warp_first():
    """SFB.DMG2: robot's extra points go to other boxes while any remain, then warp before weapons."""
    game = make("4")
    _, kl = ships(game)
    for box in ("hull", "shuttle", "lab", "transporter", "excess", "battery", "apr", "impulse"):
        setattr(kl, box, 0)
    assert kl.security == 1  # never destroyed: it does not count as a box left
    warp = kl.warp
    weapons = sum(w.alive for w in kl.weapons)
    hits = dmg1_volley(kl, 4, 1)
    assert hits[1:] == ["warp", "warp", "warp"] and kl.warp == warp - 3
    assert sum(w.alive for w in kl.weapons) == weapons - 1
    kl.warp = 0
    for w in kl.weapons:
        w.alive = False
    assert dmg1_volley(kl, 1, 1) == ["destroyed"] and kl.destroyed  # only bridge (and security) were left
    assert kl.bridge == 1 and kl.security == 1


def test_dmg3_robot_warp_hits_slow_it_next_turn():
    """SFB.DMG3: each warp box lost slows the robot by 1 from the start of the next turn."""
    game = make("4")
    _, kl = ships(game)
    dmg1_volley(kl, 2, 1)  # weapon, warp
    assert kl.warp_lost == 1
    game.turn = 1
    drive(game, game.start_turn())
    assert kl.speed == 11
    kl.warp_lost = 12
    drive(game, game.start_turn())
    assert kl.speed == 0


def test_dmg4_one_volley_per_shield_per_step():
    """SFB.DMG4: two shots through one shield in one step are one volley (only one 'first point on a weapon')."""
    from paperrobot.core.events import EventLog
    from paperrobot import sfb
    game = sfb.new_game("4", seed=0, log=EventLog())
    game.dice = Dice.scripted(1, 1)
    game.turn, game.impulse = 1, 1
    fed, kl = ships(game)
    place(fed, "1410", "A")
    place(kl, "1408", "D")
    fed.shields[0] = 0
    a, b = weapon(kl, "disruptor-A"), weapon(kl, "disruptor-B")
    a.ready = b.ready = True
    game.resolve_fire([(kl, a, fed), (kl, b, fed)])
    volleys = [e.data for e in game.log.events if e.kind == "damage"]
    assert len(volleys) == 1 and volleys[0]["internal"] == 8 and volleys[0]["rule"] == "SFB.DMG4"
    hits = volleys[0]["hits"]
    assert sum(1 for h in hits if h.startswith(("phaser", "photon"))) == 1 and hits[1] == "warp"


def test_other_boxes_go_in_the_owners_order():
    """The DAC's "other" column takes the owner's order (docs/sfb.md "Owner's box choices"), OTHER_ORDER, written
    out in _first_other: the same box as _first_left for every mix of boxes left."""
    from itertools import product

    from paperrobot.sfb.damage import OTHER_ORDER, _first_left, _first_other
    game = make()
    _, kl = ships(game)
    for left in product((0, 1), repeat=len(OTHER_ORDER)):
        for box, n in zip(OTHER_ORDER, left):
            setattr(kl, box, n)
        assert _first_other(kl) == _first_left(kl, OTHER_ORDER)
