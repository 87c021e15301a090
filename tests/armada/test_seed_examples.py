"""The seed's own worked examples (seed 003), reproduced exactly, with scripted dice."""
from paperrobot.armada import ai
from paperrobot.armada.ai import Shot
from paperrobot.core.dice import Dice


def test_squadrons_with_4_dice_beat_a_ship_with_3_red():
    # ARM.TARGET.DICE: "firing 3 red dice at a ship, or 4 dice at squadrons, the squadrons will be chosen"
    shots = [Shot("front", "mc80-assault-1", "front", 3, shields=4)] + \
        [Shot("left", f"x-wing-{i}", None, 1, shields=5, squadron=True) for i in range(1, 5)]
    dec = ai.choose_attack(shots, Dice.scripted())
    zone, group, chosen = dec.action
    assert (zone, group, len(chosen)) == ("left", "squadrons", 4)
    assert dec.rules[0] == "ARM.TARGET.DICE"


def test_corvette_double_arced_gets_two_attacks_of_two_red():
    # ARM.TARGET.DOUBLEARC: front 3 dice at a ship at long range, 3 squadrons (3 dice) to the side,
    # the corvette at long range in the side and rear arcs (2 + 2 = 4): two shots of 2 red at the corvette.
    shots = [Shot("front", "nebulon-b-escort-1", "front", 3, shields=3)] + \
        [Shot("right", f"x-wing-{i}", None, 1, squadron=True) for i in range(1, 4)] + \
        [Shot("left", "cr90-a-1", "right", 2, shields=2), Shot("rear", "cr90-a-1", "right", 2, shields=2)]
    dice = Dice.scripted()
    first = ai.choose_attack(shots, dice)
    assert first.action[1] == "cr90-a-1" and first.action[2][0].dice == 2
    assert "ARM.TARGET.DOUBLEARC" in first.rules and first.rules[0] == "ARM.TARGET.DICE"
    rest = [s for s in shots if s.zone != first.action[0]]
    second = ai.choose_attack(rest, dice, attacks_left=1, committed="cr90-a-1")
    assert second.action[1] == "cr90-a-1" and second.action[2][0].dice == 2
    assert {first.action[0], second.action[0]} == {"left", "rear"}
    assert second.rules[0] == "ARM.TARGET.DOUBLEARC"


def test_victory_shoots_the_corvette_front_with_6_dice_rather_than_a_weaker_side():
    # ARM.TARGET.WEAKARC: front zone reaches the corvette's front at medium (3 red 3 blue) and its
    # side at long (3 red only): the side has fewer shields left but would lose the 3 blue dice.
    shots = [Shot("front", "cr90-a-1", "front", 6, shields=2), Shot("front", "cr90-a-1", "left", 3, shields=1)]
    dec = ai.choose_attack(shots, Dice.scripted(), attacks_left=1)
    zone, group, (shot,) = dec.action
    assert (zone, group, shot.target_zone, shot.dice) == ("front", "cr90-a-1", "front", 6)
    assert dec.rules[-1] == "ARM.TARGET.WEAKARC"
    assert "fewer shields but only 3 dice" in dec.reasons[-1].text


def test_weakest_arc_chosen_when_dice_are_equal():
    shots = [Shot("front", "cr90-a-1", "front", 3, shields=2), Shot("front", "cr90-a-1", "rear", 3, shields=1)]
    dec = ai.choose_attack(shots, Dice.scripted(), attacks_left=1)
    assert dec.action[2][0].target_zone == "rear" and dec.rules[-1] == "ARM.TARGET.WEAKARC"


def _victory_defence(threat: int) -> ai.DefenceView:
    # the corvette's front (2 red 1 blue) at medium range: hit, hit+hit, hit = 4 damage on the front (3 shields)
    return ai.DefenceView(["hit", "hit+hit", "hit"], ["R", "R", "U"], "medium",
                          [("brace", False), ("redirect", False), ("redirect", False)],
                          zone_shields=3, adjacent_shields=3, hull_left=8, threat_dice=threat)


def test_victory_saves_its_brace_while_the_mc80_assault_has_4_red_on_it():
    # ARM.DEF.BRACE: the unactivated MC80 Assault cruiser has 4 red (side arc, long range) on the Victory
    dec = ai.defence(_victory_defence(threat=4))
    assert "brace" not in [k for k, _ in dec.action]
    assert "ARM.DEF.BRACE" in dec.rules
    assert ("redirect", False) in dec.action  # ARM.DEF.USE: the other tokens still minimise damage


def test_victory_braces_if_the_mc80_is_the_command_variant_with_3_red():
    dec = ai.defence(_victory_defence(threat=3))
    assert ("brace", False) in dec.action
    assert "ARM.DEF.BRACE" in dec.rules


def test_tie_fighter_a_must_shoot_the_escorting_x_wings():
    # ARM.SQ.TARGET: Escorts first
    engaged = [ai.SquadTarget("x-wing-1", 5, escort=True), ai.SquadTarget("z-95-1", 1)]
    dec = ai.squadron_target(engaged, Dice.scripted())
    assert dec.action == "x-wing-1" and dec.rules == ("ARM.SQ.TARGET",)


def test_tie_fighter_b_shoots_the_z95_over_the_one_hull_a_wing():
    # ARM.SQ.TARGET: non-Counter before Counter, even though the A-wing has only 1 hull left
    engaged = [ai.SquadTarget("z-95-1", 3), ai.SquadTarget("a-wing-1", 1, counter=True)]
    dec = ai.squadron_target(engaged, Dice.scripted())
    assert dec.action == "z-95-1" and dec.rules == ("ARM.SQ.TARGET",)
    assert "a-wing-1 (1 hull)" in dec.reasons[0].text
