"""Each ARM.* rule with scripted dice: the action and the cited rule.

Blue die as d8: 1-4 hit, 5-6 crit, 7-8 accuracy (the confirmed face counts, armada/dice.py).
"""
import pytest

from paperrobot.armada import ai
from paperrobot.core.dice import Dice, DiceScriptError

HIT, CRIT, ACC = 1, 5, 7
RULER = (76.5, 124.5, 185.5, 245.5, 304.8)  # the ruler's distances 1-5 (mm): distance 3 is 185.5


@pytest.mark.parametrize("value,style", [(HIT, "normal"), (4, "normal"), (CRIT, "aggressive"), (6, "aggressive"),
                                         (ACC, "cautious"), (8, "cautious")])
def test_commander_style(value, style):
    dec = ai.commander_style(Dice.scripted(value))
    assert dec.action == style and dec.rules == ("ARM.CMDR.STYLE",) and dec.reasons[0].rolls[0].value == value


def test_focal_point_on_the_middle_ship_then_two_crits_move_it_6_west():
    dec = ai.focal_point([300.0, 1500.0, 900.0], Dice.scripted(CRIT, CRIT), 1828.8, RULER)
    assert dec.action == pytest.approx(900.0 - 371.0) and dec.rules == ("ARM.DEPLOY.FP",)
    assert "distance 6" in dec.reasons[0].text and len(dec.reasons[0].rolls) == 2


def test_focal_point_midway_between_two_ships_accuracy_then_hit_moves_3_east():
    dec = ai.focal_point([400.0, 800.0], Dice.scripted(ACC, HIT), 1828.8, RULER)
    assert dec.action == pytest.approx(600.0 + 185.5)


def test_focal_point_hit_stays_and_rolls_once():
    dec = ai.focal_point([400.0, 800.0, 1000.0, 1200.0], Dice.scripted(HIT), 1828.8, RULER)
    assert dec.action == pytest.approx(900.0)  # four ships: midway between the middle two


def test_focal_point_crit_then_no_crit_moves_3_west_only():
    dec = ai.focal_point([900.0], Dice.scripted(CRIT, ACC), 1828.8, RULER)
    assert dec.action == pytest.approx(900.0 - 185.5)


@pytest.mark.parametrize("value,where", [(HIT, "centre"), (CRIT, "west"), (ACC, "east")])
def test_deployment_zone(value, where):
    dec = ai.deployment_zone(Dice.scripted(value))
    assert dec.action == where and dec.rules == ("ARM.DEPLOY.ZONE",)


def test_deployment_speed_and_formation():
    # ARM.DEPLOY.ZONE: cautious 1, normal 2, aggressive 3 if possible (a Victory's chart stops at 2)
    assert [ai.deploy_speed(s, 3) for s in ("cautious", "normal", "aggressive")] == [1, 2, 3]
    assert ai.deploy_speed("aggressive", 2) == 2
    order = ai.formation_order([("vsd", 80, 2), ("glad", 56, 3), ("raider", 44, 4), ("vic1", 73, 2)])
    assert order[len(order) // 2 if len(order) % 2 else 1] == "vsd" or order.index("vsd") in (1, 2)
    assert order[0] == "raider" or order[-1] == "raider"  # the fastest on an outer flank
    assert abs(order.index("vic1") - order.index("vsd")) == 1  # the slowest next to the flagship


def test_activation_most_dice_first():
    c = [ai.ActInfo("vsd", 6), ai.ActInfo("glad", 4, squadrons=True)]
    dec = ai.activation(c, Dice.scripted())
    assert dec.action == "vsd" and dec.rules == ("ARM.ACT.ORDER",)


def test_activation_tie_goes_to_the_single_double_arc_then_a_die():
    c = [ai.ActInfo("vsd", 4), ai.ActInfo("glad", 4, single_double_arc=True)]
    assert ai.activation(c, Dice.scripted()).action == "glad"
    c = [ai.ActInfo("a", 4), ai.ActInfo("b", 4)]
    dec = ai.activation(c, Dice.scripted(2))
    assert dec.action == "b" and dec.reasons[0].rolls[0].sides == 2


def test_activation_squadrons_then_staying_out_then_the_rest():
    c = [ai.ActInfo("a", 0, can_stay_out=True), ai.ActInfo("b", 0, squadrons=True)]
    assert ai.activation(c, Dice.scripted()).action == "b"
    c = [ai.ActInfo("a", 0), ai.ActInfo("b", 0, can_stay_out=True)]
    assert ai.activation(c, Dice.scripted()).action == "b"
    dec = ai.activation([ai.ActInfo("a", 0), ai.ActInfo("b", 0), ai.ActInfo("c", 0)], Dice.scripted(3))
    assert dec.action == "c" and "priority 4" in dec.reasons[0].text


ALL = {"navigate": True, "squadron": True, "repair": True, "concentrate": True}
TABLE = [("cautious", False, HIT, "repair"), ("cautious", False, CRIT, "squadron"), ("cautious", False, ACC, "navigate"),
         ("cautious", True, HIT, "repair"), ("cautious", True, CRIT, "squadron"), ("cautious", True, ACC, "navigate"),
         ("normal", False, HIT, "navigate"), ("normal", False, CRIT, "squadron"), ("normal", False, ACC, "concentrate"),
         ("normal", True, HIT, "squadron"), ("normal", True, CRIT, "navigate"), ("normal", True, ACC, "repair"),
         ("aggressive", False, HIT, "navigate"), ("aggressive", False, CRIT, "squadron"),
         ("aggressive", False, ACC, "concentrate"), ("aggressive", True, HIT, "concentrate"),
         ("aggressive", True, CRIT, "squadron"), ("aggressive", True, ACC, "navigate")]


@pytest.mark.parametrize("style,enemy,value,cmd", TABLE)
def test_command_tables(style, enemy, value, cmd):
    dec = ai.command(style, enemy, ALL, set(), Dice.scripted(value))
    assert dec.action == ("dial", cmd) and dec.rules == ("ARM.CMD.ROLL",)
    assert ("IN" if enemy else "OUT") in dec.reasons[0].text


def test_squadron_or_concentrate_fire_depends_on_squadrons_in_range():
    usable = dict(ALL, squadron=False)
    dec = ai.command("cautious", True, usable, set(), Dice.scripted(CRIT))
    assert dec.action == ("dial", "concentrate") and dec.rules == ("ARM.CMD.ROLL",)


def test_unusable_command_becomes_a_token():
    usable = dict(ALL, squadron=False)
    dec = ai.command("normal", False, usable, set(), Dice.scripted(CRIT))
    assert dec.action == ("token", "squadron") and dec.rules == ("ARM.CMD.ROLL", "ARM.CMD.TOKEN")


def test_unusable_command_already_held_as_a_token_is_rerolled():
    usable = dict(ALL, repair=False)
    dec = ai.command("cautious", False, usable, {"repair"}, Dice.scripted(HIT, HIT, ACC))
    assert dec.action == ("dial", "navigate")
    assert dec.rules[0] == "ARM.CMD.TOKEN" and len(dec.reasons[-1].rolls) == 3


def test_command_roll_uses_exactly_one_die_when_usable():
    with pytest.raises(DiceScriptError):
        ai.command("normal", True, dict(ALL, repair=False), {"repair"}, Dice.scripted(ACC))


def _c(key, double=None, err=0.0, on=True, overlap=False):
    return ai.Course(key, 2, (0, 0), double, err, on, overlap)


def test_navigation_keeps_formation():
    dec = ai.course([_c("a", err=30.0), _c("b", err=5.0)])
    assert dec.action == "b" and dec.rules == ("ARM.CMD.NAV",)


def test_navigation_breaks_formation_for_a_double_arc():
    dec = ai.course([_c("a", err=5.0), _c("b", double="cr90-a-1", err=80.0)])
    assert dec.action == "b" and dec.rules == ("ARM.CMD.NAV",) and "double-arcs cr90-a-1" in dec.reasons[0].text


def test_override_never_leaves_the_table_or_rams_when_it_can_avoid_it():
    dec = ai.course([_c("a", err=0.0, on=False), _c("b", err=1.0, overlap=True), _c("c", err=50.0)])
    assert dec.action == "c" and dec.rules == ("ARM.OVERRIDE", "ARM.CMD.NAV")


def _view(**kw):
    base = dict(faces=["hit", "hit", "hit"], colours=["R", "R", "R"], band="medium", tokens=[], zone_shields=3,
                adjacent_shields=3, hull_left=8, threat_dice=0)
    base.update(kw)
    return ai.DefenceView(**base)


def test_defence_tokens_minimise_damage():
    dec = ai.defence(_view(band="long", tokens=[("evade", False)]))
    assert dec.action == [("evade", False)] and dec.rules == ("ARM.DEF.USE",)
    dec = ai.defence(_view(tokens=[("scatter", False), ("brace", False)]))
    assert dec.action == [("scatter", False)]


def test_no_token_spent_on_a_miss():
    dec = ai.defence(_view(faces=["blank", "acc"], tokens=[("brace", False)]))
    assert dec.action == [] and dec.rules == ("ARM.DEF.USE",)


def test_evade_at_close_range_follows_the_rules_option():
    v = _view(band="close", tokens=[("evade", False)])
    assert ai.defence(v).action == [("evade", False)]
    v.evade_close = False  # the 2015 rules the seed was written under: no effect at close range
    assert ai.defence(v).action == []


def test_exhausted_redirect_only_to_avoid_damage_cards():
    dec = ai.defence(_view(tokens=[("redirect", True)], zone_shields=1))  # 3 damage, 1 shield: 2 cards
    assert dec.action == [("redirect", True)] and "ARM.DEF.EXHAUSTED" in dec.rules
    dec = ai.defence(_view(faces=["hit", "hit"], tokens=[("redirect", True)], zone_shields=2))  # no cards
    assert dec.action == [] and dec.rules == ("ARM.DEF.EXHAUSTED",)


def test_exhausted_brace_only_to_avoid_destruction():
    v = _view(faces=["hit+hit", "hit+hit"], tokens=[("brace", True)], zone_shields=0, adjacent_shields=0, hull_left=2)
    dec = ai.defence(v)
    assert dec.action == [("brace", True)] and "ARM.DEF.EXHAUSTED" in dec.rules
    v.hull_left = 8
    dec = ai.defence(v)
    assert dec.action == [] and "ARM.DEF.EXHAUSTED" in dec.rules


def test_exhausted_evade_kept_when_the_readied_brace_already_avoids_cards():
    """ARM.DEF.EXHAUSTED: 3 damage on 2 shields; the readied brace halves it to 2, no card: the exhausted
    evade is not needed."""
    v = _view(band="long", tokens=[("evade", True), ("brace", False)], zone_shields=2, adjacent_shields=0)
    dec = ai.defence(v)
    assert dec.action == [("brace", False)]
    assert any(r.rule == "ARM.DEF.EXHAUSTED" and "evade is exhausted: kept" in r.text for r in dec.reasons)


def test_exhausted_scatter_kept_when_the_readied_redirect_avoids_every_card():
    """ARM.DEF.EXHAUSTED: 3 damage on 2 shields; the readied redirect puts 1 on the adjacent zone's 3
    shields, no card: the exhausted scatter is not needed."""
    v = _view(tokens=[("scatter", True), ("redirect", False)], zone_shields=2, adjacent_shields=3)
    dec = ai.defence(v)
    assert dec.action == [("redirect", False)]
    assert any(r.rule == "ARM.DEF.EXHAUSTED" and "scatter is exhausted: kept" in r.text for r in dec.reasons)


def test_exhausted_brace_kept_when_the_readied_evade_saves_the_ship():
    """ARM.DEF.EXHAUSTED: 5 damage, no shields, 4 hull left would destroy it; the readied evade cancels a
    double hit (3 cards): the ship survives, so the exhausted brace is kept."""
    v = _view(faces=["hit+hit", "hit+hit", "hit"], band="long", tokens=[("evade", False), ("brace", True)],
              zone_shields=0, adjacent_shields=0, hull_left=4)
    dec = ai.defence(v)
    assert dec.action == [("evade", False)]
    assert any(r.rule == "ARM.DEF.EXHAUSTED" and "brace is exhausted: kept" in r.text for r in dec.reasons)


def test_no_brace_on_the_1_damage_the_evade_leaves():
    """ARM.DEF.USE: the evade cancels one of two hits at long range; halving the 1 damage left gains nothing."""
    dec = ai.defence(_view(faces=["hit", "hit"], colours=["R", "R"], band="long",
                           tokens=[("evade", False), ("brace", False)]))
    assert dec.action == [("evade", False)] and dec.rules == ("ARM.DEF.USE", "ARM.DEF.USE")
    assert "no brace" in dec.reasons[1].text


def test_override_braces_despite_a_bigger_threat_when_it_would_be_destroyed():
    v = _view(faces=["hit+hit", "hit+hit"], tokens=[("brace", False)], zone_shields=0, adjacent_shields=0,
              hull_left=3, threat_dice=6)
    dec = ai.defence(v)
    assert dec.action == [("brace", False)] and "ARM.OVERRIDE" in dec.rules


def test_contain_stops_a_face_up_card():
    dec = ai.defence(_view(faces=["crit", "hit"], tokens=[("contain", False)], zone_shields=0, adjacent_shields=0))
    assert dec.action == [("contain", False)]


def test_squadron_ties_are_broken_by_a_die():
    t = [ai.SquadTarget("x-wing-1", 3), ai.SquadTarget("y-wing-1", 3)]
    dec = ai.squadron_target(t, Dice.scripted(2))
    assert dec.action == "y-wing-1" and dec.reasons[0].rolls[0].sides == 2


def test_squadron_moves():
    dec = ai.squadron_move("tie-1", "x-wing-1", True, "cr90-a-1", activated_by_command=True)
    assert dec.action == ("engage", "x-wing-1") and dec.rules == ("ARM.SQ.MOVE",)
    dec = ai.squadron_move("tie-1", "x-wing-1", False, "cr90-a-1", activated_by_command=True)
    assert dec.action == ("attack", "cr90-a-1")
    dec = ai.squadron_move("tie-1", "x-wing-1", True, "cr90-a-1", activated_by_command=False)
    assert dec.action == ("formation", None)


def test_target_tie_is_broken_by_a_die():
    shots = [ai.Shot("front", "a", "front", 3), ai.Shot("front", "b", "front", 3)]
    dec = ai.choose_attack(shots, Dice.scripted(2), attacks_left=1)
    assert dec.action[1] == "b" and dec.rules[0] == "ARM.TARGET.DICE" and dec.reasons[0].rolls
