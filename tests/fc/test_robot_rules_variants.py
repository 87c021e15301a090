"""The FC robot flies a variant of its procedure (fc/data/robot_rules.toml, edited): a changed entry changes the
robot's decisions where its rule applies, and only there; the exported file unchanged changes nothing; a broken
variant is refused with one line naming the entry."""
import pytest

import paperrobot
from paperrobot.core.contract import drive_all
from paperrobot.core.dice import Dice
from paperrobot.core.events import EventLog
from paperrobot.core.robot_rules import RulesError
from paperrobot.fc import Robot, procedure
from paperrobot.fc.robot import repair_order

from .helpers import D, ask, rules, setup

PUBLISHED = procedure.PROCEDURE.export()


def variant(*changes):
    text = PUBLISHED
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return procedure.load(text)


ACCEL_2_5 = (('{ rolls = "2-4", result = "accelerate" }', '{ rolls = "2-5", result = "accelerate" }'),
             ('{ rolls = "5-10", result = "accelerate-if-fired-and-rear" }',
              '{ rolls = "6-10", result = "accelerate-if-fired-and-rear" }'))


def flown(rules_, *dice, **kw):
    game, _, d = setup(*dice, **kw)
    return game, Robot(d, rules_), d


# ------------------------------------------------------------------ FC.2: accelerate on 2-5 instead of 2-4
@pytest.mark.parametrize("dice,published,changed", [((2, 3), "none", "accel"), ((1, 3), "accel", "accel"),
                                                    ((3, 3), "none", "none"), ((6, 6), "none", "none")])
def test_accelerate_on_2_to_5_changes_only_the_roll_of_5(dice, published, changed):
    game, robot, _ = setup(*dice)
    assert ask(game, robot, "accelerate").action == published
    game, robot, d = flown(variant(*ACCEL_2_5), *dice)
    decision = ask(game, robot, "accelerate")
    assert decision.action == changed and rules(decision) == ["FC.2"] and d.pending == 0
    assert decision.reasons[0].text.endswith("[variant acceleration: 2-5 accelerate, 6-10 "
                                             "accelerate-if-fired-and-rear, 11-12 continue]")


def test_a_whole_game_differs_first_at_an_acceleration_roll_of_5():
    """Same seed, published vs the 2-5 variant: every decision is the same up to the first 2d6 = 5 for FC.2."""
    def decisions(rules_text):
        log = EventLog()
        match = paperrobot.new_game("fc", seed=11, log=log, robot_rules=rules_text)
        drive_all(match, {"robot": "robot", "player": "policy"})
        return [(e.data["rule"], e.data["text"].split(" [variant")[0], e.data["action"]) for e in log.events
                if e.kind == "decision" and e.side == "robot"]
    a, b = decisions(""), decisions(variant(*ACCEL_2_5).text)
    first = next(i for i, (x, y) in enumerate(zip(a, b)) if x != y)
    assert a[:first] == b[:first] and first > 10
    rule, text, action = b[first]
    assert rule == "FC.2" and text.startswith("2d6=5: pay for acceleration") and action == "accel"
    assert a[first] == ("FC.2", "2d6=5: continue at baseline speed", "none")


# ------------------------------------------------------------------ a fire table, a range, a threshold, an order
def test_fire_at_range_0_4_never_fires_phaser_3s_in_a_variant_without_them():
    no_ph3 = variant(('{ rolls = "1-2", result = ["phaser-1", "disruptor", "phaser-2", "phaser-3"] }',
                      '{ rolls = "1-2", result = ["phaser-1", "disruptor", "phaser-2"] }'))
    game, robot, _ = flown(no_ph3, 1, robot="kzinti-bc", ppos=(7, 12))  # range 3 abeam: the phaser-3s bear
    decision = ask(game, robot, "fire")
    assert not any(shot[0].startswith("ph3") for shot in decision.action)
    assert rules(decision)[0] == "FC.5C" and "[variant fire_close:" in decision.reasons[0].text
    game, robot, _ = setup(1, robot="kzinti-bc", ppos=(7, 12))
    assert any(shot[0].startswith("ph3") for shot in ask(game, robot, "fire").action)  # the published robot does


def test_the_het_reaches_five_hexes_when_het_range_is_5():
    wider = variant(('seed = "If the enemy is not in the FA arc, but is within four hexes, roll one die."\n'
                     'value = 4', 'seed = "within five hexes"\nvalue = 5'))
    game, robot, d = flown(wider, 1, ppos=(5, 12))  # range 5 abeam: no HET roll in the published procedure
    r = game.ships["robot"]
    r.energy, r.battery = 14.0, 0.0
    decision = ask(game, robot, "move", game.legal_moves(r))
    assert decision.action.startswith("het-") and rules(decision)[0] == "FC.3B1AX" and d.pending == 0
    game, robot, d = setup(1, ppos=(5, 12))
    game.ships["robot"].energy, game.ships["robot"].battery = 14.0, 0.0
    decision = ask(game, robot, "move", game.legal_moves(game.ships["robot"]))
    assert rules(decision) == ["FC.3B1A"] and d.pending == 1  # published: turn, the die not rolled


def test_the_transfer_threshold_moves_with_the_entry():
    game, robot, _ = flown(variant(('If the result is 1-4, transfer four boxes from the stronger shield to the '
                                    'weaker one."\ndie = "d6"\nvalue = 4',
                                    'If the result is 1-5, ..."\ndie = "d6"\nvalue = 5')), 5)
    game.ships["robot"].shields[:] = [2, 14, 10, 10, 10, 10]  # #1 weak, #2 its one strong neighbour
    decision = ask(game, robot, "transfer")
    assert decision.action == [[2, 1, 4]] and rules(decision) == ["FC.7C"]
    game, robot, _ = setup(5)
    game.ships["robot"].shields[:] = [2, 14, 10, 10, 10, 10]
    assert ask(game, robot, "transfer").action == []


def test_a_repair_order_variant_puts_batteries_first():
    first = variant(('value = ["control", "tractor", "phaser-arcs", "batteries"',
                     'value = ["batteries", "control", "tractor", "phaser-arcs"'))
    game, robot, _ = flown(first)
    r, p = game.ships["robot"], game.ships["player"]
    r.boxes["control"], r.boxes["battery"] = 0, 0
    assert repair_order(game, r, p)[:3] == ["control", "battery", "battery"]
    decision = ask(game, robot, "repair", {"points": 4})
    assert decision.action[:3] == ["battery", "battery", "control"] and rules(decision) == ["FC.7B"]


def test_a_launch_table_variant_launches_where_the_published_one_holds():
    more = variant(('[launch_other]\nrule = "FC.6E"', '[launch_other]\nrule = "FC.6E"'),
                   ('  { rolls = 1, result = 1 },\n  { rolls = "2-6", result = 0 },',
                    '  { rolls = "1-3", result = 1 },\n  { rolls = "4-6", result = 0 },'))
    game, robot, _ = flown(more, 3, ppos=(10, 30))  # range 20: 6E
    decision = ask(game, robot, "launch")
    assert decision.action == ["ship"] and rules(decision) == ["FC.6E"]
    game, robot, _ = setup(3, ppos=(10, 30))
    assert ask(game, robot, "launch").action == []


# ------------------------------------------------------------------ the published file, broken variants
def test_the_exported_file_flies_the_published_robot_with_the_same_log():
    def log_of(rules_text):
        log = EventLog()
        match = paperrobot.new_game("fc", seed=4, log=log, robot_rules=rules_text)
        drive_all(match, {"robot": "robot", "player": "robot"})
        return [e.to_json() for e in log.events]
    assert log_of(PUBLISHED) == log_of("")


@pytest.mark.parametrize("old,new,message", [
    ('{ rolls = "3-5", result = ["phaser-1", "disruptor", "phaser-2"] }',
     '{ rolls = "2-5", result = ["phaser-1", "disruptor", "phaser-2"] }',
     "entry 'fire_close' (FC.5C): rolls '2-5' and '1-2' overlap (roll 2 is in both)"),
    ('rule = "FC.1C"\nseed = "enemy is within 4 hexes and facing the same shield"\nvalue = 4',
     'rule = "FC.1C"\nseed = "enemy is within 4 hexes and facing the same shield"\nvalue = -4',
     "entry 'held_drone_near' (FC.1C): value must be from 0 to 40, not -4"),
    ('{ rolls = "11-12", result = "continue" }', '{ rolls = "11", result = "continue" }',
     "entry 'acceleration' (FC.2): no result for roll 12 of 2d6"),
    ('FA Arc."\ndie = "d6"\nvalue = 3', 'FA Arc."\ndie = "d6"\nvalue = 7',
     "entry 'het' (FC.3B1AX): value must be a roll of d6"),
    ('rolls = 5, result = ["add", "phaser-3", "tractor"] }', 'rolls = 5, result = ["add", "phaser-9", "tractor"] }',
     "entry 'defence_penetrating' (FC.4B): rolls '5': result must be a list of names from add"),
    ('seed = "If enemy ship is within five-eight (5-8) hexes"\nvalue = 8',
     'seed = "If enemy ship is within five-eight (5-8) hexes"\nvalue = 3',
     "entries fire_range_close, fire_range_mid, fire_range_far (FC.5C-5E) must rise"),
])
def test_a_broken_variant_is_refused_with_one_line(tmp_path, old, new, message):
    path = tmp_path / "mine.toml"
    assert PUBLISHED.count(old) == 1, old
    path.write_text(PUBLISHED.replace(old, new))
    with pytest.raises(RulesError) as err:
        paperrobot.new_game("fc", seed=1, robot_rules=str(path))
    assert str(err.value).startswith(f"{path}: ") and message in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("rules_", [None, variant(*ACCEL_2_5)])
def test_the_robot_reads_its_procedures_numbers_natively_with_the_same_values(rules_):
    """The robot's numbers (robot_base.Nums, read natively compiled) carry every slot of the procedure's Numbers
    (each entry, each variant note, the rules) with the same value."""
    n = procedure.numbers(rules_)
    robot = Robot(Dice(1), rules_)
    assert type(robot.n) is not type(n)
    for name in type(n).__slots__:
        assert getattr(robot.n, name) == getattr(n, name), name
    assert (robot.n.n_acceleration == "") == (rules_ is None)  # a variant's entry carries its note
