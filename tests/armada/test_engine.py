"""Engine rules on a real table with scripted dice: attacks, tokens, damage, squadrons, the seed's
brace example measured with geometry."""
import math

import pytest

from paperrobot.armada import Setup
from paperrobot.armada.game import Game
from paperrobot.core.contract import Decision
from paperrobot.core.dice import Dice
from paperrobot.core.events import EventLog
from tests.armada.helpers import answer, run

NORTH, SOUTH, EAST = math.pi / 2, -math.pi / 2, 0.0
RED_HIT, RED_DOUBLE, RED_BLANK, RED_CRIT = 3, 8, 1, 5
BLUE_HIT, BLUE_CRIT, BLUE_ACC = 1, 5, 7
BLACK_HIT = 3


def table(imperial, rebel, *values):
    dice = Dice.scripted(*values)
    log = EventLog()
    game = Game(Setup(imperial, rebel), dice, log)
    return game, log


def place(unit, x, y, a=0.0):
    unit.x, unit.y = x, y
    if hasattr(unit, "a"):
        unit.a = a


def brace_example(mc80: str):
    # The seed's example: the Victory is fired on by the corvette with 2 red and 1 blue, while an
    # unactivated MC80 has its side arc on the Victory at long range.
    game, log = table(["victory-ii"], ["cr90-a", mc80], RED_HIT, RED_DOUBLE, BLUE_HIT)
    vsd, cr90, mc = game.ships
    place(vsd, 900.0, 450.0, NORTH)
    place(cr90, 900.0, 700.0, SOUTH)
    place(mc, 900.0, 130.0, EAST)  # its left zone faces the Victory's rear
    cr90.activated = True
    (shot,) = [o for o in game.ship_shots(cr90) if o.zone == "front" and o.target is vsd]
    assert (shot.tzone, shot.band, "".join(shot.colours)) == ("front", "medium", "RRU")
    run(game, game.attack(shot))
    decisions = [e.data for e in log.of_kind("decision")]
    (defence,) = log.of_kind("defence")
    return game, decisions, defence.data


def test_victory_does_not_brace_while_the_mc80_assault_has_4_red_on_it():
    game, decisions, defence = brace_example("mc80-assault")
    assert game.threat_dice(game.ships[0]) == 4
    assert not any(s.startswith("brace") for s in defence["spent"])
    assert any(d["rule"] == "ARM.DEF.BRACE" and "4 dice" in d["text"] for d in decisions)
    assert defence["damage"] == 4


def test_victory_braces_when_it_is_the_mc80_command_with_3_red():
    game, decisions, defence = brace_example("mc80-command")
    assert game.threat_dice(game.ships[0]) == 3
    assert "brace" in defence["spent"] and defence["damage"] == 2
    assert any(d["rule"] == "ARM.DEF.BRACE" for d in decisions)


def test_victory_does_not_brace_against_a_b_wing_while_the_mc80_assault_has_4_red_on_it():
    """ARM.DEF.BRACE is about the current attack, whoever makes it: a B-wing's 2 dice (blue hit, black
    hit+crit = 3 damage) are fewer than the unactivated MC80 Assault's 4 red, so the Victory keeps its brace."""
    game, log = table(["victory-ii"], ["mc80-assault", "b-wing"], BLUE_HIT, 7)
    vsd, mc = game.ships
    (bwing,) = game.squads
    place(vsd, 900.0, 450.0, NORTH)
    place(mc, 900.0, 130.0, EAST)
    place(bwing, 900.0, 530.0)
    (shot,) = [o for o in game.squad_shots(bwing) if o.target is vsd and o.tzone == "front"]
    assert "".join(shot.colours) == "UK"
    run(game, game.attack(shot))
    (defence,) = log.of_kind("defence")
    decisions = [e.data for e in log.of_kind("decision")]
    assert not any(s.startswith("brace") for s in defence.data["spent"]) and defence.data["damage"] == 3
    assert any(d["rule"] == "ARM.DEF.BRACE" and "4 dice, more than this attack's 2" in d["text"] for d in decisions)


def test_damage_goes_to_shields_then_cards_and_a_crit_deals_the_first_face_up():
    game, log = table(["victory-ii"], ["cr90-b"], BLUE_CRIT, BLUE_HIT, BLUE_HIT, 1)
    vsd, cr90 = game.ships
    place(vsd, 900.0, 450.0, NORTH)
    place(cr90, 900.0, 600.0, SOUTH)  # close range: 3 blue
    vsd.tokens = []
    vsd.shields[0] = 1
    (shot,) = [o for o in game.ship_shots(cr90) if o.zone == "front" and o.target is vsd]
    run(game, game.attack(shot))
    assert vsd.shields[0] == 0
    (crit,) = log.of_kind("crit")  # the 4th scripted die picks the face-up card (1 = first of the deck)
    assert crit.data["card"] == "Structural Damage" and vsd.damage == 3  # 2 cards, Structural Damage deals 1 more


def test_scatter_cancels_every_die_and_exhausts():
    game, log = table(["victory-ii"], ["cr90-a"], RED_DOUBLE, RED_DOUBLE, BLUE_HIT)
    vsd, cr90 = game.ships
    place(vsd, 900.0, 450.0, NORTH)
    place(cr90, 900.0, 700.0, SOUTH)
    vsd.tokens = [["scatter", False]]
    (shot,) = [o for o in game.ship_shots(cr90) if o.zone == "front" and o.target is vsd]
    run(game, game.attack(shot))
    assert vsd.tokens == [["scatter", True]] and vsd.shields == [3, 3, 3, 1]


def test_evade_at_long_range_cancels_the_highest_die():
    game, log = table(["victory-ii"], ["cr90-a"], RED_DOUBLE, RED_HIT)
    vsd, cr90 = game.ships
    place(vsd, 900.0, 400.0, NORTH)
    place(cr90, 900.0, 750.0, SOUTH)
    vsd.tokens = [["evade", False]]
    (shot,) = [o for o in game.ship_shots(cr90) if o.zone == "front" and o.target is vsd]
    assert shot.band == "long" and shot.colours == ["R", "R"]
    run(game, game.attack(shot))
    assert log.of_kind("defence")[0].data == {"ship": "victory-ii-1", "spent": ["evade"], "faces": ["hit"], "damage": 1}


def test_accuracy_locks_the_brace():
    game, log = table(["victory-ii"], ["cr90-b"], BLUE_ACC, BLUE_HIT, BLUE_HIT)
    vsd, cr90 = game.ships
    place(vsd, 900.0, 450.0, NORTH)
    place(cr90, 900.0, 600.0, SOUTH)
    vsd.tokens = [["brace", False]]
    (shot,) = [o for o in game.ship_shots(cr90) if o.zone == "front" and o.target is vsd]
    run(game, game.attack(shot))
    assert vsd.tokens == [["brace", False]] and vsd.shields[0] == 1


def test_counter_strikes_back_at_a_squadron_attacker():
    game, log = table(["victory-ii", "tie-fighter"], ["cr90-a", "a-wing"],
                      BLUE_HIT, BLUE_HIT, BLUE_ACC, BLUE_HIT, BLUE_HIT)
    tie, awing = game.squads
    place(tie, 500.0, 500.0)
    place(awing, 540.0, 500.0)
    (shot,) = game.squad_shots(tie)
    run(game, game.attack(shot))
    attacks = log.of_kind("attack")
    assert [a.data["attacker"] for a in attacks] == ["tie-fighter-1", "a-wing-1"]
    assert attacks[1].data["counter"] and attacks[1].data["dice"] == "UU"  # Counter 2
    assert awing.hull == 4 - 2 and tie.hull == 3 - 2


def test_engaged_squadrons_must_attack_escorts():
    game, _ = table(["victory-ii", "tie-fighter"], ["cr90-a", "x-wing", "z-95"])
    tie, xwing, z95 = game.squads
    place(tie, 500.0, 500.0)
    place(xwing, 540.0, 500.0)
    place(z95, 460.0, 500.0)
    assert [o.target.uid for o in game.squad_shots(tie)] == ["x-wing-1"]


def test_a_ship_leaving_the_play_area_is_destroyed():
    game, log = table(["victory-ii"], ["cr90-a", "cr90-b"])
    vsd, cr90, other = game.ships
    place(vsd, 900.0, 450.0, NORTH)
    place(cr90, 900.0, 880.0, NORTH)
    place(other, 300.0, 300.0, NORTH)
    game.active = cr90
    rebel = type("C", (), {"decide": lambda self, r: Decision("2:0,1")})()
    cr90.speed = 2
    run(game, game.move(cr90), {"rebel": rebel})
    assert cr90.destroyed and game.score["imperial"] == 44


def _shots(game, ship, used=frozenset()):
    return game.ship_shots(ship, set(used))


def test_seed_double_arc_example_on_the_table():
    # A Victory II: a ship at long range in the front arc (3 red), 3 squadrons in blue range to the
    # side (3 dice), a corvette at long range in the side and rear arcs (2 + 2 red): it shoots the
    # corvette with 2 attacks of 2 red dice.
    game, log = table(["victory-ii"], ["nebulon-b-escort", "cr90-a", "x-wing", "x-wing", "x-wing"])
    vsd, neb, cr90 = game.ships
    place(vsd, 900.0, 450.0, NORTH)
    place(neb, 900.0, 751.0, SOUTH)
    # on the rear-left arc line of the Victory (136.7 degrees from its bow), about 290 mm away
    place(cr90, 900.0 - 200.0, 450.0 - 212.0, EAST)
    for i, q in enumerate(game.squads):
        place(q, 1094.0, 410.0 + 40.0 * i)
    shots = game.ship_shots(vsd)
    per = {}
    for o in shots:
        key = o.target.uid if o.tzone else "squadrons"
        per.setdefault((o.zone, key), []).append((o.band, "".join(o.colours)))
    assert all(b == "long" for b, _ in per[("left", "cr90-a-1")] + per[("rear", "cr90-a-1")])
    assert max(len(c) for _, c in per[("front", "nebulon-b-escort-1")]) == 3
    assert sorted(per[("right", "squadrons")]) == [("medium", "U")] * 3
    game.active = vsd
    first = answer(game, "attack", subject=_shots(game, vsd))
    zone1 = first.action.split(">")[0]
    assert first.action.split(">")[1].startswith("cr90-a-1") and zone1 in ("left", "rear")
    assert first.rules[:2] == ("ARM.TARGET.DICE", "ARM.TARGET.DOUBLEARC")
    assert "4 dice" in first.reasons[0].text
    game.attacks_left = 1
    game.plan = "cr90-a-1"  # the engine keeps the first attack's target group (ARM.TARGET.DOUBLEARC)
    second = answer(game, "attack", subject=_shots(game, vsd, {zone1}))
    zone2 = second.action.split(">")[0]
    assert second.action.split(">")[1].startswith("cr90-a-1") and {zone1, zone2} == {"left", "rear"}


def test_navigate_dial_changes_speed_and_adds_a_yaw_click_token_only_speed():
    game, _ = table(["victory-ii"], ["cr90-a"])
    vsd = game.ships[0]
    vsd.speed = 2
    plain = {o.key for o in game.courses(vsd)}
    assert plain == {"2:0,-1", "2:0,0", "2:0,1"}  # chart 2: [- I]
    vsd.cmd_tokens = {"navigate"}
    token = {o.key for o in game.courses(vsd)}
    assert {"1:-1", "1:1", "2:0,1"} <= token and "2:1,1" not in token
    vsd.cmd_tokens, vsd.dial = set(), "navigate"
    dial = {o.key: o.value[2] for o in game.courses(vsd)}
    assert dial["2:1,1"] is True and dial["2:0,2"] is True and dial["2:0,1"] is False
    assert "1:2" in dial and "2:1,2" not in dial  # one joint only


def test_swarm_rerolls_a_blank_against_a_squadron_engaged_with_another():
    game, log = table(["victory-ii", "tie-fighter", "tie-fighter"], ["cr90-a", "y-wing"],
                      BLUE_HIT, BLUE_HIT, BLUE_ACC, BLUE_CRIT)
    tie1, tie2, ywing = game.squads
    place(ywing, 500.0, 500.0)
    place(tie1, 540.0, 500.0)
    place(tie2, 460.0, 500.0)
    (shot,) = game.squad_shots(tie1)
    run(game, game.attack(shot))
    (attack,) = log.of_kind("attack")
    assert attack.data["faces"] == ["hit", "hit", "crit"]  # the accuracy was rerolled (to a crit)
    assert ywing.hull == 6 - 2


def _ai_command(heading):
    from paperrobot.armada.requests import AI_COMMAND_CHECK
    game, _ = table(["victory-ii"], ["cr90-a"], BLUE_HIT)  # normal commander, OUT table: hit = navigate
    vsd, cr90 = game.ships
    game.style = "normal"
    place(vsd, 900.0, 300.0, heading)
    vsd.speed = 2
    place(cr90, 900.0, 880.0, SOUTH)  # far to the north, out of range
    game.active = vsd
    dec = answer(game, "ai-command", subject=vsd)
    return Decision(AI_COMMAND_CHECK(dec.action), dec.reasons)  # the key parsed as the engine does


def test_navigate_not_needed_for_the_formation_becomes_a_token():
    dec = _ai_command(NORTH)  # already heading at the enemy: no change needed
    assert dec.action == ("token", "navigate") and dec.rules == ("ARM.CMD.ROLL", "ARM.CMD.NAV")


def test_navigate_needed_to_turn_keeps_the_dial():
    dec = _ai_command(EAST)  # must turn hard toward the enemy: the dial's extra yaw click helps
    assert dec.action == ("dial", "navigate") and dec.rules == ("ARM.CMD.ROLL",)


def test_squadron_command_activates_the_closest_squadron_first_to_engage():
    game, log = table(["victory-ii", "tie-fighter", "tie-fighter"], ["cr90-a", "x-wing"],
                      BLUE_HIT, BLUE_HIT, BLUE_HIT, BLUE_HIT, BLUE_HIT, BLUE_HIT)
    vsd, cr90 = game.ships
    far, near, xwing = game.squads
    place(vsd, 900.0, 600.0, SOUTH)
    place(cr90, 300.0, 100.0, NORTH)
    place(far, 860.0, 700.0)
    place(near, 940.0, 500.0)
    place(xwing, 940.0, 300.0)  # 200 mm from the near TIE: within its move plus distance 1
    vsd.dial = "squadron"
    run(game, game.squadron_command(vsd))
    moves = [e.data["unit"] for e in log.of_kind("squadron-move")]
    assert moves[0] == "tie-fighter-2"
    decisions = [(e.data["rule"], e.data["text"]) for e in log.of_kind("decision")]
    assert decisions[0] == ("ARM.SQ.MOVE", "ordered: move to engage the nearest enemy squadron x-wing-1")
    assert ("ARM.SQ.TARGET", "shoot x-wing-1 (Escort, 5 hull left)") in decisions
    assert game.engaged_with(near) == [xwing]
    assert near.activated and far.activated and vsd.used == {"squadron"}


def test_activation_order_measured_on_the_table():
    game, log = table(["victory-ii", "gladiator-i"], ["cr90-a"])
    vsd, glad, cr90 = game.ships
    place(vsd, 300.0, 700.0, SOUTH)  # far from the corvette
    place(glad, 900.0, 600.0, SOUTH)
    place(cr90, 900.0, 400.0, NORTH)  # in the Gladiator's front arc at close-medium range
    dec = answer(game, "activate", subject=[vsd, glad])
    assert dec.action == "gladiator-i-1" and dec.rules == ("ARM.ACT.ORDER",)
    assert "priority 1" in dec.reasons[0].text
    # now nobody has dice; the Victory, just beyond long range and heading in, cannot stay out
    place(glad, 1500.0, 500.0, EAST)
    place(vsd, 900.0, 400.0 + 35.0 + 51.0 + 330.0, SOUTH)
    game.touch()  # units were moved by hand: forget the measured shots
    dec = answer(game, "activate", subject=[vsd, glad])
    assert dec.action == "gladiator-i-1" and "priority 3" in dec.reasons[0].text


def test_cautious_commander_deploys_squadrons_touching_their_ships():
    """ARM.DEPLOY.ZONE: "cautious commanders deploy squadrons in contact with ships": each TIE base
    touches a ship's base (distance 0 within 0.01 mm) and overlaps no ship and no other squadron."""
    from paperrobot.armada.data import geometry
    from paperrobot.armada.polygons import closest_point, point_in_poly
    obstacles = [v for x in (50, 500, 950) for y in (50, 950) for v in (x, y)]  # six obstacles well apart
    imperial = ["victory-ii", "gladiator-i"] + ["tie-fighter"] * 6
    game, log = table(imperial, ["cr90-a"], *obstacles, BLUE_ACC, BLUE_HIT, BLUE_HIT)  # cautious, FP, centre
    run(game, game.deploy())
    assert game.style == "cautious"
    r = geometry().squadron_base.radius
    imps = game.live_ships("imperial")
    ties = game.live_squads("imperial")
    for q in ties:
        gaps = []
        for s in imps:
            c = closest_point((q.x, q.y), s.fp.base)
            assert not point_in_poly((q.x, q.y), s.fp.base)
            gaps.append(math.hypot(q.x - c[0], q.y - c[1]) - r)
        assert min(gaps) == pytest.approx(0.0, abs=0.01) and min(gaps) > -0.01, (q.uid, gaps)
        assert all(math.hypot(q.x - o.x, q.y - o.y) >= 2 * r - 0.01 for o in ties if o is not q)
    assert any(d.data["rule"] == "ARM.DEPLOY.ZONE" and "in contact" in d.data["text"]
               for d in log.of_kind("decision"))
